"""How long a daemon's background load of the vectors takes (the moment vector search serves,
issue 33): a fresh store's `warm()` over N stored 384-dim vectors, wall and CPU time.

    python bench/vector_load.py [--items 100000] [--runs 3]

The vectors are random unit vectors written straight into the `embeddings` table (what is
timed is reading and quantising them, which does not depend on what they mean), split as a
realistic archive is: a tenth facts, a tenth days, the rest messages. SQLite, a fresh
temporary directory; the database file is in the page cache (a restart of a daemon that ran).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import NOW, Row, machine, print_rows, rss_mb

from kit import Kit
from kit.clock import FakeClock
from kit.config import ScheduleSettings, Settings
from kit.embed.hashing import HashingEmbedder
from kit.llm.fake import FakeLLM

DIM = 384
BATCH = 5_000


async def measure(items: int, runs: int) -> list[Row]:
    with tempfile.TemporaryDirectory(prefix="kit-bench-") as folder:
        settings = Settings(data_dir=Path(folder), schedule=ScheduleSettings(timezone="UTC"))
        embedder = HashingEmbedder(DIM)
        async with Kit.open(
            settings=settings,
            llm=FakeLLM(),
            embedder=embedder,
            clock=FakeClock(NOW),
            background=False,
        ) as kit:
            s = kit.services
            user = settings.owner.user_id
            rng = np.random.default_rng(33)
            kinds = ["fact"] * (items // 10) + ["day"] * (items // 10)
            kinds += ["message"] * (items - len(kinds))
            for start in range(0, items, BATCH):
                vectors = rng.standard_normal((min(BATCH, items - start), DIM), dtype=np.float32)
                vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
                rows = [
                    (kinds[start + i], start + i + 1, user, embedder.model_id, "h", v.tobytes())
                    for i, v in enumerate(vectors)
                ]
                async with s.db.transaction() as tx:
                    await tx.executemany(
                        "INSERT INTO embeddings (kind, item_id, user_id, model_id, content_hash,"
                        " vector) VALUES (?, ?, ?, ?, ?, ?)",
                        rows,
                    )
            walls, cpus = [], []
            before = rss_mb()
            for _ in range(runs):
                s.vectors.store.forget_cache(saved=False)  # a restart: nothing in memory
                load = s.vectors.store.load
                counted = load.loaded
                began, used = time.perf_counter(), time.process_time()
                await s.vectors.warm()
                walls.append(time.perf_counter() - began)
                cpus.append(time.process_time() - used)
                loaded = load.loaded - counted
            after = rss_mb()
    name = f"vector load {items // 1000}k"
    return [
        Row(name, "background load (wall, median)", statistics.median(walls), "s",
            f"{runs} runs; {loaded:,} vectors; target <= 5 s at 100k (quiet host)"),
        Row(name, "background load (CPU, median)", statistics.median(cpus), "s", "all threads"),
        Row(name, "RSS after the loads", after, "MB", f"{after - before:+.0f} MB over the runs"),
    ]  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    rows = asyncio.run(measure(args.items, args.runs))
    print(f"Vector load on {machine()}, load average {os.getloadavg()[0]:.2f}")
    print_rows(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
