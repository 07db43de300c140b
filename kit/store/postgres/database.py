"""A PostgreSQL server as Kit's store: a pool of asyncpg connections (the only asyncpg import).

It implements kit/store/db.py's `Database` for SQL written in the subset both engines speak:
`?` placeholders become `$1, $2, ...` here (outside quoted text), an `insert()` gets its id
from `RETURNING id`, a SUM comes back as a number (not a Decimal), vectors travel as pgvector
`vector` values (numpy arrays in, numpy arrays out).

Writes are serialised like SQLite's (one writer at a time): an asyncio lock inside the
process, then a transaction-level advisory lock (`pg_advisory_xact_lock(WRITER_LOCK)`) across
every process on the same database, so a transaction that reads and then writes sees no one
else's write in between. Part of the store's contract, not an accident: the memory logic was
written for it. Reads use any free connection and see committed data only.

Faults: a connection that drops is replaced by the pool; reads and the start of a transaction
retry with backoff for up to `RECONNECT_SECONDS` (kit/store/postgres/backoff.py), then fail
with a StorageError naming the server (never its password). A transaction cut off in its
middle is rolled back by the server: nothing of it is kept, and the caller hears so.
"""

from __future__ import annotations

import asyncio
import logging
import re
import struct
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from functools import lru_cache
from typing import Any, TypeVar

import asyncpg
import numpy as np

from kit.errors import ConfigError, StorageError
from kit.store.db import Engine, Params
from kit.store.postgres.backoff import (
    FIRST_PAUSE,
    LONGEST_PAUSE,
    RECONNECT_SECONDS,
    LoopPauses,
    Pauses,
)
from kit.store.postgres.url import redact
from kit.store.postgres.user_locks import LOCK_CONNECTIONS, UserLocks

log = logging.getLogger(__name__)

WRITER_LOCK = 0x4B17_0001  # pg_advisory_xact_lock key of Kit's one writer (per database)
POOL_SIZE = 6  # three parallel search reads, a writer, background work
CONNECT_SECONDS = 10.0
MIN_SERVER = 13  # major version
MIN_VECTOR = (0, 5, 0)  # HNSW indexes

T = TypeVar("T")


@lru_cache(maxsize=2048)
def numbered(sql: str) -> str:
    """`?` placeholders as `$1, $2, ...`; a `?` inside quotes or a comment is left alone."""
    out: list[str] = []
    n = 0
    i, end = 0, len(sql)
    while i < end:
        ch = sql[i]
        if ch in "'\"":
            close = sql.find(ch, i + 1)
            while close != -1 and close + 1 < end and sql[close + 1] == ch:  # '' inside ''
                close = sql.find(ch, close + 2)
            close = end - 1 if close == -1 else close
            out.append(sql[i : close + 1])
            i = close + 1
        elif sql.startswith("--", i):
            close = sql.find("\n", i)
            close = end - 1 if close == -1 else close
            out.append(sql[i : close + 1])
            i = close + 1
        elif ch == "?":
            n += 1
            out.append(f"${n}")
            i += 1
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def _args(sql: str, params: Params) -> tuple[str, tuple[Any, ...]]:
    if isinstance(params, dict):
        raise TypeError("named parameters are not part of Kit's SQL subset; use ?")
    if not params:
        return sql, ()
    return numbered(sql), tuple(params)


def _count(status: str) -> int:
    """Rows changed, from a command tag like 'UPDATE 3' or 'INSERT 0 5'."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


def _number(text: str) -> int | float:
    """numeric (a SUM of integers, an AVG) as SQLite gives it: an int when whole."""
    if text.lstrip("-").isdigit():
        return int(text)
    return float(text)


def _vector_out(vector: Any) -> bytes:
    values = np.asarray(vector, dtype=">f4").ravel()
    return struct.pack(">HH", len(values), 0) + values.tobytes()


def _vector_in(data: bytes) -> np.ndarray[Any, np.dtype[np.float32]]:
    (dim,) = struct.unpack_from(">H", data)
    return np.frombuffer(data, dtype=">f4", count=dim, offset=4).astype(np.float32)


async def _setup(conn: asyncpg.Connection) -> None:
    """Every pooled connection: numbers as Python numbers, vectors as numpy arrays."""
    await conn.set_type_codec(
        "numeric", encoder=str, decoder=_number, schema="pg_catalog", format="text"
    )
    schema = await conn.fetchval(
        "SELECT n.nspname FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace"
        " WHERE t.typname = 'vector'"
    )
    if schema is not None:
        await conn.set_type_codec(
            "vector", encoder=_vector_out, decoder=_vector_in, schema=schema, format="binary"
        )


# The connection itself failed (dropped, refused, restarting): worth waiting for.
_CONNECTION_ERRORS: tuple[type[BaseException], ...] = (
    OSError,
    asyncio.TimeoutError,
    asyncpg.exceptions.ConnectionDoesNotExistError,
    asyncpg.exceptions.ConnectionFailureError,
    asyncpg.exceptions.CannotConnectNowError,
    asyncpg.exceptions.AdminShutdownError,
    asyncpg.exceptions.CrashShutdownError,
    asyncpg.exceptions.TooManyConnectionsError,
    asyncpg.exceptions.InternalClientError,
)


def _dropped(exc: BaseException) -> bool:
    if isinstance(exc, _CONNECTION_ERRORS):
        return True
    return isinstance(exc, asyncpg.InterfaceError) and "closed" in str(exc)


def storage_error(exc: BaseException, where: str) -> StorageError:
    """A server-side fault the owner can act on (bugs in our SQL are not translated)."""
    if _dropped(exc):
        hint = (
            "the database server cannot be reached or went away; check that PostgreSQL is "
            "running and reachable (nothing half-written was kept)"
        )
    elif isinstance(exc, asyncpg.exceptions.DiskFullError):
        hint = "the database server's disk is full; free space there (nothing was half-written)"
    elif isinstance(exc, asyncpg.exceptions.InsufficientPrivilegeError):
        hint = "Kit's database user lacks a privilege; grant it ownership of Kit's tables"
    elif isinstance(exc, asyncpg.exceptions.ReadOnlySQLTransactionError):
        hint = "the server is read-only (a standby?); point storage.url at the primary"
    else:
        hint = "see the log for details"
    return StorageError(f"{where}: database error ({type(exc).__name__}); {hint}")


def _environmental(exc: BaseException) -> bool:
    return _dropped(exc) or isinstance(
        exc,
        asyncpg.exceptions.DiskFullError
        | asyncpg.exceptions.InsufficientPrivilegeError
        | asyncpg.exceptions.ReadOnlySQLTransactionError
        | asyncpg.exceptions.OutOfMemoryError,
    )


class PostgresTransaction:
    """Statements inside one transaction on one pooled connection."""

    def __init__(self, conn: asyncpg.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: Params = ()) -> None:
        text, args = _args(sql, params)
        await self._conn.execute(text, *args)

    async def insert(self, sql: str, params: Params = ()) -> int:
        text, args = _args(sql + " RETURNING id", params)
        return int(await self._conn.fetchval(text, *args))

    async def execute_rowcount(self, sql: str, params: Params = ()) -> int:
        text, args = _args(sql, params)
        return _count(await self._conn.execute(text, *args))

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        batch = [tuple(r) for r in rows]
        if batch:
            await self._conn.executemany(numbered(sql), batch)

    async def fetchall(self, sql: str, params: Params = ()) -> list[asyncpg.Record]:
        text, args = _args(sql, params)
        return list(await self._conn.fetch(text, *args))

    async def fetchone(self, sql: str, params: Params = ()) -> asyncpg.Record | None:
        text, args = _args(sql, params)
        row: asyncpg.Record | None = await self._conn.fetchrow(text, *args)
        return row


class PostgresDatabase:
    engine: Engine = "postgres"

    def __init__(
        self, pool: asyncpg.Pool, where: str, about: str, user_locks: UserLocks | None = None
    ) -> None:
        self._pool = pool
        self.where = where
        self.about = about
        self._write_lock = asyncio.Lock()
        self._user_locks = user_locks
        self.pauses: Pauses = LoopPauses()  # the reconnect backoff's clock (a seam for tests)

    @classmethod
    @asynccontextmanager
    async def open(cls, url: str) -> AsyncIterator[PostgresDatabase]:
        """Connect (password from PGPASSWORD), check the server and pgvector, open a pool."""
        where = redact(url)
        server, vector = await check_server(url)
        try:
            pool = await asyncpg.create_pool(
                url,
                min_size=1,
                max_size=POOL_SIZE,
                init=_setup,
                timeout=CONNECT_SECONDS,
            )
        except Exception as exc:  # a cancellation stays one
            raise connect_error(exc, where) from exc
        user_locks = UserLocks(
            lambda: asyncpg.create_pool(
                url, min_size=0, max_size=LOCK_CONNECTIONS, timeout=CONNECT_SECONDS
            )
        )
        try:
            yield cls(pool, where, f"PostgreSQL {server}, pgvector {vector}", user_locks)
        finally:
            await user_locks.close()
            try:
                await asyncio.wait_for(pool.close(), 10)
            except (TimeoutError, OSError, asyncpg.PostgresError, asyncpg.InterfaceError):
                pool.terminate()

    async def _retrying(self, call: Callable[[], Awaitable[T]]) -> T:
        """Run `call`, waiting out a dropped connection for up to RECONNECT_SECONDS."""
        pauses = self.pauses
        deadline = pauses.time() + RECONNECT_SECONDS
        delay = FIRST_PAUSE
        while True:
            try:
                return await call()
            except BaseException as exc:
                if not _dropped(exc):
                    if _environmental(exc):
                        raise storage_error(exc, self.where) from exc
                    raise
                if pauses.time() + delay > deadline:
                    raise storage_error(exc, self.where) from exc
                log.warning("database: connection lost (%s); retrying", type(exc).__name__)
                await pauses.sleep(delay)
                delay = min(delay * 2, LONGEST_PAUSE)

    @asynccontextmanager
    async def transaction(self, *, erasing: bool = False) -> AsyncIterator[PostgresTransaction]:
        """One transaction: lands whole or not at all. With `erasing`, the tables are vacuumed
        after the commit, so deleted rows leave the table and index pages (plain VACUUM:
        readers and writers go on; `VACUUM FULL` would rewrite the files, see
        docs/postgresql.md)."""
        async with self._write_lock:
            conn: asyncpg.Connection = await self._retrying(self._begin)
            try:
                try:
                    yield PostgresTransaction(conn)
                except BaseException as exc:
                    await _rollback(conn)
                    if _environmental(exc):
                        raise storage_error(exc, self.where) from exc
                    raise
                try:
                    await conn.execute("COMMIT")
                except Exception as exc:
                    await _rollback(conn)
                    raise storage_error(exc, self.where) from exc
                except BaseException:
                    # Cancelled (a shutdown) while COMMIT ran: asyncpg cancels it on the
                    # server; the task must end cancelled, not carry on with a StorageError.
                    await _rollback(conn)
                    raise
            finally:
                await self._pool.release(conn)
        if erasing:
            await self._vacuum()

    async def _begin(self) -> asyncpg.Connection:
        conn: asyncpg.Connection = await self._pool.acquire()
        try:
            await conn.execute("BEGIN")
            await conn.execute(f"SELECT pg_advisory_xact_lock({WRITER_LOCK})")
        except BaseException:
            await _rollback(conn)
            await self._pool.release(conn)
            raise
        return conn

    async def _vacuum(self) -> None:
        tables = await self.fetchall(
            "SELECT quote_ident(tablename) FROM pg_tables WHERE schemaname = current_schema()"
        )
        for (table,) in tables:
            await self.run_outside_transaction(f"VACUUM {table}")

    async def run_outside_transaction(self, sql: str) -> None:
        """A statement PostgreSQL runs only outside a transaction block (VACUUM, CREATE
        INDEX CONCURRENTLY), on a connection of its own."""

        async def run() -> None:
            async with self._pool.acquire() as conn:
                await conn.execute(sql)

        await self._retrying(run)

    async def fetchall(self, sql: str, params: Params = ()) -> list[asyncpg.Record]:
        text, args = _args(sql, params)

        async def run() -> list[asyncpg.Record]:
            return list(await self._pool.fetch(text, *args))

        return await self._retrying(run)

    async def fetchone(self, sql: str, params: Params = ()) -> asyncpg.Record | None:
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def scalar(self, sql: str, params: Params = ()) -> Any:
        row = await self.fetchone(sql, params)
        return None if row is None else row[0]

    def user_lock(self, user_id: str) -> AbstractAsyncContextManager[None]:
        """A turn of `user_id`'s, in order across workers (kit/store/postgres/user_locks.py)."""
        if self._user_locks is None:
            raise RuntimeError("this PostgresDatabase was not opened with open()")
        return self._user_locks.hold(user_id)

    async def check_pages(self) -> None:
        """PostgreSQL checks its own pages as it reads them (and reports damage then); here
        only that the server answers."""
        await self.scalar("SELECT 1")


async def _rollback(conn: asyncpg.Connection) -> None:
    if conn.is_closed():
        return
    try:
        await conn.execute("ROLLBACK")
    except Exception:  # the connection broke: the server rolled back already
        log.debug("database: rollback on a broken connection", exc_info=True)


async def check_server(url: str) -> tuple[str, str]:
    """Connect once: the server's version and pgvector's (installing the extension when the
    user may). Every problem is one ConfigError naming the fix."""
    where = redact(url)
    try:
        conn = await asyncpg.connect(url, timeout=CONNECT_SECONDS)
    except Exception as exc:  # a cancellation stays one
        raise connect_error(exc, where) from exc
    try:
        server = int(await conn.fetchval("SHOW server_version_num")) // 10000
        if server < MIN_SERVER:
            raise ConfigError(
                f"{where}: PostgreSQL {server} is too old; Kit needs {MIN_SERVER} or later"
            )
        vector = await conn.fetchval("SELECT extversion FROM pg_extension WHERE extname = 'vector'")
        if vector is None:
            vector = await _create_vector(conn, where)
        if _version(vector) < MIN_VECTOR:
            raise ConfigError(
                f"{where}: pgvector {vector} is too old; run ALTER EXTENSION vector UPDATE "
                f"(Kit needs {'.'.join(map(str, MIN_VECTOR))} or later for HNSW indexes)"
            )
        version = str(await conn.fetchval("SHOW server_version"))
        return version, str(vector)
    except asyncpg.PostgresError as exc:
        raise storage_error(exc, where) from exc
    finally:
        await conn.close()


async def _create_vector(conn: asyncpg.Connection, where: str) -> str:
    available = await conn.fetchval(
        "SELECT default_version FROM pg_available_extensions WHERE name = 'vector'"
    )
    if available is None:
        raise ConfigError(
            f"{where}: the server has no pgvector extension; install pgvector on the "
            "PostgreSQL server (e.g. the postgresql-16-pgvector package), then restart Kit"
        )
    try:
        await conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
    except asyncpg.exceptions.InsufficientPrivilegeError as exc:
        raise ConfigError(
            f"{where}: the vector extension is not enabled in this database and Kit's user may "
            "not enable it; as a superuser, run CREATE EXTENSION vector; in that database"
        ) from exc
    return str(await conn.fetchval("SELECT extversion FROM pg_extension WHERE extname = 'vector'"))


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"\d+", text)[:3])


def connect_error(exc: BaseException, where: str) -> KitErrorType:
    """Why a connection could not be made, and what to change."""
    if isinstance(exc, ConfigError | StorageError):
        return exc
    if isinstance(exc, asyncpg.exceptions.InvalidPasswordError):
        return ConfigError(
            f"{where}: the server refused the password; set PGPASSWORD in Kit's environment "
            "to this user's password (never in config.toml)"
        )
    if isinstance(exc, asyncpg.exceptions.InvalidAuthorizationSpecificationError):
        return ConfigError(
            f"{where}: the server refused this user ({_first_line(exc)}); check the user name "
            "in storage.url and the server's pg_hba.conf"
        )
    if isinstance(exc, asyncpg.exceptions.InvalidCatalogNameError):
        return ConfigError(
            f"{where}: the database does not exist; create it (createdb) or fix storage.url"
        )
    if isinstance(exc, OSError | asyncio.TimeoutError | asyncpg.exceptions.CannotConnectNowError):
        return ConfigError(
            f"{where}: cannot reach the PostgreSQL server ({type(exc).__name__}); check the "
            "host and port in storage.url and that the server is running"
        )
    if isinstance(exc, asyncpg.ClientConfigurationError | ValueError):
        return ConfigError(
            f"{where}: storage.url is not a usable PostgreSQL URL; write it like "
            "postgresql://user@host:5432/dbname"
        )
    return storage_error(exc, where)


KitErrorType = ConfigError | StorageError


def _first_line(exc: BaseException) -> str:
    return str(exc).splitlines()[0][:120] if str(exc) else type(exc).__name__
