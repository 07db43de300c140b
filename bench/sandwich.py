"""Context sandwich build time and `search_memory` latency as memory grows.

    python bench/sandwich.py [--quick]

At 1k, 10k and 100k facts (with as many archived messages) plus three years of daily
summaries (detailed and condensed): the sandwich's build time p50/p95 excluding the LLM, the
share of it spent embedding the query with the real model, and the `search_memory` tool's
latency. Stored items carry hashing vectors (see common.RealQueryCost); the query is embedded
by the real MiniLM model every time, so its cost is in the numbers.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

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

FULL = {"sizes": (1_000, 10_000, 100_000), "days": 3 * 365, "queries": 60}
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
            cost.query_time.laps.clear()
            build = Stopwatch()
            tokens = []
            for query in queries(count):
                with build:
                    sandwich = await s.context.build(user, query, now=NOW, conversation=conv)
                tokens.append(sandwich.tokens)
            share = cost.query_time.total / build.total
            tool = Stopwatch()
            for query in queries(count, seed=12):
                with tool:
                    outcome = await s.tools.run(
                        "search_memory", {"query": query}, user_id=user, now=NOW, message_id=0
                    )
                assert not outcome.is_error, outcome.content
    p50, p95 = p50_p95(build.laps)
    t50, t95 = p50_p95(tool.laps)
    items = f"{size:,} facts + {size:,} messages + {days:,} days"
    return [
        Row(name, "build p50", p50 * 1000, "ms", items),
        Row(name, "build p95", p95 * 1000, "ms"),
        Row(name, "embedding the query", share * 100, "% of build"),
        Row(name, "search_memory p50", t50 * 1000, "ms"),
        Row(name, "search_memory p95", t95 * 1000, "ms"),
        Row(name, "first build (loads vectors)", first * 1000, "ms"),
        Row(name, "prompt tokens p50", p50_p95(tokens)[0], "tokens"),
        Row(name, "setup (write + index)", setup, "s", "not part of any turn"),
    ]


async def run(quick: bool = False) -> list[Row]:
    plan = QUICK if quick else FULL
    real = await load_minilm()
    rows: list[Row] = []
    for size in plan["sizes"]:
        rows += await measure(size, plan["days"], plan["queries"], real)
    if real is None:
        rows.append(Row("sandwich", "query model", 0, "", "no local MiniLM: query cost missing"))
    return rows


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes (CI)")
    from common import print_rows

    print_rows(asyncio.run(run(parser.parse_args().quick)))
