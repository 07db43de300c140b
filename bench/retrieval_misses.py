"""What `kit eval retrieval` misses, and where the missed evidence ranks.

    python bench/retrieval_misses.py RESULTS.json [--k 15]

RESULTS.json is what `kit eval retrieval FILE ... --json RESULTS.json` wrote (one object per
corpus, by file name); each corpus file is read again from ../shared/data (or beside RESULTS)
for its turns. Per corpus, over the evidence turns missed at k (an evidence turn outside the
top k of its question):
- where they rank: k+1..25, 26..50, beyond the 50 returned;
- by the question's category, and by the question's form: a list or count question
  (kit/retrieval/lists.py), a "when" question (kit/dates/text.py), one naming a kind of thing
  (kit/retrieval/instances.py, WordNet: needs the `wordnet` extra), evidence sharing no
  content word with the question (kit/eval/overlap.py);
- by the evidence turn: who said it (an assistant's turn, or the owner's / a person's) and its
  length (a long turn is one Kit cuts into passages, kit/retrieval/passages.py).
Each row: evidence turns of that kind, how many are missed, the share missed, and the share of
all misses. Prints numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # `python bench/<name>.py` from anywhere
    sys.path.insert(0, str(ROOT))

from kit.dates.text import asks_when  # noqa: E402
from kit.eval import locomo  # noqa: E402
from kit.eval.locomo import Turn  # noqa: E402
from kit.retrieval.lists import asks_for_many  # noqa: E402
from kit.retrieval.passages import split  # noqa: E402

DATA = ROOT.parent / "shared" / "data"


def _kinds() -> Callable[[str], bool]:
    try:
        from kit.retrieval.instances import kinds_named

        kinds_named("which country")
    except Exception:  # WordNet not installed: the row is left out
        return lambda _q: False
    return lambda q: bool(kinds_named(q))


def _bucket(rank: int | None, k: int) -> str:
    if rank is None:
        return "beyond 50"
    if rank <= 25:
        return f"{k + 1}-25"
    return "26-50"


def analyse(corpus: Mapping[str, Any], turns: Mapping[tuple[str, str], Turn], k: int) -> str:
    names_a_kind = _kinds()
    rows: list[tuple[dict[str, bool | str], bool, str]] = []  # (features, missed, bucket)
    for q in corpus["questions"]:
        ranked: Sequence[str | None] = q["ranked"]
        for ref in q["evidence"]:
            rank = ranked.index(ref) + 1 if ref in ranked else None
            missed = rank is None or rank > k
            turn = turns.get((q["sample_id"], ref))
            features: dict[str, bool | str] = {
                "category": q["category"],
                "list or count question": asks_for_many(q["question"]),
                "a question with 4+ evidence turns": len(q["evidence"]) >= 4,
                "'when' question": asks_when(q["question"]),
                "names a kind of thing": names_a_kind(q["question"]),
                "shares no word with the question": ref in q["unshared"],
                "said by the assistant": turn is not None and turn.role == "assistant",
                "a long turn (cut into passages)": turn is not None and bool(split(turn.text)),
            }
            rows.append((features, missed, _bucket(rank, k)))
    misses = [r for r in rows if r[1]]
    out = [
        f"evidence turns {len(rows)}, missed at {k}: {len(misses)} ({len(misses) / len(rows):.1%})"
    ]
    ranks = Counter(b for _, _, b in misses)
    out.append(
        "  where the missed rank: "
        + ", ".join(f"{b} {ranks[b]} ({ranks[b] / len(misses):.0%})" for b in _order(k))
    )
    out.append(
        f"  {'evidence of':<36} {'turns':>6} {'missed':>7} {'miss rate':>9} {'of misses':>9}"
    )
    cats = sorted({str(f["category"]) for f, _, _ in rows})
    groups: list[tuple[str, str, str | bool]] = [(f"category {c}", "category", c) for c in cats]
    groups += [(name, name, True) for name in rows[0][0] if name != "category"]
    for name, feature, value in groups:
        inside = [r for r in rows if r[0][feature] == value]
        if not inside:
            continue
        lost = sum(1 for r in inside if r[1])
        out.append(
            f"  {name:<36} {len(inside):>6} {lost:>7} {lost / len(inside):>9.1%}"
            f" {lost / max(1, len(misses)):>9.1%}"
        )
    return "\n".join(out)


def _order(k: int) -> tuple[str, ...]:
    return (f"{k + 1}-25", "26-50", "beyond 50")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("results", type=Path)
    parser.add_argument("--k", type=int, default=15)
    args = parser.parse_args()
    data = json.loads(args.results.read_text(encoding="utf-8"))
    corpora = data["corpora"] if "corpora" in data else {args.results.name: data}
    for name, corpus in corpora.items():
        path = next((p for p in (args.results.parent / name, DATA / name) if p.exists()), None)
        if path is None:
            print(f"== {name}: the corpus file is not in {DATA} nor beside the results")
            continue
        turns = {(s.sample_id, t.ref): t for s in locomo.load(path) for t in s.turns}
        print(f"== {name}")
        print(analyse(corpus, turns, args.k), flush=True)


if __name__ == "__main__":
    main()
