"""Two runs of `kit eval retrieval --json`, question by question: the change in recall from the
first to the second with its paired bootstrap interval (kit/eval/intervals.py), overall and per
category. For what a single setting cannot be switched inside one run, such as the embedding
model (docs/retrieval-quality.md, "Choosing the embedding model").

    python bench/compare_retrieval.py --before A.json [A2.json ...] --after B.json [B2.json ...]
                                      [--k 5,15]

Each side may be several files (one corpus evaluated in parts, e.g. to run the parts in
parallel); their questions are pooled. A file written for several corpora at once holds one
report per corpus: those are pooled too, so give one corpus per comparison. Questions are
paired by conversation and question text (a question asked twice in a conversation pairs in
order); a question on one side only is an error, since the two runs would not be of the same
questions. Prints numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # `python bench/compare_retrieval.py` from anywhere
    sys.path.insert(0, str(ROOT))

from kit.eval.intervals import mean_interval, paired_change, verdict  # noqa: E402

Key = tuple[str, str, int]  # conversation, question, occurrence


def _reports(data: dict[str, Any]) -> Iterable[dict[str, Any]]:
    if "corpora" in data:  # several files in one run: one report per corpus
        yield from data["corpora"].values()
    else:
        yield data


def load_questions(paths: Sequence[Path]) -> tuple[dict[Key, dict[str, Any]], list[str]]:
    """The questions of one side, keyed for pairing, and the model(s) that side used."""
    found: dict[Key, dict[str, Any]] = {}
    models: list[str] = []
    for path in paths:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise SystemExit(f"{path}: not a `kit eval retrieval --json` file ({exc})") from exc
        for report in _reports(data):
            if "questions" not in report:
                raise SystemExit(f"{path}: no questions in it; write it with --json")
            if report.get("model") and report["model"] not in models:
                models.append(report["model"])
            seen: Counter[tuple[str, str]] = Counter()
            for q in report["questions"]:
                pair = (q["sample_id"], q["question"])
                key = (*pair, seen[pair])
                seen[pair] += 1
                if key in found:
                    raise SystemExit(f"{path}: {pair} is on this side twice (the same file twice?)")
                found[key] = q
    return found, models


def compare(
    before: dict[Key, dict[str, Any]], after: dict[Key, dict[str, Any]], ks: Sequence[int]
) -> list[str]:
    """Lines of the table: per category (all first), n, and per cut-off the two recalls and
    the change with its interval and verdict."""
    only = set(before) ^ set(after)
    if only:
        example = sorted(only)[0]
        raise SystemExit(
            f"the two sides are not the same questions: {len(only)} on one side only "
            f"(e.g. {example[0]}: {example[1]!r}); compare runs over the same files"
        )
    rows: dict[str, list[Key]] = defaultdict(list)
    for key in sorted(before):
        rows["all"].append(key)
        rows[before[key]["category"]].append(key)
    lines = [
        f"{'category':<12} {'n':>4}  "
        + "  ".join(f"{f'R@{k} before':>9} {'after':>6} {'change [95% interval]':>26}" for k in ks)
    ]
    for name in ["all", *sorted(r for r in rows if r != "all")]:
        keys = rows[name]
        cells = []
        for k in ks:
            old = [float(before[key]["recall"][str(k)]) for key in keys]
            new = [float(after[key]["recall"][str(k)]) for key in keys]
            change = paired_change(old, new)
            cells.append(
                f"{mean_interval(old).value:>9.3f} {mean_interval(new).value:>6.3f} "
                f"{change.signed():>26} {verdict(change):<6}"
            )
        lines.append(f"{name:<12} {len(keys):>4}  " + "  ".join(cells))
    return lines


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", nargs="+", type=Path, required=True, help="--json files")
    parser.add_argument("--after", nargs="+", type=Path, required=True, help="--json files")
    parser.add_argument("--k", default="5,15", help="cut-offs, comma-separated (default 5,15)")
    args = parser.parse_args(argv)
    ks = [int(k) for k in args.k.split(",")]
    before, old_models = load_questions(args.before)
    after, new_models = load_questions(args.after)
    for key in list(before)[:1]:
        missing = [k for k in ks if str(k) not in before[key]["recall"]]
        if missing:
            raise SystemExit(f"--k {missing}: the runs measured recall at {before[key]['recall']}")
    print(f"before: {', '.join(old_models) or '?'}; after: {', '.join(new_models) or '?'}")
    print("\n".join(compare(before, after, ks)))


if __name__ == "__main__":
    main()
