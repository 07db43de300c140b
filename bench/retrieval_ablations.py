"""Retrieval ablations: `kit eval retrieval` under different ranking parameters.

    python bench/retrieval_ablations.py [FILE] [--only NAME ...] [--holdout]
                                        [--questions SET] [--set PARAM=VALUE ...]
                                        [--no-captions]

Each variant runs the whole evaluation through Kit's own search (a fresh Kit per
conversation), with the real MiniLM model from ../shared/models. Vectors depend only on their
text, so they are computed once and reused across variants (the ranking is what changes).

Variants change one thing from the defaults; each is asked the file's questions and the
paraphrase set (bench/data/paraphrase-questions.json: hand-written, sharing no content word
with their evidence). `--holdout` is the rotated hold-out (kit/eval/folds.py): every lever
of LEVERS, on or off and at which value, is chosen by a coordinate search on two
conversations (both question sets, weighted equally) and scored on the third, in turn; the
conversations are imported once and kept open for the whole search. `--set` changes the
base every variant starts from. Prints numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import sys
import tempfile
import time
from collections.abc import Sequence
from contextlib import AsyncExitStack
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # `python bench/<name>.py` from anywhere
    sys.path.insert(0, str(ROOT))

from kit.app import load_embedder  # noqa: E402
from kit.config import EmbeddingSettings, ScheduleSettings, Settings  # noqa: E402
from kit.embed.base import Embedder, Vectors  # noqa: E402
from kit.eval import locomo  # noqa: E402
from kit.eval.folds import (  # noqa: E402
    Config,
    Levers,
    Scored,
    changes,
    format_holdout,
    rotated_holdout,
)
from kit.eval.locomo import Sample  # noqa: E402
from kit.eval.metrics import by_category  # noqa: E402
from kit.eval.retrieval import (  # noqa: E402
    Imported,
    QuestionResult,
    RetrievalReport,
    by_conversation,
    opened,
)
from kit.retrieval.search import RankingParams  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "locomo-dev.json"
MODEL_DIR = ROOT.parent / "shared" / "models" / "all-MiniLM-L6-v2-onnx"
KS = (5, 10, 15, 25, 50)
K = 15  # the cut-off sweeps are chosen on (memory.top_k)

Changes = dict[str, object]
NO_NEIGHBOURS: Changes = {"previous_weight": 0.0, "next_weight": 0.0}
# The query-aware levers off: Kit's ranking as it was before them (score fusion + neighbours).
PLAIN: Changes = {
    "instance_weight": 0.0,
    "speaker_names_as_words": True,
    "context_weight": 0.0,
    "other_speaker_weight": 1.0,
    "time_weight": 0.0,
    "date_weight": 0.0,
    "dates_as_words": "all",
    "session_gap_hours": 0.0,
}
VARIANTS: dict[str, Changes] = {
    "kit (defaults)": {},
    # the simple baselines and the previous defaults, as Kit configurations
    "lexical only (FTS5 BM25 + day words)": {"vector_weight": 0.0, **NO_NEIGHBOURS, **PLAIN},
    "vector only (MiniLM cosine)": {"lexical_weight": 0.0, **NO_NEIGHBOURS, **PLAIN},
    "RRF k=60 of the two": {"fusion": "rrf", "rrf_k": 60, **NO_NEIGHBOURS, **PLAIN},
    "before this round (046ef33)": {
        "vector_weight": 1.0,
        "speaker_names_as_words": True,
        "instance_weight": 0.0,
    },
    # one lever changed at a time
    "vector weight 1 (as before)": {"vector_weight": 1.0},
    "vector weight 3": {"vector_weight": 3.0},
    "no kinds of things": {"instance_weight": 0.0},
    "speaker names as words (as before)": {"speaker_names_as_words": True},
    "strong vector hits, z 2": {"strong_z": 2.0},
    "list spread 0.3": {"list_spread": 0.3},
    "lexical reference 6 (not scale-free)": {"lexical_reference": 6.0},
    "vector floor: the candidates' minimum": {"vector_floor": 0.0},
    "no speaker weighting": {"other_speaker_weight": 1.0},
    "no lexical units (context weight 0)": {"context_weight": 0.0},
    "no when/time weighting": {"time_weight": 0.0},
    "no date spans": {"date_weight": 0.0},
    "no neighbour mixing": {**NO_NEIGHBOURS},
    "cosine threshold 0": {"threshold": 0.0},
    "no recency boost": {"recency_boost": 0.0},
}

# The rotated hold-out's levers: each value's changes to RankingParams, "off" (the ranking
# before the lever) first. A lever has to win on the training conversations to be turned on.
LEVERS: Levers = {
    "vector weight": [(f"{w:g}", {"vector_weight": w}) for w in (1.0, 1.5, 2.0, 3.0)],
    "strong vector hits": [
        ("off", {"strong_z": None}),
        ("z 2", {"strong_z": 2.0}),
        ("z 2.5", {"strong_z": 2.5}),
    ],
    "speaker names as words": [
        ("yes", {"speaker_names_as_words": True}),
        ("no", {"speaker_names_as_words": False}),
    ],
    "kinds of things": [(f"{w:g}", {"instance_weight": w}) for w in (0.0, 0.5, 1.0)],
    "list spread": [(f"{w:g}", {"list_spread": w}) for w in (0.0, 0.3, 0.5)],
    "who": [(f"{w:g}", {"other_speaker_weight": w}) for w in (1.0, 0.8, 0.6)],
    "when": [(f"{w:g}", {"time_weight": w}) for w in (0.0, 0.2)],
    "date spans": [(f"{w:g}", {"date_weight": w}) for w in (0.0, 0.25)],
    "lexical units": [(f"{w:g}", {"context_weight": w}) for w in (0.0, 0.2)],
    "neighbours": [
        ("0", {"previous_weight": 0.0, "next_weight": 0.0}),
        ("0.3/0.15", {"previous_weight": 0.3, "next_weight": 0.15}),
    ],
}
PARAPHRASES = ROOT / "bench" / "data" / "paraphrase-questions.json"


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


class Lab:
    """The conversations imported once each and kept open; any ranking asks them any set."""

    def __init__(self, sets: dict[str, list[Sample]], base: Changes) -> None:
        self.sets = sets  # question set name -> its samples (the same conversations)
        self.base = dataclasses.replace(RankingParams(), **base)  # type: ignore[arg-type]
        self.imported: dict[str, Imported] = {}
        self._cache: dict[tuple[tuple[str, object], ...], dict[str, list[QuestionResult]]] = {}

    async def open(self, stack: AsyncExitStack, settings: Settings, embedder: Embedder) -> None:
        first = next(iter(self.sets.values()))
        for number, sample in enumerate(first):
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="kit-lab-")))
            here = dataclasses.replace(
                settings, data_dir=folder / str(number), schedule=ScheduleSettings(timezone="UTC")
            )
            self.imported[sample.sample_id] = await stack.enter_async_context(
                opened(sample, here, embedder)
            )

    async def results(self, changes: Changes) -> dict[str, list[QuestionResult]]:
        """Every question of every set under the base with `changes` (cached)."""
        key = tuple(sorted(changes.items()))
        if key not in self._cache:
            params = dataclasses.replace(self.base, **changes)  # type: ignore[arg-type]
            self._cache[key] = {
                name: [
                    result
                    for sample in samples
                    for result in await self.imported[sample.sample_id].ask(sample, params, KS)
                ]
                for name, samples in self.sets.items()
            }
        return self._cache[key]

    def report(self, results: list[QuestionResult]) -> RetrievalReport:
        return RetrievalReport(
            ks=KS,
            samples=len(self.imported),
            turns=0,
            skipped_questions=0,
            repaired_evidence=0,
            index_seconds=0.0,
            model_id="",
            summaries=by_category([r.outcome for r in results], KS),
            conversations=by_conversation(results, KS),
            results=tuple(results),
        )

    async def score(self, configs: Sequence[Config]) -> dict[Config, dict[str, list[Scored]]]:
        out: dict[Config, dict[str, list[Scored]]] = {}
        for config in configs:
            found = await self.results(changes(LEVERS, config))
            out[config] = {
                name: [Scored(r.sample_id, r.outcome) for r in results]
                for name, results in found.items()
            }
        return out


def line(name: str, report: RetrievalReport) -> str:
    total = report.summaries["all"]
    cats = " ".join(f"{c[:5]}={s.recall[K]:.3f}" for c, s in report.summaries.items() if c != "all")
    convs = " ".join(f"{c}={s.recall[K]:.3f}" for c, s in report.conversations.items())
    unshared = total.unshared_recall
    nw = "     -" if unshared is None else f"{unshared[K]:>6.3f}"
    return (
        f"{name:<44} "
        + " ".join(f"{total.recall[k]:>6.3f}" for k in KS)
        + f" {total.mrr:>6.3f} {nw} {total.tokens[K]:>6.0f}  {cats}  |  {convs}"
    )


def header() -> str:
    return (
        f"{'variant':<44} "
        + " ".join(f"{'R@' + str(k):>6}" for k in KS)
        + f" {'MRR':>6} {'nw@' + str(K):>6} {'tok@' + str(K):>6}  R@{K} by category"
        "  |  by conversation"
    )


async def run(
    path: Path, questions: Path, only: list[str], holdout: bool, base: Changes, captions: bool
) -> None:
    settings = Settings(embedding=EmbeddingSettings(model_path=str(MODEL_DIR)))
    embedder, problem = await load_embedder(settings)
    if embedder is None:
        raise SystemExit(f"no embedding model: {problem}")
    samples = locomo.load(path, captions=captions)
    lab = Lab({"locomo": samples, "paraphrase": locomo.load_questions(questions, samples)}, base)
    async with AsyncExitStack() as stack:
        started = time.perf_counter()
        await lab.open(stack, settings, TextCache(embedder))
        print(f"imported {len(samples)} conversations in {time.perf_counter() - started:.0f}s")
        if base:
            print(f"base: defaults with {base}")
        if not holdout or only:
            print(header())
            for name, variant in VARIANTS.items():
                if only and not any(o.lower() in name.lower() for o in only):
                    continue
                found = await lab.results(variant)
                for set_name, results in found.items():
                    print(line(f"{name} [{set_name}]", lab.report(results)), flush=True)
        if holdout:
            started = time.perf_counter()
            result = await rotated_holdout(
                lab.score, LEVERS, K, rounds=2, progress=lambda note: print(note, flush=True)
            )
            print(
                f"\nrotated hold-out ({time.perf_counter() - started:.0f}s, "
                f"{len(lab._cache)} configurations scored)"
            )
            print(format_holdout(result, LEVERS), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("file", nargs="?", type=Path, default=DATA)
    parser.add_argument("--questions", type=Path, default=PARAPHRASES, help="a question set")
    parser.add_argument("--only", nargs="*", default=[], help="run variants whose name has this")
    parser.add_argument("--holdout", action="store_true", help="the rotated hold-out of LEVERS")
    parser.add_argument("--set", nargs="*", default=[], help="PARAM=VALUE for every variant")
    parser.add_argument("--no-captions", action="store_true", help="turn text without photos")
    args = parser.parse_args()
    asyncio.run(
        run(
            args.file,
            args.questions,
            args.only,
            args.holdout,
            parse_set(args.set),
            not args.no_captions,
        )
    )


if __name__ == "__main__":
    main()
