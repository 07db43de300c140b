"""Many owners on PostgreSQL: a users x facts curve with 1, 2 and 4 worker processes, and the
same sizes on SQLite for one user beside it.

    python bench/stores.py [--quick] [--seconds S] [--sizes 1x1000,100x1000,...]

For each size: a fresh database, bulk-loaded (COPY on PostgreSQL, with the row triggers off
and their work done set-based after: the full-text rows, memory_versions, the id sequences;
never through the curator): every user's facts, each with its insert history row and its
hashing vector (HashingEmbedder's own vectors, computed with a word cache). Then, with W worker
processes each running its own Kit on the same database (scripted model, HashingEmbedder,
no background work), for S seconds each:
  - sandwich: `Kit.context()` (the turn's own context build, no model) for a random user and
    question; p50/p95 over every build of every worker;
  - turns: `Kit.send()` (store the message, build the sandwich, the scripted model's reply,
    store it, usage) for a random user; turns per second summed over the workers.
Database size: `pg_database_size` after loading (before the turns), or the SQLite file.

The server is pgserver's bundled PostgreSQL with pgvector (started in a temporary folder)
unless KIT_BENCH_POSTGRES_URL names one. No HNSW index is built: below ANN_MIN_ROWS (20,000)
rows per user and kind, Kit searches a user's vectors exactly, which every size here is.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import multiprocessing as mp
import os
import random
import re
import tempfile
import time
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from common import NAMES, Row, categories, machine, p50_p95, print_rows, queries, sentence

from kit.clock import to_iso
from kit.config import ScheduleSettings, Settings, StorageSettings
from kit.embed.hashing import HashingEmbedder
from kit.memory.hashes import content_hash

FULL_SIZES = ((1, 1_000), (1, 10_000), (100, 1_000), (100, 10_000), (1_000, 1_000))
QUICK_SIZES = ((1, 1_000), (10, 1_000))
WORKERS = (1, 2, 4)
DIM = 256
MODEL = HashingEmbedder(DIM).model_id
FACT_COLUMNS = (
    "id", "user_id", "category", "subject", "content", "confidence", "created_at", "updated_at",
    "content_hash",
)  # fmt: skip
_WORD = re.compile(r"[a-z0-9]+")
_bucket: dict[str, int] = {}


def _vectors(texts: Sequence[str]) -> np.ndarray[Any, np.dtype[np.float32]]:
    """HashingEmbedder's vectors, exactly, with each word's bucket computed once."""
    out = np.zeros((len(texts), DIM), dtype=np.float32)
    for row, text in enumerate(texts):
        for word in _WORD.findall(text.lower()):
            slot = _bucket.get(word)
            if slot is None:
                digest = hashlib.blake2b(word.encode(), digest_size=4).digest()
                slot = _bucket[word] = int.from_bytes(digest, "little") % DIM
            out[row, slot] += 1.0
    norms = np.linalg.norm(out, axis=1, keepdims=True)
    return out / np.where(norms > 0, norms, 1)


def user_name(n: int) -> str:
    return f"user{n:05d}"


# -- loading ------------------------------------------------------------------------------------


async def load_postgres(url: str, users: int, facts: int) -> None:
    import asyncpg  # the bench talks to the server directly to bulk-load

    from kit.clock import SystemClock
    from kit.store.migrate import migrate
    from kit.store.postgres.database import PostgresDatabase, _setup

    async with PostgresDatabase.open(url) as db:
        await migrate(db, SystemClock())
    conn = await asyncpg.connect(url)
    await _setup(conn)
    at = to_iso(SystemClock().now())
    try:
        for table in ("facts", "fact_history", "embeddings"):
            await conn.execute(f"ALTER TABLE {table} DISABLE TRIGGER USER")
        next_id = 1
        for u in range(users):
            rng = random.Random(u)
            user = user_name(u)
            kinds = categories(facts, rng)
            subjects = [rng.choice(NAMES) for _ in range(facts)]
            contents = [sentence(rng) for _ in range(facts)]
            ids = range(next_id, next_id + facts)
            next_id += facts
            hashes = [content_hash(s, c) for s, c in zip(subjects, contents, strict=True)]
            await conn.copy_records_to_table(
                "facts",
                columns=FACT_COLUMNS,
                records=[
                    (i, user, k, s, c, rng.choice((0.6, 0.8, 0.9)), at, at, h)
                    for i, k, s, c, h in zip(ids, kinds, subjects, contents, hashes, strict=True)
                ],
            )
            await conn.copy_records_to_table(
                "fact_history",
                columns=("id", "fact_id", "user_id", "at", "actor", "operation", "reason"),
                records=[(i, i, user, at, "curator", "insert", "bench") for i in ids],
            )
            texts = [
                c if s.lower() in c.lower() else f"{s}: {c}"
                for s, c in zip(subjects, contents, strict=True)
            ]
            vectors = _vectors(texts)
            await conn.copy_records_to_table(
                "embeddings",
                columns=("kind", "item_id", "user_id", "model_id", "content_hash", "vector"),
                records=[
                    ("fact", i, user, MODEL, h, vectors[n])
                    for n, (i, h) in enumerate(zip(ids, hashes, strict=True))
                ],
            )
        # What the row triggers would have done, set-based.
        await conn.execute(
            "INSERT INTO facts_fts (id, user_id, terms)"
            " SELECT id, user_id, to_tsvector('english', subject || ' ' || content) FROM facts"
        )
        await conn.execute(
            "INSERT INTO memory_versions (user_id, facts) SELECT user_id, COUNT(*) FROM facts"
            " GROUP BY user_id ON CONFLICT (user_id) DO UPDATE SET facts = excluded.facts"
        )
        for table in ("facts", "fact_history"):
            await conn.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), max(id)) FROM {table}"
            )
        for table in ("facts", "fact_history", "embeddings"):
            await conn.execute(f"ALTER TABLE {table} ENABLE TRIGGER USER")
        await conn.execute("ANALYZE")
    finally:
        await conn.close()


async def load_sqlite(path: Path, facts: int) -> None:
    """One owner's facts through the facts writer (history rows too), then their vectors."""
    from common import fill_memory

    from kit.api import Kit
    from kit.llm.fake import FakeLLM

    settings = _settings(f"sqlite:///{path}", path.parent / "loader", user_name(0))
    async with Kit.open(
        settings=settings, llm=FakeLLM(), embedder=HashingEmbedder(DIM), background=False
    ) as kit:
        await fill_memory(kit, facts, 0, 0)
        await kit.services.vectors.backfill()


async def database_size(url: str, path: Path | None) -> int:
    if path is not None:
        return sum(p.stat().st_size for p in path.parent.glob(path.name + "*"))
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        return int(await conn.fetchval("SELECT pg_database_size(current_database())"))
    finally:
        await conn.close()


# -- workers ------------------------------------------------------------------------------------


def _settings(url: str, data_dir: Path, owner: str = "owner") -> Settings:
    from kit.config import OwnerSettings

    return Settings(
        data_dir=data_dir,
        owner=OwnerSettings(user_id=owner),
        schedule=ScheduleSettings(timezone="UTC"),
        storage=StorageSettings(url=url),
    )


def worker(
    url: str, folder: str, users: int, seconds: float, seed: int, start: Any, results: Any
) -> None:
    results.put(asyncio.run(_work(url, Path(folder), users, seconds, seed, start)))


async def _work(
    url: str, folder: Path, users: int, seconds: float, seed: int, start: Any
) -> tuple[list[float], int, float]:
    from kit.api import Kit
    from kit.llm.fake import FakeLLM

    rng = random.Random(seed)
    asked = queries(400, seed)
    async with Kit.open(
        settings=_settings(url, folder / f"worker{seed}"),
        llm=FakeLLM(),
        embedder=HashingEmbedder(DIM),
        background=False,
    ) as kit:
        await kit.context(asked[0], user=user_name(0))  # warm: connections, caches
        await asyncio.to_thread(start.wait)
        builds: list[float] = []
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            began = time.perf_counter()
            await kit.context(rng.choice(asked), user=user_name(rng.randrange(users)))
            builds.append(time.perf_counter() - began)
        await asyncio.to_thread(start.wait)
        turns = 0
        began = time.perf_counter()
        deadline = began + seconds
        while time.perf_counter() < deadline:
            user = user_name(rng.randrange(users))
            await kit.send(rng.choice(asked), user=user, conversation=f"bench-{seed}")
            turns += 1
        return builds, turns, time.perf_counter() - began


def run_workers(
    url: str, folder: Path, users: int, count: int, seconds: float
) -> tuple[list[float], float]:
    """`count` worker processes at once; every sandwich build time and the turns per second."""
    ctx = mp.get_context("spawn")
    start = ctx.Barrier(count)
    results = ctx.Queue()
    procs = [
        ctx.Process(target=worker, args=(url, str(folder), users, seconds, n + 1, start, results))
        for n in range(count)
    ]
    for p in procs:
        p.start()
    done = [results.get(timeout=600) for _ in procs]
    for p in procs:
        p.join()
    builds = [b for d in done for b in d[0]]
    rate = sum(d[1] / d[2] for d in done)
    return builds, rate


# -- the curve ----------------------------------------------------------------------------------


def measure(
    label: str, url: str, folder: Path, users: int, facts: int, size: int, counts: Sequence[int],
    seconds: float,
) -> list[Row]:  # fmt: skip
    rows = [Row(label, "database size", size / 1e6, "MB", f"{users * facts:,} facts")]
    for count in counts:
        builds, rate = run_workers(url, folder, users, count, seconds)
        p50, p95 = p50_p95([b * 1000 for b in builds])
        note = f"{count} worker{'s' if count > 1 else ''}"
        rows.append(Row(label, f"sandwich p50 ({note})", p50, "ms"))
        rows.append(Row(label, f"sandwich p95 ({note})", p95, "ms"))
        rows.append(Row(label, f"turns/s ({note})", rate, "turns/s"))
        print_rows(rows[-3:])
    return rows


def postgres_server(folder: Path) -> tuple[str, object | None]:
    given = os.environ.get("KIT_BENCH_POSTGRES_URL", "").strip()
    if given:
        return given, None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import pgserver

        handle = pgserver.get_server(folder, cleanup_mode="delete")
    return handle.get_uri().replace("postgres:@", "postgres@", 1), handle


async def admin(base: str, sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(base)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


def database_url(base: str, name: str) -> str:
    return re.sub(r"/[^/?]*(\?|$)", rf"/{name}\1", base, count=1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--seconds", type=float, default=10.0, help="per phase and worker count")
    parser.add_argument("--sizes", help="USERSxFACTS,... (default: the full curve)")
    parser.add_argument("--workers", default="1,2,4")
    parser.add_argument("--no-sqlite", action="store_true")
    args = parser.parse_args()
    sizes = QUICK_SIZES if args.quick else FULL_SIZES
    if args.sizes:
        sizes = tuple((int(u), int(f)) for u, f in (s.split("x") for s in args.sizes.split(",")))
    counts = [int(w) for w in args.workers.split(",")]
    print(f"machine: {machine()}")
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="kit-bench-stores-") as tmp:
        folder = Path(tmp)
        base, handle = postgres_server(folder / "pg")
        for users, facts in sizes:
            name = f"kit_bench_{users}x{facts}"
            url = database_url(base, name)
            asyncio.run(admin(base, f"DROP DATABASE IF EXISTS {name}"))
            asyncio.run(admin(base, f"CREATE DATABASE {name}"))
            began = time.perf_counter()
            asyncio.run(load_postgres(url, users, facts))
            loaded = time.perf_counter() - began
            label = f"postgres {users}u x {facts // 1000}k"
            print(f"{label}: loaded {users * facts:,} facts in {loaded:.0f} s")
            rows.append(
                Row(label, "bulk load", loaded, "s", f"{users * facts / loaded:,.0f} facts/s")
            )
            size = asyncio.run(database_size(url, None))
            rows += measure(label, url, folder, users, facts, size, counts, args.seconds)
            asyncio.run(admin(base, f"DROP DATABASE {name}"))
        if not args.no_sqlite:
            for facts in sorted({f for _, f in sizes}):
                path = folder / f"sqlite{facts}" / "kit.db"
                asyncio.run(load_sqlite(path, facts))
                size = asyncio.run(database_size("", path))
                label = f"sqlite 1u x {facts // 1000}k"
                rows += measure(
                    label, f"sqlite:///{path}", folder, 1, facts, size, [1], args.seconds
                )
        del handle
    print()
    print_rows(rows)


if __name__ == "__main__":
    main()
