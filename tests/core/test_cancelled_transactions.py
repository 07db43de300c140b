"""A write cancelled at any point leaves the SQLite writer ready for the next transaction.

A statement handed to aiosqlite runs on the connection's thread whatever happens to the task
that awaits it. A turn cancelled while its BEGIN waited (SIGTERM past the grace period, a TUI
action abandoned) used to leave that BEGIN to run later with nobody to end it: every later
write then failed with "cannot start a transaction within a transaction".
"""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from kit.store.sqlite import SqliteDatabase


async def _writer_waits_in_begin(db: SqliteDatabase, started: asyncio.Event) -> None:
    async with db.transaction() as tx:  # pragma: no cover - cancelled before it is entered
        started.set()
        await tx.execute("INSERT INTO t VALUES (1)")


async def test_a_transaction_cancelled_while_its_begin_waits_leaves_no_open_transaction(
    tmp_path: Path,
) -> None:
    path = tmp_path / "kit.db"
    async with SqliteDatabase.open(path) as db:
        async with db.transaction() as tx:
            await tx.execute("CREATE TABLE t (x INTEGER)")
        # Another process holds the write lock: Kit's BEGIN IMMEDIATE waits on its thread.
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        entered = asyncio.Event()
        waiting = asyncio.create_task(_writer_waits_in_begin(db, entered))
        await asyncio.sleep(0)  # one step: it takes the free lock and hands BEGIN to the thread
        assert db._write_lock.locked()
        waiting.cancel()
        other.execute("COMMIT")  # the BEGIN it sent now runs to its end on the thread
        other.close()
        try:
            await waiting
        except asyncio.CancelledError:
            pass
        assert not entered.is_set()
        async with db.transaction() as tx:  # failed here: a transaction was still open
            await tx.execute("INSERT INTO t VALUES (2)")
        assert [tuple(r) for r in await db.fetchall("SELECT x FROM t")] == [(2,)]


async def test_a_transaction_cancelled_twice_while_rolling_back_still_rolls_back(
    tmp_path: Path,
) -> None:
    path = tmp_path / "kit.db"
    async with SqliteDatabase.open(path) as db:
        async with db.transaction() as tx:
            await tx.execute("CREATE TABLE t (x INTEGER)")
        inside = asyncio.Event()

        async def write() -> None:
            async with db.transaction() as tx:
                await tx.execute("INSERT INTO t VALUES (1)")
                inside.set()
                await asyncio.Event().wait()  # until cancelled

        task = asyncio.create_task(write())
        await inside.wait()
        task.cancel()
        await asyncio.sleep(0)
        task.cancel()  # a second cancellation while the rollback is under way
        try:
            await task
        except asyncio.CancelledError:
            pass
        async with db.transaction() as tx:
            await tx.execute("INSERT INTO t VALUES (2)")
        assert [tuple(r) for r in await db.fetchall("SELECT x FROM t")] == [(2,)]
