"""Retrieval ablations: `kit eval retrieval` under different ranking parameters.

    python bench/retrieval_ablations.py [FILE] [--only NAME ...] [--sweep NAME ...]
                                        [--set PARAM=VALUE ...] [--no-captions]

Each variant runs the whole evaluation through Kit's own search (a fresh Kit per
conversation), with the real MiniLM model from ../shared/models. Vectors depend only on their
text, so they are computed once and reused across variants (the ranking is what changes).

Variants change one thing from the defaults. Sweeps try several values of one lever (the
default marked *) and report leave-one-conversation-out: for each conversation, the value
that does best on the others is measured on it (kit/eval/folds.py), so a value that only
fits one conversation shows. `--set` changes the base every variant starts from. Prints
numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # `python bench/x.py` from anywhere
    sys.path.insert(0, str(ROOT))

from kit.app import load_embedder  # noqa: E402
from kit.config import EmbeddingSettings, Settings  # noqa: E402
from kit.embed.base import Embedder, Vectors  # noqa: E402
from kit.eval import locomo  # noqa: E402
from kit.eval.folds import Scored, format_leave_one_out, leave_one_out  # noqa: E402
from kit.eval.locomo import Sample  # noqa: E402
from kit.eval.retrieval import RetrievalReport, evaluate  # noqa: E402
from kit.memory.search import RankingParams  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "locomo-dev.json"
MODEL_DIR = ROOT.parent / "shared" / "models" / "all-MiniLM-L6-v2-onnx"
KS = (5, 10, 15, 25, 50)
K = 15  # the cut-off sweeps are chosen on (memory.top_k)

Changes = dict[str, object]
NO_NEIGHBOURS: Changes = {"previous_weight": 0.0, "next_weight": 0.0}
# The query-aware levers off: Kit's ranking as it was before them (score fusion + neighbours).
PLAIN: Changes = {
    "context_weight": 0.0,
    "other_speaker_weight": 1.0,
    "time_weight": 0.0,
    "date_weight": 0.0,
    "dates_as_words": "all",
    "session_gap_hours": 0.0,
}
VARIANTS: dict[str, Changes] = {
    "kit (defaults)": {},
    # the simple baselines and the previous default, as Kit configurations
    "lexical only (FTS5 BM25 + day words)": {"vector_weight": 0.0, **NO_NEIGHBOURS, **PLAIN},
    "vector only (MiniLM cosine)": {"lexical_weight": 0.0, **NO_NEIGHBOURS, **PLAIN},
    "RRF k=60 of the two": {"fusion": "rrf", "rrf_k": 60, **NO_NEIGHBOURS, **PLAIN},
    "previous default (score fusion, neighbours)": {**PLAIN},
    # one lever off at a time
    "no speaker weighting": {"other_speaker_weight": 1.0},
    "no lexical units (context weight 0)": {"context_weight": 0.0},
    "no when/time weighting": {"time_weight": 0.0},
    "no date spans": {"date_weight": 0.0},
    "neighbours across sittings": {"session_gap_hours": 0.0},
    "no neighbour mixing": {**NO_NEIGHBOURS},
    "fusion: RRF k=60": {"fusion": "rrf", "rrf_k": 60},
    "fusion: RRF k=5": {"fusion": "rrf", "rrf_k": 5},
    "cosine threshold 0": {"threshold": 0.0},
    "no recency boost": {"recency_boost": 0.0},
}

# Each sweep lists the old value (or "off") first: leave-one-out breaks ties towards the
# first, so a new value has to win on the other conversations to be chosen.
SWEEPS: dict[str, dict[str, Changes]] = {
    "candidates": {f"{n}": {"candidates": n} for n in (200, 100, 300, 400)},
    "neighbours": {
        f"{a} / {b}": {"previous_weight": a, "next_weight": b}
        for a, b in ((0.3, 0.15), (0.0, 0.0), (0.2, 0.1), (0.4, 0.2), (0.3, 0.0))
    },
    "context weight": {f"{w:g}": {"context_weight": w} for w in (0.0, 0.1, 0.2, 0.3, 0.5)},
    "session gap (h)": {f"{h:g}": {"session_gap_hours": h} for h in (0.0, 1.0, 6.0, 24.0)},
    "vector weight": {f"{w:g}": {"vector_weight": w} for w in (1.0, 0.6, 0.8, 1.25)},
    "other speaker weight": {f"{w:g}": {"other_speaker_weight": w} for w in (1.0, 0.8, 0.6, 0.4)},
    "dates": {
        f"weight {w:g}, slack {d}, {words} as words": {
            "date_weight": w,
            "date_slack_days": d,
            "dates_as_words": words,
        }
        for w, d, words in (
            (0.0, 0, "all"),
            (0.0, 0, "absolute"),
            (0.25, 7, "all"),
            (0.25, 7, "absolute"),
            (0.25, 7, "none"),
            (0.5, 7, "absolute"),
            (0.25, 0, "absolute"),
            (0.25, 30, "absolute"),
        )
    },
    "time weight": {f"{w:g}": {"time_weight": w} for w in (0.0, 0.1, 0.2, 0.4)},
    "common rows": {f"{n}": {"common_rows": n} for n in (0, 2000, 200, 100, 50, 20)},
}


def is_default(changes: Changes) -> bool:
    defaults = RankingParams()
    return all(getattr(defaults, name) == value for name, value in changes.items())


class TextCache:
    """Embeds each distinct text once per process (vectors depend on the text alone)."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.model_id = inner.model_id
        self.dim = inner.dim
        self._vectors: dict[str, Vectors] = {}

    async def embed(self, texts: Sequence[str]) -> Vectors:
        missing = [t for t in dict.fromkeys(texts) if t not in self._vectors]
        if missing:
            for text, vector in zip(missing, await self.inner.embed(missing), strict=True):
                self._vectors[text] = vector
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack([self._vectors[t] for t in texts])


def parse_set(items: Sequence[str]) -> Changes:
    """--set previous_weight=0.2 dates_as_words=all -> typed changes to RankingParams."""
    fields = {f.name: f for f in dataclasses.fields(RankingParams)}
    defaults = RankingParams()
    changes: Changes = {}
    for item in items:
        name, _, raw = item.partition("=")
        if name not in fields:
            raise SystemExit(f"--set {item}: no such parameter; known: {', '.join(fields)}")
        changes[name] = type(getattr(defaults, name))(raw)
    return changes


class Runner:
    def __init__(
        self, samples: list[Sample], settings: Settings, embedder: Embedder, base: Changes
    ):
        self.samples = samples
        self.settings = settings
        self.embedder = embedder
        self.base = dataclasses.replace(RankingParams(), **base)  # type: ignore[arg-type]

    async def run(self, changes: Changes) -> RetrievalReport:
        params = dataclasses.replace(self.base, **changes)  # type: ignore[arg-type]
        return await evaluate(
            self.samples, settings=self.settings, embedder=self.embedder, ks=KS, params=params
        )


def line(name: str, report: RetrievalReport, seconds: float) -> str:
    total = report.summaries["all"]
    cats = " ".join(f"{c[:5]}={s.recall[K]:.3f}" for c, s in report.summaries.items() if c != "all")
    convs = " ".join(f"{c}={s.recall[K]:.3f}" for c, s in report.conversations.items())
    return (
        f"{name:<44} "
        + " ".join(f"{total.recall[k]:>6.3f}" for k in KS)
        + f" {total.mrr:>6.3f} {total.tokens[K]:>6.0f}  {cats}  |  {convs}  ({seconds:.0f}s)"
    )


def header() -> str:
    return (
        f"{'variant':<44} "
        + " ".join(f"{'R@' + str(k):>6}" for k in KS)
        + f" {'MRR':>6} {'tok@' + str(K):>6}  R@{K} by category  |  by conversation"
    )


async def run(
    path: Path, only: list[str], sweeps: list[str], base: Changes, captions: bool
) -> None:
    settings = Settings(embedding=EmbeddingSettings(model_path=str(MODEL_DIR)))
    embedder, problem = await load_embedder(settings)
    if embedder is None:
        raise SystemExit(f"no embedding model: {problem}")
    runner = Runner(locomo.load(path, captions=captions), settings, TextCache(embedder), base)
    if base:
        print(f"base: defaults with {base}")
    if not sweeps or only:
        print(header())
        for name, changes in VARIANTS.items():
            if only and not any(o.lower() in name.lower() for o in only):
                continue
            started = time.perf_counter()
            report = await runner.run(changes)
            print(line(name, report, time.perf_counter() - started), flush=True)
    for sweep, values in SWEEPS.items():
        if sweeps and not any(s.lower() in sweep.lower() for s in sweeps):
            continue
        if only and not sweeps:
            continue
        print(f"\nsweep: {sweep}\n{header()}")
        scored: dict[str, list[Scored]] = {}
        for label, changes in values.items():
            started = time.perf_counter()
            report = await runner.run(changes)
            scored[label] = report.scored()
            mark = " *" if is_default(changes) else ""
            name = f"{sweep} {label}{mark}"
            print(line(name, report, time.perf_counter() - started), flush=True)
        if len(runner.samples) > 1:
            print(format_leave_one_out(leave_one_out(scored, K)), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("file", nargs="?", type=Path, default=DATA)
    parser.add_argument("--only", nargs="*", default=[], help="run variants whose name has this")
    parser.add_argument("--sweep", nargs="*", default=[], help="run sweeps whose name has this")
    parser.add_argument("--set", nargs="*", default=[], help="PARAM=VALUE for every variant")
    parser.add_argument("--no-captions", action="store_true", help="turn text without photos")
    args = parser.parse_args()
    asyncio.run(run(args.file, args.only, args.sweep, parse_set(args.set), not args.no_captions))


if __name__ == "__main__":
    main()
