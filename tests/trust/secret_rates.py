"""The secret detector measured as a detector, for docs/security.md: the share of secret forms
withheld (every marked value inside what is withheld), per family; the share of ordinary texts
touched (anything withheld at all), per kind; the share of LoCoMo chat turns touched; and what
it costs per KB of text. Then the same on the corpora in bench/data/ written without reading
this one or the detector (issue 30): bench/data/secrets-second.json and the set written after
tuning, bench/data/secrets-after.json, per kind.

    python -m tests.trust.secret_rates [--show]     (--show lists each miss and each text touched)
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from kit.secrets import Secret, find_secrets, withhold_secrets
from tests.trust.secret_corpus import ORDINARY, SECRETS, Form

LOCOMO = Path(__file__).resolve().parents[3] / "shared" / "data" / "locomo-dev.json"
DATA = Path(__file__).resolve().parents[2] / "bench" / "data"
SECOND = DATA / "secrets-second.json"
AFTER = DATA / "secrets-after.json"


@dataclass(frozen=True)
class Item:
    """One text of a bench/data corpus: a secret (none of its parts may survive) or a look-alike
    (it must come out unchanged)."""

    id: str
    label: str  # "secret" or "lookalike"
    kind: str
    text: str
    parts: tuple[str, ...]


def load(path: Path) -> list[Item]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return [
        Item(i["id"], i["label"], i["kind"], i["text"], tuple(i["secret"])) for i in data["items"]
    ]


def handled(item: Item) -> bool:
    """A secret with no part left in the screened text; a look-alike left as it was."""
    out = withhold_secrets(item.text)
    if item.label == "secret":
        return not any(part in out for part in item.parts)
    return out == item.text


def locomo_turns(path: Path = LOCOMO) -> list[str]:
    """Every turn of the LoCoMo dev conversations: ordinary chat, none of it a secret."""
    if not path.exists():
        return []
    data = json.loads(path.read_text(encoding="utf-8"))
    return [
        turn["text"]
        for sample in data
        for key, session in sample["conversation"].items()
        if key.startswith("session_") and isinstance(session, list)
        for turn in session
    ]


def withheld(form: Form, found: list[Secret] | None = None) -> bool:
    """Every value marked in `form` lies inside what the detector withholds."""
    spans = find_secrets(form.text) if found is None else found
    return all(any(s.start <= a and b <= s.end for s in spans) for a, b in form.values)


def beyond(form: Form, found: list[Secret]) -> int:
    """Characters withheld outside the marked values (the text lost around a secret)."""
    marked = {i for a, b in form.values for i in range(a, b)}
    return sum(1 for s in found for i in range(s.start, s.end) if i not in marked)


@dataclass(frozen=True)
class Rates:
    withheld: int
    forms: int
    touched: int
    ordinary: int
    beyond: int  # characters withheld beyond the marks, over all forms withheld

    @property
    def recall(self) -> float:
        return self.withheld / self.forms

    @property
    def false_positive_rate(self) -> float:
        return self.touched / self.ordinary


def rates() -> Rates:
    caught = [(f, found) for f in SECRETS if withheld(f, found := find_secrets(f.text))]
    touched = sum(1 for _, text in ORDINARY if find_secrets(text))
    return Rates(
        withheld=len(caught),
        forms=len(SECRETS),
        touched=touched,
        ordinary=len(ORDINARY),
        beyond=sum(beyond(f, found) for f, found in caught),
    )


def cost_per_kb(texts: list[str], rounds: int = 3) -> float:
    """Milliseconds per KB of text, the best of `rounds` passes over `texts`."""
    size = sum(len(t.encode("utf-8")) for t in texts) / 1024
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        for text in texts:
            find_secrets(text)
        best = min(best, time.perf_counter() - start)
    return best * 1000 / size


def main(show: bool = False) -> None:
    found: Counter[str] = Counter()
    total: Counter[str] = Counter()
    for f in SECRETS:
        total[f.family] += 1
        if withheld(f):
            found[f.family] += 1
        elif show:
            print(f"missed ({f.family}): {f.text!r}")
    result = rates()
    print("| secret family | withheld |\n|---|---|")
    for family in total:
        print(f"| {family} | {found[family]}/{total[family]} |")
    print(f"| **all** | **{result.withheld}/{result.forms} ({result.recall:.1%})** |\n")
    print(f"characters withheld beyond the marked values, all forms: {result.beyond}\n")
    kinds: Counter[str] = Counter()
    hit: Counter[str] = Counter()
    for kind, text in ORDINARY:
        kinds[kind] += 1
        if find_secrets(text):
            hit[kind] += 1
            if show:
                print(f"  touched ({kind}): {text!r}")
    print("| ordinary texts | touched |\n|---|---|")
    for kind in kinds:
        print(f"| {kind} | {hit[kind]}/{kinds[kind]} |")
    print(
        f"| **all** | **{result.touched}/{result.ordinary} ({result.false_positive_rate:.1%})** |\n"
    )
    turns = locomo_turns()
    touched = [t for t in turns if find_secrets(t)]
    if turns:
        print(
            f"LoCoMo turns touched: {len(touched)}/{len(turns)} ({len(touched) / len(turns):.2%})"
        )
        if show:
            for text in touched:
                print(f"  touched: {text!r}")
        print(f"cost: {cost_per_kb(turns):.2f} ms per KB of chat turns (one call per turn)")
        whole = "\n".join(turns)[: 256 * 1024]
        print(f"      {cost_per_kb([whole]):.2f} ms per KB in one 256 KB text")
    for path in (SECOND, AFTER):
        print_corpus(path, show)


def print_corpus(path: Path, show: bool) -> None:
    items = load(path)
    print(f"\n{path.name}")
    for label, heading in (("secret", "withheld"), ("lookalike", "kept")):
        total: Counter[str] = Counter()
        good: Counter[str] = Counter()
        for item in (i for i in items if i.label == label):
            total[item.kind] += 1
            if handled(item):
                good[item.kind] += 1
            elif show:
                what = "missed" if label == "secret" else "touched"
                print(f"  {what} ({item.kind}): {item.text!r}")
        print(f"| {label} kind | {heading} |\n|---|---|")
        for kind in total:
            print(f"| {kind} | {good[kind]}/{total[kind]} |")
        share = sum(good.values()) / sum(total.values())
        print(f"| **all** | **{sum(good.values())}/{sum(total.values())} ({share:.1%})** |\n")


if __name__ == "__main__":
    main(show="--show" in sys.argv)
