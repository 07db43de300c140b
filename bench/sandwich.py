"""Context sandwich build time and `search_memory` latency as memory grows.

    python bench/sandwich.py [--quick]

Full: the realistic archive with real MiniLM vectors at ~10k and ~100k items
(bench/sandwich_real.py: build p50/p95 against a same-run BLAS baseline, CPU per build, what
the fast path keeps of the exact float32 top 15 per layer, the planted paraphrase answers);
then Kit's vector search of one layer at 10k, 100k, 500k and 1M rows, the switch to a graph
included (bench/sandwich_scale.py: beyond the archive's ~100k real vectors the rows are
blended/perturbed from real ones): p95 against the same-run float32 baseline, CPU, the exact
top 15 kept, memory, the graph's build where there is one. Quick adds that at 2k and 8k
random clustered vectors (a graph at 8k).

Quick (CI, seconds): synthetic memory with hashing vectors at 200 and 1k facts (with as many
archived messages) plus 60 days of summaries; the same build/baseline rows, next to a baseline
measured in the same process and loop (one query each, alternating): embedding the query with
the real model plus one BLAS product over a float32 matrix of every stored vector and its
top 15. Also CPU time, each stage, the `search_memory` tool's latency, how often the bounded
lexical search (common words, kit/retrieval/lexical.py) returns what the unbounded one would, and
a restart: loading the vectors again.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

import numpy as np
import sandwich_real
import sandwich_scale
from common import (
    NOW,
    RealQueryCost,
    Row,
    Stopwatch,
    fill_memory,
    load_minilm,
    p50_p95,
    queries,
)

from kit.api import Kit
from kit.clock import FakeClock
from kit.config import ScheduleSettings, Settings
from kit.embed.base import Embedder
from kit.embed.hashing import HashingEmbedder
from kit.llm.fake import FakeLLM

FULL_SCALES = (0.1, 1.0)  # of the realistic archive: ~10k, ~100k items
QUICK = {"sizes": (200, 1_000), "days": 60, "queries": 8}


async def measure(size: int, days: int, count: int, real: Embedder | None) -> list[Row]:
    name = f"sandwich {size // 1000}k" if size >= 1000 else f"sandwich {size}"
    with tempfile.TemporaryDirectory(prefix="kit-bench-") as folder:
        settings = Settings(data_dir=Path(folder), schedule=ScheduleSettings(timezone="UTC"))
        stored = HashingEmbedder(384)
        async with Kit.open(
            settings=settings,
            llm=FakeLLM(),
            embedder=stored,
            clock=FakeClock(NOW),
            background=False,
        ) as kit:
            s = kit.services
            user = settings.owner.user_id
            began = time.perf_counter()
            await fill_memory(kit, facts=size, archived=size, days=days)
            await kit.settle()
            setup = time.perf_counter() - began
            cost = RealQueryCost(stored, real)
            s.vectors.embedder = cost
            conv = await s.messages.conversation(user, "local", "default")
            began = time.perf_counter()
            await s.context.build(user, "warm up", now=NOW, conversation=conv)  # loads vectors
            first = time.perf_counter() - began
            matrices = {k: m for (u, k), m in s.vectors.store._matrices.items() if u == user}
            everything = np.vstack([m.vectors(slice(0, m.size)) for m in matrices.values()])
            cost.query_time.laps.clear()
            build, base = Stopwatch(), Stopwatch()
            build_cpu = base_cpu = 0.0
            tokens: list[int] = []
            stages: dict[str, list[float]] = {}
            for query in queries(count):
                used = time.process_time()
                with build:
                    sandwich = await s.context.build(user, query, now=NOW, conversation=conv)
                build_cpu += time.process_time() - used
                used = time.process_time()
                with base:
                    vector = (await cost.embed([query]))[0]
                    scores = everything @ vector
                    top = np.argpartition(-scores, 15)[:15]
                    top[np.argsort(-scores[top])]
                base_cpu += time.process_time() - used
                tokens.append(sandwich.memory_tokens)
                for stage in sandwich.stages:
                    stages.setdefault(stage.name, []).append(stage.ms)
            # The build's embeddings run alongside its lexical searches (sharing the cores);
            # the baseline's run alone: that is the model's own cost.
            embed_laps = [lap for i, lap in enumerate(cost.query_time.laps) if i % 2 == 0]
            alone_laps = [lap for i, lap in enumerate(cost.query_time.laps) if i % 2 == 1]
            tool = Stopwatch()
            for query in queries(count, seed=12):
                with tool:
                    outcome = await s.tools.run(
                        "search_memory", {"query": query}, user_id=user, now=NOW, message_id=0
                    )
                assert not outcome.is_error, outcome.content
            agreement = await sandwich_real.lexical_agreement(kit, queries(count, seed=14))
            # A restart: the vectors read from the database again, in the background.
            s.vectors.store.forget_cache(saved=False)
            began = time.perf_counter()
            await s.vectors.warm()
            restart = time.perf_counter() - began
    p50, p95 = p50_p95(build.laps)
    b50, b95 = p50_p95(base.laps)
    t50, t95 = p50_p95(tool.laps)
    items = f"{size:,} facts + {size:,} messages + {days:,} days"
    rows = [
        Row(name, "build p50", p50 * 1000, "ms", items),
        Row(name, "build p95", p95 * 1000, "ms"),
        Row(name, "baseline p50", b50 * 1000, "ms", f"embed + exact top-15 of {len(everything):,}"),
        Row(name, "baseline p95", b95 * 1000, "ms"),
        Row(name, "build p95 / baseline p95", p95 / b95, "x", "target <= 1.5"),
        Row(name, "CPU per build / per baseline", build_cpu / base_cpu, "x", "all threads"),
        Row(name, "CPU per build", build_cpu / count * 1000, "ms"),
    ]
    if embed_laps:
        alone = p50_p95(alone_laps)[1] * 1000
        rows.append(Row(name, "query embedding p95, alone", alone, "ms", "target <= 10"))
        during = p50_p95(embed_laps)[1] * 1000
        rows.append(Row(name, "query embedding p95, in the build", during, "ms", "beside lexical"))
    for stage, laps in stages.items():
        rows.append(Row(name, f"stage p50: {stage}", p50_p95(laps)[0], "ms"))
    rows += [
        Row(name, "search_memory p50", t50 * 1000, "ms"),
        Row(name, "search_memory p95", t95 * 1000, "ms"),
        Row(name, "first build (loads vectors)", first * 1000, "ms"),
        Row(name, "restart: vectors loaded", restart, "s", "background"),
        Row(name, "memory tokens p50", p50_p95(tokens)[0], "tokens"),
        Row(name, "setup (write + index)", setup, "s", "not part of any turn"),
    ]
    for kind, value in agreement.items():
        note = "tie-aware, vs no common-word bound"
        rows.append(Row(name, f"top-15 {kind}s as unbounded lexical", value, "", note))
    return rows


async def run(quick: bool = False) -> list[Row]:
    real = await load_minilm()
    if not quick and real is not None:
        rows = await sandwich_real.run(FULL_SCALES)
        return rows + await sandwich_scale.run()
    rows = []
    for size in QUICK["sizes"]:
        rows += await measure(size, QUICK["days"], QUICK["queries"], real)
    rows += await sandwich_scale.quick()
    if real is None:
        rows.append(Row("sandwich", "query model", 0, "", "no local MiniLM: query cost missing"))
    return rows


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes (CI)")
    from common import print_rows

    print_rows(asyncio.run(run(parser.parse_args().quick)))
