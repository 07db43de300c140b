"""Which graph finds what the exact scan finds, on the realistic archive's real MiniLM vectors.

    python bench/ann_levers.py [--kind message] [--queries 60]

For each variant of the HNSW graph (vector type, connectivity M, beam ef), over the 60 planted
paraphrase questions and as many everyday ones: the share of the exact top 15 (float32,
tie-aware) among the candidates the graph returns when asked for 200 (what Kit keeps before
rescoring), the planted message's rank, the search time per query and the build time. Needs
the archive's cache (bench/archive.py builds it). The lever table of docs/measurements.md comes
from here.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import time
from dataclasses import dataclass

import numpy as np
from archive import build_cache
from archive_text import QUESTIONS, SLOTS
from common import load_minilm
from planted import PLANTED
from usearch.index import Index

CANDIDATES = 200
TOP = 15


@dataclass(frozen=True)
class Variant:
    name: str
    dtype: str
    connectivity: int
    expansion_add: int
    expansion_search: int
    scale: float = 1.0  # vectors multiplied by this before the graph takes them (i8 range)


VARIANTS = (
    Variant("i8 M16 ef128 (main)", "i8", 16, 64, 128),
    Variant("f32 M16 ef128", "f32", 16, 64, 128),
    Variant("f16 M16 ef128", "f16", 16, 64, 128),
    Variant("i8x4 M16 ef128", "i8", 16, 64, 128, 4.0),
    Variant("f16 M32 ef128", "f16", 32, 128, 128),
    Variant("f16 M16 ef400", "f16", 16, 64, 400),
    Variant("i8x4 M32 ef400", "i8", 32, 128, 400, 4.0),
    Variant("f16 M32 ef400", "f16", 32, 128, 400),
)


def everyday(count: int, seed: int = 31) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        template = rng.choice(QUESTIONS)
        for name, values in SLOTS.items():
            template = template.replace("{" + name + "}", rng.choice(values), 1)
        out.append(template)
    return out


def load(path: str, kind: str) -> tuple[np.ndarray, np.ndarray]:
    with sqlite3.connect(path) as db:
        rows = db.execute(
            "SELECT item_id, vector FROM embeddings WHERE kind = ? ORDER BY item_id", (kind,)
        ).fetchall()
    ids = np.array([r[0] for r in rows], dtype=np.int64)
    vectors = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(len(rows), -1)
    return ids, vectors


def exact_hits(rows: np.ndarray, query: np.ndarray) -> tuple[np.ndarray, float]:
    scores = rows @ query
    top = np.argpartition(-scores, TOP - 1)[:TOP]
    return scores, float(scores[top].min()) - 1e-6


def quantise(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """int8 rows, each scaled by its own largest component (as kit/retrieval/matrix.py keeps
    them)."""
    scale = np.abs(rows).max(axis=1, keepdims=True) / 127
    scale[scale == 0] = 1
    return np.rint(rows / scale).astype(np.int8), scale.ravel().astype(np.float32)


def exact_scorer(kind: str, rows: np.ndarray) -> tuple[object, float]:
    """A function query -> cosines of every row, and the bytes it keeps."""
    import numkong

    if kind == "f32":
        return (lambda q: np.einsum("ij,j->i", rows, q)), rows.nbytes
    if kind == "f16":
        half = rows.astype(np.float16)

        def f16(q: np.ndarray) -> np.ndarray:
            q16 = q.astype(np.float16)[None, :]
            return np.asarray(numkong.cdist(half, q16, metric="dot", out_dtype="float32")).ravel()

        return f16, half.nbytes
    small, scale = quantise(rows)

    def i8(q: np.ndarray) -> np.ndarray:
        q8, qs = quantise(q[None, :])
        dots = np.asarray(numkong.cdist(small, q8, metric="dot", out_dtype="float32")).ravel()
        return dots * (scale * qs[0])

    return i8, small.nbytes + scale.nbytes


def measure_exact(kind: str, rows: np.ndarray, queries: np.ndarray,
                  planted_pos: list[int | None]) -> dict[str, float]:  # fmt: skip
    """An exact scan over the rows kept as `kind`: its top 200 against the float32 top 15,
    the largest error of a candidate's cosine, and CPU per query."""
    score, kept = exact_scorer(kind, rows)
    found = total = planted_in = planted_exact = 0
    laps, error = [], 0.0
    for query, planted in zip(queries, planted_pos, strict=True):
        began = time.process_time()
        approx = score(query)  # type: ignore[operator]
        top = np.argpartition(-approx, CANDIDATES - 1)[:CANDIDATES]
        laps.append(time.process_time() - began)
        scores, bar = exact_hits(rows, query)
        error = max(error, float(np.abs(approx[top] - scores[top]).max()))
        want = set(np.flatnonzero(scores >= bar).tolist())
        got = set(top.tolist())
        total += TOP
        found += min(TOP, len(want & got))
        if planted is not None and scores[planted] >= bar:
            planted_exact += 1
            planted_in += planted in got
    return {"recall": found / total, "planted": planted_in, "planted_exact": planted_exact,
            "ms": float(np.median(laps)) * 1000, "build_s": 0.0, "mb": kept / 2**20,
            "error": error}  # fmt: skip


def measure(variant: Variant, ids: np.ndarray, rows: np.ndarray, queries: np.ndarray,
            planted_pos: list[int | None]) -> dict[str, float]:  # fmt: skip
    index = Index(
        ndim=rows.shape[1],
        metric="ip",
        dtype=variant.dtype,
        connectivity=variant.connectivity,
        expansion_add=variant.expansion_add,
        expansion_search=variant.expansion_search,
    )
    began = time.process_time()
    for start in range(0, len(rows), 512):
        index.add(np.arange(start, min(start + 512, len(rows)), dtype=np.uint64),
                  rows[start : start + 512] * variant.scale, threads=1)  # fmt: skip
    build = time.process_time() - began
    found = total = planted_in = planted_exact = 0
    began = time.process_time()
    results = [index.search(q * variant.scale, CANDIDATES, threads=1).keys for q in queries]
    per_query = (time.process_time() - began) / len(queries)
    for query, keys, planted in zip(queries, results, planted_pos, strict=True):
        scores, bar = exact_hits(rows, query)
        want = set(np.flatnonzero(scores >= bar).tolist())
        got = set(np.asarray(keys, dtype=np.int64).tolist())
        total += TOP
        found += min(TOP, len(want & got))
        if planted is not None and scores[planted] >= bar:
            planted_exact += 1
            planted_in += planted in got
    return {
        "recall": found / total,
        "planted": planted_in,
        "planted_exact": planted_exact,
        "ms": per_query * 1000,
        "build_s": build,
        "mb": index.memory_usage / 2**20,
    }


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kind", default="message")
    parser.add_argument("--queries", type=int, default=60, help="everyday questions")
    parser.add_argument("--only", nargs="*", help="variant names (default: all)")
    args = parser.parse_args()
    folder = await build_cache()
    model = await load_minilm()
    assert model is not None
    import json

    meta = json.loads((folder / "meta.json").read_text())
    ids, rows = load(str(folder / "archive.sqlite3"), args.kind)
    where = {int(i): p for p, i in enumerate(ids)}
    texts = [q for q, _ in PLANTED] + everyday(args.queries)
    planted: list[int | None] = [where.get(i) for i in meta["planted_ids"]]
    planted += [None] * args.queries
    queries = np.asarray(await model.embed(texts), dtype=np.float32)
    print(f"{args.kind}: {len(rows):,} rows; {len(texts)} queries ({len(PLANTED)} planted)")
    print(f"{'variant':<24} {'recall@15':>9} {'planted':>9} {'CPU ms/q':>9} {'build s':>8}"
          f" {'MB':>6}")  # fmt: skip
    for kind in ("f32", "f16", "i8"):
        name = f"exact {kind}"
        if args.only and name not in args.only:
            continue
        r = measure_exact(kind, rows, queries, planted)
        print(f"{name:<24} {r['recall']:>9.3f} {r['planted']:>4.0f}/{r['planted_exact']:<4.0f}"
              f" {r['ms']:>9.2f} {r['build_s']:>8.1f} {r['mb']:>6.0f}"
              f"  max cosine error {r['error']:.1e}", flush=True)  # fmt: skip
    for variant in VARIANTS:
        if args.only and variant.name not in args.only:
            continue
        r = measure(variant, ids, rows, queries, planted)
        print(f"{variant.name:<24} {r['recall']:>9.3f} {r['planted']:>4.0f}/"
              f"{r['planted_exact']:<4.0f} {r['ms']:>9.2f} {r['build_s']:>8.1f} {r['mb']:>6.0f}",
              flush=True)  # fmt: skip


if __name__ == "__main__":
    asyncio.run(main())
