"""Retrieval ablations: `kit eval retrieval` under different ranking parameters.

    python bench/retrieval_ablations.py [FILE] [--only NAME ...] [--no-captions]

Each variant runs the whole evaluation through Kit's own search (a fresh Kit per
conversation), with the real MiniLM model from ../shared/models. Vectors depend only on their
text, so they are computed once and reused across variants (the ranking is what changes).
Prints evidence recall@k per variant; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from kit.app import load_embedder
from kit.config import EmbeddingSettings, Settings
from kit.embed.base import Embedder, Vectors
from kit.eval import locomo
from kit.eval.retrieval import evaluate
from kit.memory.search import RankingParams

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "locomo-dev.json"
MODEL_DIR = ROOT.parent / "shared" / "models" / "all-MiniLM-L6-v2-onnx"

P = RankingParams()
NO_NEIGHBOURS = {"previous_weight": 0.0, "next_weight": 0.0}
VARIANTS: dict[str, dict[str, object]] = {
    "kit (defaults)": {},
    # the three simple baselines, as Kit configurations
    "lexical only (FTS5 BM25)": {"vector_weight": 0.0, **NO_NEIGHBOURS},
    "vector only (MiniLM cosine)": {"lexical_weight": 0.0, **NO_NEIGHBOURS},
    "RRF k=60, no neighbours (old default)": {"fusion": "rrf", "rrf_k": 60, **NO_NEIGHBOURS},
    # one change at a time from the defaults
    "fusion: RRF k=60": {"fusion": "rrf", "rrf_k": 60},
    "fusion: RRF k=5": {"fusion": "rrf", "rrf_k": 5},
    "score fusion, no neighbours": {**NO_NEIGHBOURS},
    "neighbours: previous only (0.3)": {"next_weight": 0.0},
    "neighbours: 0.2 / 0.1": {"previous_weight": 0.2, "next_weight": 0.1},
    "neighbours: 0.4 / 0.2": {"previous_weight": 0.4, "next_weight": 0.2},
    "candidates 100": {"candidates": 100},
    "candidates 300": {"candidates": 300},
    "vector weight 0.8": {"vector_weight": 0.8},
    "vector weight 1.25": {"vector_weight": 1.25},
    "cosine threshold 0": {"threshold": 0.0},
    "no recency boost": {"recency_boost": 0.0},
}


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


async def run(path: Path, only: list[str], captions: bool) -> None:
    settings = Settings(embedding=EmbeddingSettings(model_path=str(MODEL_DIR)))
    embedder, problem = await load_embedder(settings)
    if embedder is None:
        raise SystemExit(f"no embedding model: {problem}")
    cached = TextCache(embedder)
    samples = locomo.load(path, captions=captions)
    ks = (5, 10, 15, 25, 50)
    print(
        f"{'variant':<40} "
        + " ".join(f"{'R@' + str(k):>6}" for k in ks)
        + "    MRR  R@15 by category"
    )
    for name, changes in VARIANTS.items():
        if only and not any(o.lower() in name.lower() for o in only):
            continue
        params = dataclasses.replace(P, **changes)  # type: ignore[arg-type]
        started = time.perf_counter()
        report = await evaluate(samples, settings=settings, embedder=cached, ks=ks, params=params)
        total = report.summaries["all"]
        cats = " ".join(
            f"{c}={s.recall[15]:.3f}" for c, s in report.summaries.items() if c != "all"
        )
        print(
            f"{name:<40} "
            + " ".join(f"{total.recall[k]:>6.3f}" for k in ks)
            + f" {total.mrr:>6.3f}  {cats}  ({time.perf_counter() - started:.0f}s)",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", type=Path, default=DATA)
    parser.add_argument("--only", nargs="*", default=[], help="run variants whose name has this")
    parser.add_argument("--no-captions", action="store_true", help="turn text without photos")
    args = parser.parse_args()
    asyncio.run(run(args.file, args.only, not args.no_captions))


if __name__ == "__main__":
    main()
