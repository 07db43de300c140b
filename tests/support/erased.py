"""Whether a word is gone from the store itself, below the rows a query reads.

SQLite: not in the file's bytes (free pages, the WAL, FTS segments). PostgreSQL: no full-text
index holds it and the tables were vacuumed after the forget (its dead row versions left the
tables and indexes). PostgreSQL does not zero the space they leave in a page, nor its WAL: the
page docs/postgresql.md says so, and what an operator does about it.
"""

from __future__ import annotations

from kit.store.db import Database


async def gone_from_store(db: Database, *words: str) -> bool:
    return all([await _gone(db, word) for word in words])


async def _gone(db: Database, word: str) -> bool:
    if db.engine == "sqlite":
        path = db.path  # type: ignore[attr-defined]
        wal = path.with_name(path.name + "-wal")
        data = path.read_bytes() + (wal.read_bytes() if wal.exists() else b"")
        return word.lower().encode() not in data.lower()
    for table in ("messages_fts", "facts_fts", "days_fts", "note_chunks_fts"):
        found = await db.scalar(
            f"SELECT COUNT(*) FROM {table} WHERE terms @@ plainto_tsquery('english', ?)", (word,)
        )
        if found:
            return False
    vacuumed = await db.scalar(
        "SELECT COUNT(*) FROM pg_stat_user_tables WHERE relname IN ('messages', 'facts')"
        " AND last_vacuum IS NOT NULL"
    )
    return bool(vacuumed == 2)
