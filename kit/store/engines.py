"""Which engine holds Kit's memory: `storage.url` chooses, this module opens it.

"" or "sqlite:///path": one SQLite file (kit/store/sqlite.py), the default. A
"postgresql://" URL: a PostgreSQL server with pgvector (kit/store/postgres/), for one
deployment remembering many people. The memory logic does not know which: it talks to the
`Database` interface (kit/store/db.py), and the parts that differ per engine (full-text
search, vector search) are picked here, once.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from kit.config import Settings
from kit.errors import ConfigError
from kit.store.db import Database
from kit.store.postgres.url import redact
from kit.store.sqlite import SqliteDatabase

if TYPE_CHECKING:
    from kit.embed.base import Embedder
    from kit.forget.index_audit import IndexAudit
    from kit.retrieval.lexical import LexicalSearch
    from kit.retrieval.vectors import VectorStore

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


def lexical_search(db: Database) -> LexicalSearch:
    """Full-text search in the engine's own words: FTS5 with BM25, or tsvector with GIN."""
    if db.engine == "postgres":
        from kit.retrieval.pg_lexical import TsvectorSearch

        return TsvectorSearch(db)
    from kit.retrieval.lexical import LexicalIndex

    return LexicalIndex(db)


def index_audit(db: Database) -> IndexAudit:
    """Whether full-text entries hold words their rows no longer have (`kit forget --verify`):
    FTS5's own words read back, or tsvectors compared with the rows."""
    if db.engine == "postgres":
        from kit.forget.pg_index_audit import PostgresIndexAudit

        return PostgresIndexAudit(db)
    from kit.forget.index_audit import SqliteIndexAudit
    from kit.store.sqlite import SqliteDatabase

    assert isinstance(db, SqliteDatabase)
    return SqliteIndexAudit(db.path)


def vector_store(
    db: Database, embedder: Embedder | None, graphs: Path | None = None
) -> VectorStore:
    """Where vectors live and are searched: per-process matrices over SQLite BLOBs (big ones
    through HNSW graphs, saved in `graphs`), or pgvector columns searched by the server."""
    if db.engine == "postgres":
        from kit.retrieval.pg_vectors import PgVectors
        from kit.store.postgres.database import PostgresDatabase

        assert isinstance(db, PostgresDatabase)
        return PgVectors(db, embedder)
    from kit.retrieval.matrices import MatrixVectors

    return MatrixVectors(db, embedder, graphs)
