"""Which engine holds Kit's memory: `storage.url` chooses, this module opens it.

"" or "sqlite:///path": one SQLite file (kit/store/sqlite.py), the default. A
"postgresql://" URL: a PostgreSQL server with pgvector (kit/store/postgres/), for one
deployment remembering many people. The memory logic does not know which: it talks to the
`Database` interface (kit/store/db.py); the parts that differ per engine are picked once, by
their own concern: full-text search and vectors in kit/retrieval/engines.py, the search-index
audit in kit/forget/index_audit.py.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from kit.config import Settings
from kit.errors import ConfigError
from kit.store.db import Database
from kit.store.postgres.url import redact
from kit.store.sqlite import SqliteDatabase

POSTGRES_EXTRA = "pip install 'kit-assistant[postgres]'"


def describe(settings: Settings) -> str:
    """Where memory lives, as it may be shown (a URL never with a password)."""
    if settings.on_postgres:
        return redact(settings.storage.url)
    return str(settings.database_path)


@asynccontextmanager
async def open_database(settings: Settings) -> AsyncIterator[Database]:
    """The configured store, open; closed on exit."""
    if settings.on_postgres:
        try:
            from kit.store.postgres.database import PostgresDatabase
        except ImportError as exc:
            raise ConfigError(
                f"storage.url names a PostgreSQL server but its driver is not installed; "
                f"run {POSTGRES_EXTRA}"
            ) from exc
        async with PostgresDatabase.open(settings.storage.url) as db:
            yield db
    else:
        async with SqliteDatabase.open(settings.database_path) as sqlite:
            yield sqlite
