"""The secret detector (kit/secrets/) as a detector and as a cost: what it withholds of the
corpora written apart from it (bench/data/secrets-second.json, written before the detector was
read; bench/data/secrets-after.json, written after tuning and measured before fixing), split
by kind, and of its own corpus (tests/trust/secret_corpus.py); what it touches of ordinary
chat (LoCoMo's and BEAM's turns); and what it costs per message and per KB: on chat turns, one
call each (its hot path: every message logged, every fact), on whole 256 KB notes, and on
hostile texts that would show a regex that is not linear (each at 64 KB and 256 KB: the ms
per KB should match).

    python bench/secret_detector.py [--rounds 5] [--kit PATH]
                                    [--rates-only | --cost-only | --turns-only]

`--kit PATH` measures the Kit checked out at PATH instead (an older commit: `git worktree add`
or `git archive`), against this checkout's corpora: the before and after of a change. Prints
numbers (the least CPU time of the rounds: a loaded host does not inflate it); asserts
nothing. Reads only `find_secrets`.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "bench" / "data"
SHARED = ROOT.parent / "shared" / "data"
KB = 1024
BEAM_SAMPLE = 1000  # BEAM's turns average 2 KB (code, plans): the first 1,000 are enough to time
PEM_LINES = "-----BEGIN PRIVATE KEY-----\n" + "QUJD" * 16 + "\n"

Finder = Callable[[str], list[Any]]


def load_finder(kit: Path) -> Finder:
    sys.path.insert(0, str(kit))
    from kit.secrets import find_secrets

    return find_secrets


def turns(name: str) -> list[str]:
    path = SHARED / name
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


def withheld(text: str, find: Finder) -> str:
    for secret in reversed(find(text)):
        text = text[: secret.start] + "[secret withheld]" + text[secret.end :]
    return text


def corpus_rates(path: Path, find: Finder) -> None:
    items = json.loads(path.read_text(encoding="utf-8"))["items"]
    print(f"\n{path.relative_to(ROOT)}")
    for label, heading in (("secret", "withheld"), ("lookalike", "kept")):
        total: Counter[str] = Counter()
        good: Counter[str] = Counter()
        for item in (i for i in items if i["label"] == label):
            out = withheld(item["text"], find)
            total[item["kind"]] += 1
            if label == "secret":
                good[item["kind"]] += not any(part in out for part in item["secret"])
            else:
                good[item["kind"]] += out == item["text"]
        print(f"  {label + ' kind':28} {heading:>9}")
        for kind in total:
            print(f"  {kind:28} {good[kind]:>4}/{total[kind]:<4}")
        share = sum(good.values()) / sum(total.values())
        print(f"  {'all':28} {sum(good.values()):>4}/{sum(total.values()):<4} ({share:.1%})")


def own_corpus_rates(find: Finder) -> None:
    sys.path.insert(1, str(ROOT))
    from tests.trust.secret_corpus import ORDINARY, SECRETS

    caught = sum(
        all(any(s.start <= a and b <= s.end for s in find(f.text)) for a, b in f.values)
        for f in SECRETS
    )
    touched = sum(bool(find(text)) for _, text in ORDINARY)
    print("\ntests/trust/secret_corpus.py")
    print(f"  secret forms withheld {caught}/{len(SECRETS)}; ordinary texts touched ", end="")
    print(f"{touched}/{len(ORDINARY)}")


def chat_touched(find: Finder) -> None:
    for name in ("locomo-dev.json", "beam-100k.json"):
        texts = turns(name)
        if texts:
            touched = sum(bool(find(t)) for t in texts)
            print(f"  {name}: turns touched {touched}/{len(texts)}")


def best(run: Callable[[], object], rounds: int) -> float:
    """The least CPU time of `rounds` runs: on a shared host, wall time measures the others."""
    times = []
    for _ in range(rounds):
        start = time.process_time()
        run()
        times.append(time.process_time() - start)
    return min(times)


def size_kb(texts: list[str]) -> float:
    return sum(len(t.encode("utf-8")) for t in texts) / KB


def fill(unit: str, size: int) -> str:
    return (unit * (size // len(unit) + 1))[:size]


def cost(find: Finder, rounds: int, turns_only: bool = False) -> None:
    chat_turns = (
        turns("locomo-dev.json")
        or ["I went hiking with my sister last weekend, it was lovely."] * 1500
    )
    print(f"\n{'text':44} {'ms/KB':>8} {'µs/msg':>8}")
    beam = turns("beam-100k.json")[:BEAM_SAMPLE]
    for name, texts in (("LoCoMo turns", chat_turns), (f"BEAM's first {len(beam)} turns", beam)):
        if not texts:
            continue
        elapsed = best(lambda texts=texts: [find(t) for t in texts], rounds)
        per_kb = elapsed * 1000 / size_kb(texts)
        print(f"{name + ', one call each':44} {per_kb:8.2f} {elapsed / len(texts) * 1e6:8.0f}")
    if turns_only:
        return
    chat = "\n".join(chat_turns)
    rng = random.Random(7)
    words = [w for t in chat_turns for w in t.split()]
    intl = (
        "Mein Passwort ist sicher, sagte sie. Пароль слишком короткий. パスワードを変更しました。"
        " كلمة المرور هي نفسها. Le mot de passe est trop court. Ｆｕｌｌｗｉｄｔｈ text here.\n"
    )
    key_lines = "".join(
        "".join(rng.choice("ABCDEFGHabcdefgh0123456789+/") for _ in range(44)) + "\n"
        for _ in range(64)
    )
    cases: list[tuple[str, Callable[[int], str]]] = [
        ("chat turns as one note", lambda n: chat[:n]),
        ("random English words, one a line", lambda n: fill("\n".join(rng.sample(words, 2000)), n)),
        ("mixed scripts and fullwidth", lambda n: fill(intl, n)),
        ("one token-character run", lambda n: "A" * n),
        ("'password: ' over and over", lambda n: fill("password: ", n)),
        ("digits and spaces", lambda n: fill("4 ", n)),
        ("a key header and base64 lines", lambda n: fill(PEM_LINES, n)),
        ("BIP-39-like words, one a line", lambda n: fill("apple\nbanana\nbread\nbutter\n", n)),
        ("'user / Pass1!' lines", lambda n: fill("user / Pass1!\n", n)),
        ("random base64, 44 a line", lambda n: fill(key_lines, n)),
    ]  # fmt: skip
    for name, make in cases:
        for size in (64 * KB, 256 * KB):
            text = make(size)
            ms_per_kb = best(lambda text=text: find(text), rounds) * 1000 / (len(text) / KB)
            print(f"{name + f' ({size // KB} KB)':44} {ms_per_kb:8.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--kit", type=Path, default=ROOT, help="the checkout whose Kit to measure")
    parser.add_argument("--rates-only", action="store_true", help="only what it withholds")
    parser.add_argument("--cost-only", action="store_true", help="only what it costs")
    parser.add_argument("--turns-only", action="store_true", help="only its cost on chat turns")
    args = parser.parse_args()
    find = load_finder(args.kit.resolve())
    if not (args.cost_only or args.turns_only):
        for path in (DATA / "secrets-second.json", DATA / "secrets-after.json"):
            corpus_rates(path, find)
        own_corpus_rates(find)
        chat_touched(find)
    if not args.rates_only:
        cost(find, args.rounds, args.turns_only)


if __name__ == "__main__":
    main()
