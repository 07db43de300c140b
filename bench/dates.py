"""What reading dates costs: per stored message (the days it names, at insert) and per
question (its dates; whether each candidate places something in time or names a day).

    python bench/dates.py [--repeat N]

Texts: the 1,451 turns and 383 questions of ../shared/data/locomo-dev.json. Caches are
cleared before every pass (a first search over new candidates pays the whole cost); the
least CPU time of the passes is printed. The
baseline in the same run is splitting each text into its words, as the lexical index does
for every message: the ratio says what reading dates adds to work Kit does anyway. Prints
numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # `python bench/<name>.py` from anywhere
    sys.path.insert(0, str(ROOT))

from kit.dates import text as dates  # noqa: E402
from kit.eval.locomo import load  # noqa: E402
from kit.retrieval.lexical import words_of  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "locomo-dev.json"


def per_call(work: Callable[[], int], repeat: int, clear: Callable[[], None]) -> float:
    """Least CPU microseconds per item over `repeat` passes (CPU time, not wall time: the
    machine is shared, and what other processes take is not this code's cost)."""
    times = []
    for _ in range(repeat):
        clear()
        began = time.process_time()
        items = work()
        times.append((time.process_time() - began) / items * 1e6)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repeat", type=int, default=9)
    args = parser.parse_args()
    samples = load(DATA)
    turns = [(t.text, t.at.date()) for s in samples for t in s.turns]
    questions = [(q.text, s.end.date()) for s in samples for q in s.questions]

    def clear() -> None:
        for name in ("mentions_time", "said_spans"):
            cached = getattr(dates, name, None)
            if cached is not None and hasattr(cached, "cache_clear"):
                cached.cache_clear()

    def over(items: list[tuple[str, date]], fn: Callable[[str, date], object]) -> int:
        for text, day in items:
            fn(text, day)
        return len(items)

    mentions_time = getattr(dates.mentions_time, "__wrapped__", dates.mentions_time)
    rows = [
        ("baseline: a message's words (as the index splits them)", turns, lambda t, d: words_of(t)),
        ("a question's dates (date_mentions)", questions, dates.date_mentions),
        ("a message's dates (date_mentions)", turns, dates.date_mentions),
        (
            "a candidate places something in time (mentions_time)",
            turns,
            lambda t, d: mentions_time(t),
        ),
    ]
    if hasattr(dates, "named_days"):
        rows.append(("a stored message's named days (at insert)", turns, dates.named_days))
    base = None
    for name, items, fn in rows:
        cost = per_call(lambda items=items, fn=fn: over(items, fn), args.repeat, clear)  # type: ignore[misc]
        base = base or cost
        print(f"{name:<58} {cost:8.1f} us  ({cost / base:5.1f}x baseline)")


if __name__ == "__main__":
    main()
