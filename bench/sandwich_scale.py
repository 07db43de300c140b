"""Kit's vector search at every size, the switch to a graph included (issue 33): 10k, 100k, 500k
and 1M rows in one layer, against a same-run baseline.

    python bench/sandwich_scale.py [--sizes 10000 100000 500000 1000000] [--graph]
                                   [--connectivity 16 --expansion-add 64 --expansion-search 128
                                    --depth 200]

Vectors: the realistic archive's real MiniLM vectors (bench/archive.py, ~100k over every
layer); 10k is a seeded sample of them, 100k all of them, and beyond that the rest are made
from real ones and said so in the row: each is a real row plus 0.3 of another real row plus
Gaussian noise of norm 0.3-0.7, made unit again (a cosine of ~0.8-0.95 to the row it came from:
near-duplicates of real lines, the neighbourhoods a chat archive has and a graph finds hard).
One layer holds them all (the switch is per layer; a 1M-item archive's messages layer is most
of it).

Per size, over the 60 planted paraphrase questions and as many everyday ones, measured
alternately in one loop:
- the fast path: the query embedded by the real model, then Kit's own search of one matrix
  (kit/retrieval/matrix.py `Matrix.search`, 200 candidates at the search's cosine floor) as
  Kit runs it at that size: the exact int8 scan below `FIRST_PASS_ROWS`, from there a
  sign-code first pass with the nearest rows rescored in int8 (kit/retrieval/first_pass.py),
  the HNSW graph (kit/retrieval/ann.py) from `ANN_MIN_ROWS` (built first, its CPU and time
  reported);
- the baseline: the same query embedding, then ONE float32 BLAS product over every row and
  `argpartition` for the top 15 (bench/sandwich_real.py's baseline);
- p50/p95 of each, their ratio, CPU per query (every thread), the share of the exact float32
  top 15 (tie-aware, no cosine floor: the structure's own recall) among the fast path's
  candidates, and the memory each holds.
`--graph` also measures the graph below the switch (with the parameters given), for the trade
in docs/measurements.md; `--depth` asks the graph for that many candidates (Kit: 200) and
keeps the best 200 of them by the exact int8 score.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt
from ann_levers import everyday
from archive import build_cache
from common import Row, Stopwatch, load_minilm, machine, p50_p95, print_rows
from planted import PLANTED

from kit.embed.base import Embedder
from kit.retrieval import ann as ann_module
from kit.retrieval import first_pass
from kit.retrieval import matrix as matrix_module
from kit.retrieval.matrix import Matrix
from kit.retrieval.ranking import RankingParams

SIZES = (10_000, 100_000, 500_000, 1_000_000)
TOP = 15
CHUNK = 50_000  # rows made, quantised and added at a time (peak memory: one chunk)
Floats = npt.NDArray[np.float32]


@dataclass(frozen=True)
class GraphParams:
    connectivity: int = ann_module.CONNECTIVITY
    expansion_add: int = ann_module.EXPANSION_ADD
    expansion_search: int = ann_module.EXPANSION_SEARCH
    depth: int = 200  # candidates asked of the graph (Kit asks for its 200)

    @property
    def label(self) -> str:
        return (
            f"graph M{self.connectivity} ef_add {self.expansion_add} ef {self.expansion_search}"
            f" depth {self.depth}"
        )


def real_vectors(db: Path) -> Floats:
    """Every layer's float32 vectors from the archive's database, in id order per layer."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
        rows = con.execute("SELECT vector FROM embeddings ORDER BY kind, item_id").fetchall()
    vectors = np.frombuffer(b"".join(r[0] for r in rows), dtype=np.float32)
    return vectors.reshape(len(rows), -1).copy()


def made_rows(real: Floats, count: int, seed: int) -> Floats:
    """`count` rows made from real ones: a real row + 0.3 of another + noise of norm 0.3-0.7,
    made unit again."""
    rng = np.random.default_rng(seed)
    base = real[rng.integers(0, len(real), count)]
    other = real[rng.integers(0, len(real), count)]
    noise = rng.standard_normal(base.shape, dtype=np.float32)
    noise *= (rng.uniform(0.3, 0.7, count) / np.linalg.norm(noise, axis=1))[:, None]
    rows = base + np.float32(0.3) * other + noise
    rows /= np.linalg.norm(rows, axis=1, keepdims=True)
    return rows.astype(np.float32)


def corpus(real: Floats, size: int) -> tuple[Floats, str]:
    """`size` unit rows and what they are."""
    if size <= len(real):
        if size == len(real):
            return real, f"{size:,} real MiniLM vectors"
        picked = np.sort(np.random.default_rng(7).choice(len(real), size, replace=False))
        return real[picked], f"{size:,} real MiniLM vectors (a seeded sample)"
    rows = np.empty((size, real.shape[1]), dtype=np.float32)
    rows[: len(real)] = real
    for start in range(len(real), size, CHUNK):
        end = min(start + CHUNK, size)
        rows[start:end] = made_rows(real, end - start, seed=start)
    made = size - len(real)
    return rows, f"{len(real):,} real + {made:,} blended/perturbed from real ones"


def kit_matrix(rows: Floats) -> Matrix:
    matrix = Matrix(rows.shape[1], capacity=len(rows))
    for start in range(0, len(rows), CHUNK):
        end = min(start + CHUNK, len(rows))
        matrix.upsert(range(start + 1, end + 1), rows[start:end])
    return matrix


def build_graph(matrix: Matrix, params: GraphParams) -> tuple[float, float, float]:
    """Kit's graph over the matrix, with `params`: (CPU s, wall s, MB it holds)."""
    saved = (ann_module.CONNECTIVITY, ann_module.EXPANSION_ADD, ann_module.EXPANSION_SEARCH)
    ann_module.CONNECTIVITY = params.connectivity
    ann_module.EXPANSION_ADD = params.expansion_add
    ann_module.EXPANSION_SEARCH = params.expansion_search
    try:
        cpu, wall = time.process_time(), time.perf_counter()
        matrix.build_ann()
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    finally:
        ann_module.CONNECTIVITY, ann_module.EXPANSION_ADD, ann_module.EXPANSION_SEARCH = saved
    assert matrix.ann is not None
    return cpu, wall, matrix.ann._index.memory_usage / 2**20


def fast_search(matrix: Matrix, query: Floats, k: int, floor: float, depth: int) -> list[int]:
    """Kit's search of one matrix; with a graph asked for `depth` candidates, its best `k`."""
    if matrix.ann is None or depth <= k:
        return [i for i, _ in matrix.search(query, k, floor)]
    return [i for i, _ in matrix.search(query, depth, floor)[:k]]


async def measure(
    name: str,
    note: str,
    rows: Floats,
    matrix: Matrix,
    model: Embedder | None,
    texts: list[str],
    vectors: Floats,
    depth: int,
    graph: tuple[float, float, float] | None,
) -> list[Row]:
    p = RankingParams()
    fast, base = Stopwatch(), Stopwatch()
    fast_cpu = base_cpu = 0.0
    found = wanted = 0
    for text, query in zip(texts, vectors, strict=True):
        used = time.process_time()
        with fast:
            if model is not None:
                (await model.embed([text]))[0]
            await asyncio.to_thread(fast_search, matrix, query, p.candidates, p.threshold, depth)
        fast_cpu += time.process_time() - used
        used = time.process_time()
        with base:
            if model is not None:
                query = (await model.embed([text]))[0]
            scores = rows @ query
            top = np.argpartition(-scores, TOP - 1)[:TOP]
            top[np.argsort(-scores[top])]
        base_cpu += time.process_time() - used
        # Not timed: which of the exact top 15 the fast path keeps (no cosine floor).
        bar = float(np.partition(scores, -TOP)[-TOP]) - 1e-6
        want = set((np.flatnonzero(scores >= bar) + 1).tolist())
        got = set(fast_search(matrix, query, p.candidates, -2.0, depth))
        wanted += TOP
        found += min(TOP, len(want & got))
    count = len(texts)
    codes = 0 if matrix.codes is None else matrix.codes.nbytes
    f50, f95 = p50_p95(fast.laps)
    b50, b95 = p50_p95(base.laps)
    if matrix.ann is not None:
        path = f"graph (depth {depth})"
    elif matrix.codes is not None:
        path = f"sign-code first pass, the nearest {first_pass.RESCORED_ROWS:,} rescored in int8"
    else:
        path = "exact int8 scan"
    embed = "embed + " if model is not None else "no query model; "
    out = [
        Row(name, "fast path p50", f50 * 1000, "ms", f"{note}; {path}"),
        Row(name, "fast path p95", f95 * 1000, "ms",
            f"{count} queries: {embed}Kit's Matrix.search, 200 candidates"),
        Row(name, "baseline p50", b50 * 1000, "ms",
            f"{embed}one BLAS matrix @ q over {len(rows):,} float32 rows + argpartition"),
        Row(name, "baseline p95", b95 * 1000, "ms"),
        Row(name, "fast path p95 / baseline p95", f95 / b95, "x", "target at 1M <= 0.5"),
        Row(name, "CPU per fast-path query", fast_cpu / count * 1000, "ms", "all threads"),
        Row(name, "CPU per baseline query", base_cpu / count * 1000, "ms", "all threads"),
        Row(name, "exact top 15 kept", found / wanted, "",
            "target >= 0.98; float32 reference, tie-aware, no cosine floor"),
        Row(name, "memory: int8 matrix", matrix.nbytes / 2**20, "MB",
            "rows + ids + scales" + (" + sign codes" if matrix.codes is not None else "")
            + (" + packed copy" if matrix.packed else "")),
        Row(name, "memory: sign codes", codes / 2**20, "MB", "in the int8 matrix's"),
        Row(name, "memory: float32 baseline", rows.nbytes / 2**20, "MB"),
    ]  # fmt: skip
    if graph is not None:
        cpu, wall, mb = graph
        out += [
            Row(name, "graph build CPU", cpu, "s", "one thread, as Kit builds it"),
            Row(name, "graph build wall", wall, "s"),
            Row(name, "memory: graph", mb, "MB", "besides the int8 matrix"),
        ]
    return out


async def run(
    sizes: tuple[int, ...] = SIZES,
    *,
    graph: bool = False,
    params: GraphParams = GraphParams(),
    extra_queries: int = 60,
) -> list[Row]:
    model = await load_minilm()
    if model is None:
        return [Row("scale", "archive", 0, "", "no local MiniLM model: not measured")]
    folder = await build_cache(1.0)
    real = real_vectors(folder / "archive.sqlite3")
    texts = [q for q, _ in PLANTED] + everyday(extra_queries)
    vectors = np.asarray(await model.embed(texts), dtype=np.float32)
    out: list[Row] = []
    for size in sizes:
        rows, note = corpus(real, size)
        matrix = kit_matrix(rows)
        name = f"vectors {size // 1000}k" if size < 1_000_000 else f"vectors {size / 1e6:g}M"
        built = None
        if matrix.needs_ann():  # Kit's own switch
            built = build_graph(matrix, GraphParams())
        out += await measure(name, note, rows, matrix, model, texts, vectors, 200, built)
        if graph and (matrix.ann is None or params != GraphParams()):
            matrix.ann = None
            built = build_graph(matrix, params)
            out += await measure(
                f"{name} {params.label}", note, rows, matrix, model, texts, vectors,
                params.depth, built,
            )  # fmt: skip
        del rows, matrix
        print(f"[scale: {size:,} done]", flush=True)
    out.append(
        Row("scale", "switch to the graph (ANN_MIN_ROWS)", matrix_module.ANN_MIN_ROWS, "rows")
    )
    out.append(Row("scale", "load average (1 min) at the end", os.getloadavg()[0], ""))
    return out


async def quick() -> list[Row]:
    """CI's seconds: 2k and 8k clustered random unit vectors, random queries (no model, no
    archive), the exact scan and a graph with Kit's parameters at 8k."""
    rng = np.random.default_rng(3)
    centres = rng.standard_normal((50, 384)).astype(np.float32)
    real = centres[rng.integers(0, 50, 2_000)] + rng.standard_normal((2_000, 384), np.float32)
    real /= np.linalg.norm(real, axis=1, keepdims=True)
    vectors = made_rows(real, 20, seed=1)
    texts = [f"query {n}" for n in range(len(vectors))]
    out: list[Row] = []
    for size in (2_000, 8_000):
        rows, note = corpus(real, size)
        matrix = kit_matrix(rows)
        name = f"vectors {size // 1000}k"
        out += await measure(name, note, rows, matrix, None, texts, vectors, 200, None)
        if size == 8_000:
            built = build_graph(matrix, GraphParams())
            label = f"{name} {GraphParams().label}"
            out += await measure(label, note, rows, matrix, None, texts, vectors, 200, built)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    parser.add_argument("--graph", action="store_true", help="the graph below the switch too")
    parser.add_argument("--connectivity", type=int, default=ann_module.CONNECTIVITY)
    parser.add_argument("--expansion-add", type=int, default=ann_module.EXPANSION_ADD)
    parser.add_argument("--expansion-search", type=int, default=ann_module.EXPANSION_SEARCH)
    parser.add_argument("--depth", type=int, default=200, help="graph candidates rescored")
    parser.add_argument("--queries", type=int, default=60, help="everyday queries (60 planted)")
    parser.add_argument("--json", type=Path, metavar="OUT", help="also write the rows here")
    args = parser.parse_args()
    params = GraphParams(args.connectivity, args.expansion_add, args.expansion_search, args.depth)
    rows = asyncio.run(
        run(tuple(args.sizes), graph=args.graph, params=params, extra_queries=args.queries)
    )
    print(f"Vector search by size on {machine()}")
    print_rows(rows)
    if args.json is not None:
        data = {"machine": machine(), "rows": [r.__dict__ for r in rows]}
        args.json.write_text(json.dumps(data, indent=1))


if __name__ == "__main__":
    main()
