"""The one SQLite file: a writer connection serialised by a lock, and reader connections.

The default store (kit/store/db.py is the interface it implements). Writes go through
`transaction()` (BEGIN IMMEDIATE ... COMMIT, rolled back whole on any error); reads use
separate connections so they only ever see committed data (WAL lets all run at once). There
are `READERS` of them, each on its own thread, so independent reads (a search's layers) run
in parallel instead of queueing behind one another.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager, nullcontext
from pathlib import Path
from typing import Any

import aiosqlite

from kit.errors import StorageError
from kit.files import disk_full, os_error, private_dir
from kit.store.db import Engine, Params
from kit.store.dbfile import (
    check_database_file,
    check_no_stray_wal,
    create_database_file,
    damaged_fix,
)

READERS = 3  # one per search layer (facts, days, messages)


def storage_error(exc: sqlite3.Error, path: Path) -> StorageError:
    """Translate SQLite's terse errors into something the owner can act on."""
    text = str(exc)
    # SQLite reports a full disk as a plain I/O error when it cannot grow its -shm file.
    full = "full" in text or ("disk I/O error" in text and disk_full(path))
    if "locked" in text or "busy" in text:
        hint = "another program holds the database; stop it (or the other Kit) and try again"
    elif full:
        hint = "the disk is full; free some space and try again (nothing was half-written)"
    elif "readonly" in text or "unable to open" in text:
        hint = "check that the data directory exists and is writable by you"
    elif "malformed" in text or "not a database" in text:
        hint = "the file is damaged; restore a backup with `kit restore BACKUP` (run `kit doctor`)"
    else:
        hint = "see the log for details"
    return StorageError(f"{path}: database error ({text}); {hint}")


class SqliteTransaction:
    """Statements inside one BEGIN IMMEDIATE ... COMMIT on the writer connection."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: Params = ()) -> None:
        cursor = await self._conn.execute(sql, params)
        await cursor.close()

    async def insert(self, sql: str, params: Params = ()) -> int:
        cursor = await self._conn.execute(sql, params)
        rowid = cursor.lastrowid or 0
        await cursor.close()
        return rowid

    async def execute_rowcount(self, sql: str, params: Params = ()) -> int:
        cursor = await self._conn.execute(sql, params)
        count = cursor.rowcount
        await cursor.close()
        return count

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        await self._conn.executemany(sql, rows)

    async def fetchall(self, sql: str, params: Params = ()) -> list[sqlite3.Row]:
        cursor = await self._conn.execute(sql, params)
        rows = await cursor.fetchall()
        await cursor.close()
        return list(rows)

    async def fetchone(self, sql: str, params: Params = ()) -> sqlite3.Row | None:
        cursor = await self._conn.execute(sql, params)
        row = await cursor.fetchone()
        await cursor.close()
        return row


class SqliteDatabase:
    engine: Engine = "sqlite"

    def __init__(
        self, path: Path, writer: aiosqlite.Connection, readers: Sequence[aiosqlite.Connection]
    ):
        self.path = path
        self.where = str(path)
        self.about = f"SQLite {sqlite3.sqlite_version}"
        self._writer = writer
        self._readers: asyncio.Queue[aiosqlite.Connection] = asyncio.Queue()
        for reader in readers:
            self._readers.put_nowait(reader)
        self._write_lock = asyncio.Lock()

    @classmethod
    @asynccontextmanager
    async def open(cls, path: Path) -> AsyncIterator[SqliteDatabase]:
        """Open (creating if needed) the database file with 0600 permissions, WAL mode."""
        private_dir(path.parent)
        try:
            if not path.exists():  # noqa: ASYNC240 - once at start-up, before any I/O loop
                check_no_stray_wal(path)
                create_database_file(path)
            else:
                check_database_file(path)
            for part in (
                path,
                path.with_name(path.name + "-wal"),
                path.with_name(path.name + "-shm"),
            ):
                if part.exists() and part.stat().st_mode & 0o077:
                    os.chmod(part, 0o600)  # private memory: tighten a copy made with looser rights
        except sqlite3.Error as exc:
            raise storage_error(exc, path) from exc
        except OSError as exc:
            raise os_error(exc, path, "cannot open the database") from exc
        writer = None
        readers: list[aiosqlite.Connection] = []
        try:
            writer = await _connect(path)
            await _pragma(writer, "PRAGMA journal_mode=WAL")
            for _ in range(READERS):
                readers.append(await _connect(path))
            db = cls(path, writer, readers)
            yield db
        except sqlite3.Error as exc:
            raise storage_error(exc, path) from exc
        finally:
            for conn in (*readers, writer):
                if conn is not None:
                    await conn.close()

    @asynccontextmanager
    async def transaction(self, *, erasing: bool = False) -> AsyncIterator[SqliteTransaction]:
        """One write transaction: lands whole or not at all. With `erasing`, deleted pages are
        zeroed (`secure_delete`), the FTS indexes merged so no token of a deleted row lingers in
        an old segment, and after the commit the WAL is checkpointed (old page images of the
        erased rows leave it)."""
        async with self._write_lock:
            try:
                await self._writer.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise storage_error(exc, self.path) from exc
            except BaseException:
                # Cancelled while BEGIN waited its turn: it still runs on the connection's
                # thread, and nobody would end it. Roll it back (queued after it) before the
                # lock goes to the next transaction, whose BEGIN would fail otherwise.
                await self._writer.rollback()
                raise
            tx = SqliteTransaction(self._writer)
            try:
                if erasing:
                    await tx.execute("PRAGMA secure_delete = ON")
                yield tx
                if erasing:
                    await _merge_fts(tx)
                    await tx.execute("PRAGMA secure_delete = OFF")
            except BaseException as exc:
                await self._writer.rollback()
                if _is_environmental(exc):
                    raise storage_error(exc, self.path) from exc  # type: ignore[arg-type]
                raise
            try:
                await self._writer.commit()
            except sqlite3.Error as exc:
                await self._writer.rollback()
                raise storage_error(exc, self.path) from exc
            except BaseException:
                # Cancelled while COMMIT waited: it still runs; should it fail there, this
                # rollback (a no-op after a commit) ends the transaction it would leave open.
                await self._writer.rollback()
                raise
        if erasing:
            await self.checkpoint()

    async def fetchall(self, sql: str, params: Params = ()) -> list[sqlite3.Row]:
        # One call on the connection's thread: the statement runs to completion before any
        # other read starts. A statement left open across an await (execute, then fetch later)
        # would keep one WAL snapshot alive for every read that overlaps it, and a turn could
        # then miss the message it had just committed.
        reader = await self._readers.get()
        try:
            rows = await reader.execute_fetchall(sql, params)
        except sqlite3.Error as exc:
            if not _is_environmental(exc):
                raise
            raise storage_error(exc, self.path) from exc
        finally:
            self._readers.put_nowait(reader)
        return list(rows)

    async def fetchone(self, sql: str, params: Params = ()) -> sqlite3.Row | None:
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def scalar(self, sql: str, params: Params = ()) -> Any:
        row = await self.fetchone(sql, params)
        return None if row is None else row[0]

    def user_lock(self, user_id: str) -> AbstractAsyncContextManager[None]:
        """One worker per SQLite file (kit/daemon/lock.py): nothing to hold across workers."""
        return nullcontext()

    async def check_pages(self) -> None:
        """Read every page once (`PRAGMA quick_check`: O(size), ~0.3 s per 260 MB): a damaged
        page is found now, with what to do, not when a read happens to reach it."""
        rows = await self.fetchall("PRAGMA quick_check(3)")
        problems = [str(r[0]) for r in rows]
        if problems != ["ok"]:
            text = " ".join("; ".join(problems).replace("*** in database main ***", "").split())
            raise StorageError(
                f"{self.path}: the database failed its integrity check ({text[:200]}); "
                + damaged_fix(self.path)
            )

    async def checkpoint(self) -> bool:
        """Copy the WAL into the main file and truncate it (after `kit forget`, so old page
        images of erased rows do not linger). False when a reader elsewhere kept it busy."""
        async with self._write_lock:
            try:
                cursor = await self._writer.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                row = await cursor.fetchone()
                await cursor.close()
            except sqlite3.Error as exc:
                raise storage_error(exc, self.path) from exc
        return row is not None and row[0] == 0


async def _connect(path: Path) -> aiosqlite.Connection:
    # isolation_level=None: we issue BEGIN/COMMIT ourselves, so transactions are explicit.
    conn = await aiosqlite.connect(path, isolation_level=None, timeout=5.0)
    try:
        conn.row_factory = sqlite3.Row
        for pragma in ("foreign_keys=ON", "busy_timeout=5000", "synchronous=NORMAL"):
            await _pragma(conn, f"PRAGMA {pragma}")
    except BaseException:
        # Its worker thread is not a daemon: left open, it would keep the process alive.
        await conn.close()
        raise
    return conn


async def _merge_fts(tx: SqliteTransaction) -> None:
    """Merge every FTS5 index's segments: a deleted row's tokens leave the index for good."""
    for (table,) in await tx.fetchall(
        "SELECT name FROM sqlite_master WHERE type = 'table'"
        " AND sql LIKE 'CREATE VIRTUAL TABLE%fts5%'"
    ):
        await tx.execute(f"INSERT INTO {table}({table}) VALUES ('optimize')")


async def _pragma(conn: aiosqlite.Connection, sql: str) -> None:
    # Drain and close: an unfinished PRAGMA statement keeps a lock on the file.
    cursor = await conn.execute(sql)
    await cursor.fetchall()
    await cursor.close()


def _is_environmental(exc: BaseException) -> bool:
    """Locked, full, unreadable: the machine's fault, not a bug in our SQL."""
    return (
        isinstance(exc, sqlite3.OperationalError | sqlite3.DatabaseError)
        and not isinstance(
            exc, sqlite3.IntegrityError | sqlite3.ProgrammingError | sqlite3.InterfaceError
        )
        and "syntax error" not in str(exc)
        and "no such" not in str(exc)
    )
