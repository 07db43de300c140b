"""Temporal recall: LoCoMo's own temporal questions split by form, and Kit's own question set.

    python bench/temporal.py [--set PARAM=VALUE ...] [--sweep NAME ...] [--only-forms]

Runs `kit eval retrieval`'s evaluation (Kit's own search, a fresh Kit per conversation, the
real MiniLM model from ../shared/models) twice per variant:
- dev: LoCoMo's questions in ../shared/data/locomo-dev.json: R@15 overall, temporal, temporal
  split into "When ...?" and the rest, and per conversation;
- forms: bench/data/temporal_questions.json, temporal questions written for Kit over the same
  three conversations in the forms an owner asks (how long ago, since when, which month, what
  date, before or after, dates in several written forms, "last weekend"), by form and
  conversation.
A sweep tries values of one lever and reports the rotated hold-out: for each conversation the
value that does best on the other two (dev and forms questions together) is scored on it
(kit/eval/folds.py). Prints numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import re
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from statistics import fmean

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # `python bench/<name>.py` from anywhere
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from ablation_variants import parse_set  # noqa: E402
from retrieval_ablations import DATA, MODEL_DIR, TextCache  # noqa: E402

from kit.config import Settings  # noqa: E402
from kit.embed.base import Embedder  # noqa: E402
from kit.embedding_settings import EmbeddingSettings  # noqa: E402
from kit.eval import locomo  # noqa: E402
from kit.eval.folds import Config, Results, Scored, format_holdout, rotated_holdout  # noqa: E402
from kit.eval.locomo import Question, Sample  # noqa: E402
from kit.eval.metrics import recall_at  # noqa: E402
from kit.eval.retrieval import QuestionResult, evaluate  # noqa: E402
from kit.retrieval.embedding_model import load_embedder  # noqa: E402
from kit.retrieval.ranking import RankingParams  # noqa: E402

FORMS = ROOT / "bench" / "data" / "temporal_questions.json"
K = 15
KS = (5, 10, 15, 25, 50)
_WHEN = re.compile(r"\s*when\b", re.IGNORECASE)

Changes = dict[str, object]
SWEEPS: dict[str, dict[str, Changes]] = {
    "time weight": {f"{w:g}": {"time_weight": w} for w in (0.2, 0.0, 0.1, 0.3, 0.4)},
    "dates as words": {w: {"dates_as_words": w} for w in ("absolute", "resolved", "all")},
    "date weight": {f"{w:g}": {"date_weight": w} for w in (0.25, 0.0, 0.5)},
}


def forms_samples(samples: Sequence[Sample]) -> tuple[list[Sample], dict[str, str]]:
    """The dev conversations with Kit's own questions in place of LoCoMo's, and each
    question's form."""
    data = json.loads(FORMS.read_text(encoding="utf-8"))
    by_sample: dict[str, list[Question]] = defaultdict(list)
    form: dict[str, str] = {}
    for item in data["questions"]:
        by_sample[item["sample_id"]].append(Question(item["question"], 2, tuple(item["evidence"])))
        form[item["question"]] = item["form"]
    out = []
    for sample in samples:
        refs = {t.ref for t in sample.turns}
        for q in by_sample[sample.sample_id]:
            missing = [e for e in q.evidence if e not in refs]
            if missing:
                raise SystemExit(f"{FORMS}: {q.text!r} names turns not in {sample.sample_id}")
        out.append(dataclasses.replace(sample, questions=tuple(by_sample[sample.sample_id])))
    return out, form


def _r(results: Sequence[QuestionResult]) -> str:
    if not results:
        return "  -  "
    return f"{fmean(recall_at(r.ranked, r.evidence, K) for r in results):.3f}"


def dev_line(results: Sequence[QuestionResult]) -> str:
    temporal = [r for r in results if r.category == "temporal"]
    when = [r for r in temporal if _WHEN.match(r.question)]
    other = [r for r in temporal if not _WHEN.match(r.question)]
    convs = sorted({r.sample_id for r in results})
    return (
        f"dev R@{K} all {_r(results)} (n {len(results)})  temporal {_r(temporal)}"
        f" (When {_r(when)} n {len(when)}; other {_r(other)} n {len(other)})  "
        + " ".join(f"{c}={_r([r for r in results if r.sample_id == c])}" for c in convs)
        + "  temporal: "
        + " ".join(f"{c}={_r([r for r in temporal if r.sample_id == c])}" for c in convs)
    )


def forms_line(results: Sequence[QuestionResult], form: dict[str, str]) -> str:
    groups: dict[str, list[QuestionResult]] = defaultdict(list)
    for r in results:
        groups[form[r.question]].append(r)
    convs = sorted({r.sample_id for r in results})
    return (
        f"forms R@{K} all {_r(results)} (n {len(results)})  "
        + " ".join(f"{name}={_r(g)} (n {len(g)})" for name, g in sorted(groups.items()))
        + "  |  "
        + " ".join(f"{c}={_r([r for r in results if r.sample_id == c])}" for c in convs)
    )


class Runner:
    def __init__(self, samples: list[Sample], embedder: Embedder, base: Changes) -> None:
        self.dev = samples
        self.forms, self.form = forms_samples(samples)
        self.settings = Settings(embedding=EmbeddingSettings(model_path=str(MODEL_DIR)))
        self.embedder = embedder
        self.base = dataclasses.replace(RankingParams(), **base)  # type: ignore[arg-type]

    async def run(
        self, changes: Changes, only_forms: bool
    ) -> tuple[list[QuestionResult], list[QuestionResult]]:
        params = dataclasses.replace(self.base, **changes)  # type: ignore[arg-type]

        async def results(samples: list[Sample]) -> list[QuestionResult]:
            report = await evaluate(
                samples, settings=self.settings, embedder=self.embedder, ks=KS, params=params
            )
            return list(report.results)

        dev = [] if only_forms else await results(self.dev)
        return dev, await results(self.forms)


def show(name: str, dev: list[QuestionResult], forms: list[QuestionResult], runner: Runner) -> None:
    print(f"== {name}")
    if dev:
        print("  " + dev_line(dev))
    print("  " + forms_line(forms, runner.form), flush=True)


def dump(path: Path, dev: list[QuestionResult], forms: list[QuestionResult]) -> None:
    """Every question's evidence ranks (1-based, None: not in the top 50), to compare runs."""
    rows = [
        {
            "set": name,
            "sample_id": r.sample_id,
            "question": r.question,
            "category": r.category,
            "ranks": [r.ranked.index(e) + 1 if e in r.ranked else None for e in r.evidence],
            "recall": recall_at(r.ranked, r.evidence, K),
            "top": list(r.ranked[:25]),
        }
        for name, results in (("dev", dev), ("forms", forms))
        for r in results
    ]
    path.write_text(json.dumps(rows, indent=1), encoding="utf-8")


async def run(
    base: Changes, sweeps: list[str], only_forms: bool, misses: bool, out: Path | None
) -> None:
    settings = Settings(embedding=EmbeddingSettings(model_path=str(MODEL_DIR)))
    embedder, problem = await load_embedder(settings)
    if embedder is None:
        raise SystemExit(f"no embedding model: {problem}")
    runner = Runner(locomo.load(DATA), TextCache(embedder), base)
    if base:
        print(f"base: defaults with {base}")
    started = time.perf_counter()
    dev, forms = await runner.run({}, only_forms)
    show(f"defaults ({time.perf_counter() - started:.0f}s)", dev, forms, runner)
    if out is not None:
        dump(out, dev, forms)
    if misses:
        for r in forms:
            if recall_at(r.ranked, r.evidence, K) < 1:
                ranks = [r.ranked.index(e) + 1 if e in r.ranked else None for e in r.evidence]
                print(f"  miss [{runner.form[r.question]}] {r.sample_id} {r.question} {ranks}")
    for sweep, values in SWEEPS.items():
        if not any(s.lower() in sweep.lower() for s in sweeps):
            continue
        scored: dict[str, list[Scored]] = {}
        for label, changes in values.items():
            dev, forms = await runner.run(changes, only_forms)
            show(f"{sweep} {label}", dev, forms, runner)
            scored[label] = [Scored(r.sample_id, r.outcome) for r in [*dev, *forms]]

        async def score(
            configs: Sequence[Config], scored: dict[str, list[Scored]] = scored
        ) -> dict[Config, Results]:
            return {c: {"dev and forms": scored[c[0]]} for c in configs}

        levers = {sweep: [(label, changes) for label, changes in values.items()]}
        print(f"rotated hold-out, {sweep} (dev and forms questions together):")
        held = await rotated_holdout(score, levers, K)
        print(format_holdout(held, levers), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--set", nargs="*", default=[], help="PARAM=VALUE for every variant")
    parser.add_argument("--sweep", nargs="*", default=[], help="sweeps whose name has this")
    parser.add_argument("--only-forms", action="store_true", help="skip LoCoMo's questions")
    parser.add_argument("--misses", action="store_true", help="list the forms questions missed")
    parser.add_argument("--json", type=Path, help="write every question's evidence ranks here")
    args = parser.parse_args()
    asyncio.run(run(parse_set(args.set), args.sweep, args.only_forms, args.misses, args.json))


if __name__ == "__main__":
    main()
