"""The database seam every memory module talks to, whichever engine is behind it.

Two implementations: one SQLite file (kit/store/sqlite.py, the default) and a PostgreSQL
server with pgvector (kit/store/postgres/). Modules write their SQL once, in the subset both
engines speak: `?` placeholders (the PostgreSQL adapter numbers them), `ON CONFLICT` upserts,
`NULLS FIRST/LAST` where a column may be NULL, `insert()` for a new row's id, and the two
functions the PostgreSQL schema adds under SQLite's names (`julianday`, `json_extract`, text
only: cast what you compare). What genuinely differs (full-text search, vector search,
physical erasure, integrity checks, backups) sits behind small per-concern interfaces with one
implementation per engine, chosen once (`kit/store/engines.py` opens the engine).

Writes go through `transaction()`: one transaction that lands whole or not at all; every
write transaction of a store is serialised with every other (one writer at a time, across
processes too), so a transaction that reads and then writes sees no one else's write between.
Reads outside a transaction see committed data only.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Literal, Protocol, TypeAlias

Params = Sequence[Any] | dict[str, Any]

# A column compared without its index, so the planner looks rows up by id instead of scanning
# a user's whole index range (SQLite's `+col`; an expression works on both engines).
NO_INDEX = "({} || '')"
Engine = Literal["sqlite", "postgres"]


# A result row: sqlite3.Row or asyncpg.Record. Both read by position and by column name, unpack,
# and make a dict; typed loosely because each engine's class is its own.
Row: TypeAlias = Any


class Transaction(Protocol):
    """Statements inside one write transaction."""

    async def execute(self, sql: str, params: Params = ()) -> None: ...

    async def insert(self, sql: str, params: Params = ()) -> int:
        """Run one INSERT into a table with an `id` column; returns the new row's id."""
        ...

    async def execute_rowcount(self, sql: str, params: Params = ()) -> int:
        """Run one statement; returns how many rows it changed."""
        ...

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None: ...
    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]: ...
    async def fetchone(self, sql: str, params: Params = ()) -> Row | None: ...


class Database(Protocol):
    engine: Engine
    where: str  # what to name in a message: the file, or the server (never a password)
    about: str  # the engine and its version, e.g. "SQLite 3.40.1"

    def transaction(self, *, erasing: bool = False) -> AbstractAsyncContextManager[Transaction]:
        """One write transaction. With `erasing`, what it deletes is erased physically too
        (`kit forget`): not left readable in free pages, logs or index segments."""
        ...

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]: ...
    async def fetchone(self, sql: str, params: Params = ()) -> Row | None: ...
    async def scalar(self, sql: str, params: Params = ()) -> Any: ...

    async def check_pages(self) -> None:
        """Find damage now, with what to do (once per daemon start, and in `kit doctor`)."""
        ...

    def user_lock(self, user_id: str) -> AbstractAsyncContextManager[None]:
        """Hold one user's turn: no other turn of theirs runs meanwhile in any worker on this
        store (PostgreSQL: an advisory lock; SQLite has one worker per file, and its channels
        order each conversation's turns already, so it holds nothing)."""
        ...
