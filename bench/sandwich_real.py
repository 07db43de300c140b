"""The sandwich on the realistic archive with real MiniLM vectors (bench/archive.py): speed
against a same-run BLAS baseline, and what the fast path keeps of an exact float32 scan.

    python bench/sandwich_real.py [--scale 1.0] [--queries 120]

Rows, per archive size:
- build p50 / p95 of `context.build` (no model call) for the 60 planted paraphrase questions
  and as many everyday ones, next to a baseline measured alternately in the same loop: the
  query embedded by the same model, then ONE BLAS product `everything @ q` over a float32
  matrix of every stored vector (numpy's own threads) and `argpartition` for the top 15 — the
  fastest exact scan numpy offers; the ratio of the p95s; CPU per build and per baseline
  (every thread of the process);
- per layer, the share of the exact float32 top 15 (tie-aware; under the search's cosine
  floor too, when it has one) among the candidates Kit's vector search keeps (200 per
  layer), and the largest difference between a kept candidate's cosine and its float32 cosine;
- the planted answers: in the exact top 15 of the messages' vectors, in Kit's candidates,
  in the context Kit builds (that last one depends on fusion and the token budget);
- the first build after opening (loads the vectors), and the background load (`warm`).
The archive's database is copied from the cache (bench/archive.py builds it once).
"""

from __future__ import annotations

import os

# OpenBLAS's threads spin ~0.1 s after each product before they sleep: after the baseline's
# product they took ~16 ms of CPU from the 30 ms that followed, i.e. from the next build (on
# 2 cores: its wall time too). Told to sleep at once, they cost the build nothing and the
# baseline's own product is the same (docs/measurements.md, issue 33). Before numpy loads.
os.environ.setdefault("OPENBLAS_THREAD_TIMEOUT", "4")

import argparse
import asyncio
import dataclasses
import json
import shutil
import tempfile
import time
from collections.abc import Collection
from pathlib import Path

import numpy as np
from ann_levers import everyday
from archive import CachedEmbedder, VectorCache, build_cache, cache_folder
from common import NOW, Row, Stopwatch, load_minilm, p50_p95, print_rows
from planted import PLANTED

from kit import heap
from kit.api import Kit
from kit.clock import FakeClock
from kit.config import ScheduleSettings, Settings
from kit.embed.base import Embedder
from kit.llm.fake import FakeLLM
from kit.retrieval.kinds import KINDS

TOP = 15


def _float32(db: Path, user: str, model: str) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Every layer's ids and float32 vectors, read straight from the file (the reference)."""
    import sqlite3

    out: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
        for kind in KINDS:
            rows = con.execute(
                "SELECT item_id, vector FROM embeddings WHERE user_id = ? AND kind = ?"
                " AND model_id = ? ORDER BY item_id",
                (user, kind, model),
            ).fetchall()
            ids = np.array([r[0] for r in rows], dtype=np.int64)
            vectors = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32)
            out[kind] = (ids, vectors.reshape(len(rows), -1))
    return out


async def measure_real(scale: float, real: Embedder, extra_queries: int) -> list[Row]:
    folder = await build_cache(scale)
    meta = json.loads((folder / "meta.json").read_text())
    items = meta["facts"] + meta["messages"] + meta["days"]
    name = f"real {items // 1000}k" if items >= 1000 else f"real {items}"
    embedder = CachedEmbedder(real, VectorCache(cache_folder(real.model_id)))
    with tempfile.TemporaryDirectory(prefix="kit-bench-") as work:
        settings = Settings(data_dir=Path(work), schedule=ScheduleSettings(timezone="UTC"))
        shutil.copyfile(folder / "archive.sqlite3", settings.database_path)
        disk = settings.database_path.stat().st_size
        async with Kit.open(
            settings=settings,
            llm=FakeLLM(),
            embedder=embedder,
            clock=FakeClock(NOW),
            background=False,
        ) as kit:
            s = kit.services
            user = settings.owner.user_id
            await kit.settle()  # nothing to embed unless the schema moved on
            # What a daemon does after its start (kit/daemon/warm.py): the word index loads.
            began = time.perf_counter()
            await s.search.warm(user)
            words_load = time.perf_counter() - began
            exact = _float32(settings.database_path, user, real.model_id)
            everything = np.vstack([vectors for _, vectors in exact.values()])
            conv = await s.messages.conversation(user, "telegram", "owner")
            began = time.perf_counter()
            await s.context.build(user, "warm up", now=NOW, conversation=conv)
            first = time.perf_counter() - began
            heap.freeze()  # as the daemon's warm-up ends (kit/daemon/warm.py)
            texts = [q for q, _ in PLANTED] + everyday(extra_queries)
            build, base = Stopwatch(), Stopwatch()
            build_cpu = base_cpu = 0.0
            contexts: list[set[int]] = []
            stages: dict[str, list[float]] = {}
            for text in texts:
                used = time.process_time()
                with build:
                    # as a turn builds it: what was cut is not rendered (kit/agent.py)
                    sandwich = await s.context.build(
                        user, text, now=NOW, conversation=conv, explain=False
                    )
                build_cpu += time.process_time() - used
                contexts.append({h.id for h in sandwich.relevant if h.kind == "message"})
                for stage in sandwich.stages:
                    stages.setdefault(stage.name, []).append(stage.ms)
                used = time.process_time()
                with base:
                    vector = (await real.embed([text]))[0]
                    scores = everything @ vector
                    top = np.argpartition(-scores, TOP - 1)[:TOP]
                    top[np.argsort(-scores[top])]
                base_cpu += time.process_time() - used
            tool = Stopwatch()
            for text in texts:
                with tool:
                    outcome = await s.tools.run(
                        "search_memory", {"query": text}, user_id=user, now=NOW, message_id=0
                    )
                assert not outcome.is_error, outcome.content
            agreement = await lexical_agreement(kit, texts)
            queries = np.asarray(await real.embed(texts), dtype=np.float32)
            kept, error = await _kept(kit, exact, queries)
            planted = await _planted(kit, exact, queries, meta["planted_ids"], contexts)
            s.vectors.store.forget_cache(saved=False)  # a restart: the background load
            began = time.perf_counter()
            await s.vectors.warm()
            warm = time.perf_counter() - began
    p50, p95 = p50_p95(build.laps)
    b50, b95 = p50_p95(base.laps)
    count = len(texts)
    note = f"{meta['facts']:,} facts + {meta['messages']:,} messages + {meta['days']:,} days"
    rows = [
        Row(name, "build p50", p50 * 1000, "ms", f"{note}; real MiniLM vectors"),
        Row(name, "build p95", p95 * 1000, "ms", f"{count} queries: 60 paraphrases + everyday"),
        Row(name, "baseline p50", b50 * 1000, "ms",
            f"embed + one BLAS matrix @ q over {len(everything):,} float32 rows + argpartition"),
        Row(name, "baseline p95", b95 * 1000, "ms"),
        Row(name, "build p95 / baseline p95", p95 / b95, "x", "target <= 1.0 at 100k"),
        Row(name, "CPU per build", build_cpu / count * 1000, "ms", "all threads"),
        Row(name, "CPU per baseline", base_cpu / count * 1000, "ms", "all threads"),
    ]  # fmt: skip
    rows += [
        Row(name, f"stage p50: {stage}", p50_p95(laps)[0], "ms") for stage, laps in stages.items()
    ]
    t50, t95 = p50_p95(tool.laps)
    rows += [
        Row(name, "search_memory p50", t50 * 1000, "ms"),
        Row(name, "search_memory p95", t95 * 1000, "ms"),
    ]
    for kind, value in agreement.items():
        rows.append(Row(name, f"top-15 {kind}s as unbounded lexical", value, "",
                        "tie-aware, vs no common-word bound"))  # fmt: skip
    for kind, share in kept.items():
        rows.append(Row(name, f"exact top 15 kept among candidates: {kind}s", share, "",
                        "target >= 0.98; float32 reference, tie-aware"))  # fmt: skip
    rows.append(Row(name, "largest cosine error of a kept candidate", error * 1000, "x 1e-3",
                    "int8 rows vs float32"))  # fmt: skip
    total = len(meta["planted_ids"])  # a small archive has fewer days than questions
    rows += [
        Row(name, "planted answer in exact vector top 15", planted["exact"], f"of {total}"),
        Row(name, "planted answer in Kit's candidates", planted["kept"], f"of {total}",
            "the messages layer's vector search"),
        Row(name, "planted answer in Kit's context", planted["context"], f"of {total}",
            "after fusion and the token budget"),
        Row(name, "word index load (search.warm)", words_load, "s", "a daemon does it at start"),
        Row(name, "first build (loads the vectors)", first * 1000, "ms"),
        Row(name, "background load of every vector (warm)", warm, "s", "a restart"),
        Row(name, "database on disk", disk / 2**20, "MB", f"{items:,} items"),
    ]  # fmt: skip
    return rows


async def lexical_agreement(kit: Kit, texts: list[str]) -> dict[str, float]:
    """Share of each layer's top 15 whose score reaches the 15th score of the same search
    with lexical search unbounded (`common_rows` 0: every matching row scored)."""
    search = kit.services.search
    bounded = search.params
    user = kit.services.settings.owner.user_id
    found: dict[str, int] = {}
    total: dict[str, int] = {}
    for text in texts:
        search.params = dataclasses.replace(bounded, common_rows=0)
        full = await search.search(user, text, now=NOW, k=TOP)
        search.params = bounded
        fast = await search.search(user, text, now=NOW, k=TOP)
        for kind in KINDS:
            want = full.of(kind)
            if not want:
                continue
            bar = want[-1].score - 1e-9
            total[kind] = total.get(kind, 0) + len(want)
            found[kind] = found.get(kind, 0) + sum(
                1 for h in fast.of(kind)[: len(want)] if h.score >= bar
            )
    return {kind: found[kind] / total[kind] for kind in total}


def kept_of_exact(ids: np.ndarray, scores: np.ndarray, hits: Collection[int]) -> tuple[int, int]:
    """How many of the exact top 15 of `scores` (rows `ids`, tie-aware) the search's `hits`
    hold, and of how many: the whole exact top 15, cosines under the search's floor included,
    so a row the floor keeps out counts as one the fast path failed to keep (issue 33)."""
    top = min(TOP, len(scores))
    bar = float(np.partition(scores, -top)[-top]) - 1e-6
    want = set(ids[scores >= bar].tolist())
    return min(TOP, len(want & set(hits))), min(TOP, len(want))


async def _kept(
    kit: Kit, exact: dict[str, tuple[np.ndarray, np.ndarray]], queries: np.ndarray
) -> tuple[dict[str, float], float]:
    """Per layer, the share of the float32 top 15 (under the cosine floor too) that Kit's
    vector search keeps among its candidates; and the largest cosine error among them."""
    s = kit.services
    p = s.search.params
    user = s.settings.owner.user_id
    shares: dict[str, float] = {}
    error = 0.0
    for kind, (ids, vectors) in exact.items():
        if not len(ids):
            continue
        found = wanted = 0
        for query in queries:
            scores = vectors @ query
            floor = p.message_threshold if kind == "message" else p.threshold
            hits = dict(await s.vectors.search(user, kind, query, p.candidates, floor))
            got, of = kept_of_exact(ids, scores, hits)
            found += got
            wanted += of
            where = np.searchsorted(ids, np.fromiter(hits, np.int64, len(hits)))
            if len(where):
                error = max(error, float(np.abs(scores[where] - list(hits.values())).max()))
        shares[kind] = found / wanted if wanted else 1.0
    return shares, error


async def _planted(
    kit: Kit,
    exact: dict[str, tuple[np.ndarray, np.ndarray]],
    queries: np.ndarray,
    planted_ids: list[int],
    contexts: list[set[int]],
) -> dict[str, int]:
    s = kit.services
    p = s.search.params
    user = s.settings.owner.user_id
    ids, vectors = exact["message"]
    out = {"exact": 0, "kept": 0, "context": 0}
    for query, item, context in zip(queries, planted_ids, contexts, strict=False):
        scores = vectors @ query
        bar = float(np.partition(scores, -TOP)[-TOP]) - 1e-6
        out["exact"] += int(scores[np.searchsorted(ids, item)] >= bar)
        hits = await s.vectors.search(user, "message", query, p.candidates, p.message_threshold)
        out["kept"] += item in dict(hits)
        out["context"] += item in context
    return out


async def run(scales: tuple[float, ...], extra_queries: int = 60) -> list[Row]:
    real = await load_minilm()
    if real is None:
        return [Row("real", "archive", 0, "", "no local MiniLM model: not measured")]
    rows: list[Row] = []
    for scale in scales:
        rows += await measure_real(scale, real, extra_queries)
    load = os.getloadavg()
    rows.append(Row("real", "load average (1 min) at the end", load[0], ""))
    return rows


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, nargs="+", default=[1.0])
    parser.add_argument("--queries", type=int, default=60, help="everyday queries (60 planted)")
    args = parser.parse_args()
    print_rows(asyncio.run(run(tuple(args.scale), args.queries)))
