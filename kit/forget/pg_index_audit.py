"""PostgreSQL's check that a full-text index holds no words of erased rows (the SQLite one and
the why: kit/forget/index_audit.py).

`<table>_fts` rows are tsvectors written by triggers from the row
(kit/store/postgres/fts_schema.py): an entry is stale when its row is gone or when it differs from
what the same expression makes of the row now (for a message, its `context` too: the words of the
message before it).
"""

from __future__ import annotations

from collections.abc import Collection

from kit.store.db import Database, Transaction
from kit.store.postgres.fts_schema import DAY_TERMS, FACT_TERMS, MESSAGE_TERMS, NOTE_TERMS

_BEFORE = (
    "COALESCE((SELECT p.text FROM messages p WHERE p.conversation_id = s.conversation_id"
    " AND p.id < s.id ORDER BY p.id DESC LIMIT 1), '')"
)
# What each table's entries are made of, from its row `s` (kit/store/postgres/fts_schema.py writes
# the same).
_MADE = {
    "facts": {"terms": FACT_TERMS.format("s")},
    "days": {"terms": DAY_TERMS.format("s")},
    "note_chunks": {"terms": NOTE_TERMS.format("s")},
    "messages": {
        "terms": MESSAGE_TERMS.format("s"),
        "context": f"to_tsvector('english', {_BEFORE})",
    },
}
_BATCH = 1000


class PostgresIndexAudit:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def stale(self, table: str, ids: Collection[int]) -> set[int]:
        made = _made(table)
        differs = " OR ".join(f"f.{column} != {value}" for column, value in made.items())
        wanted = sorted(set(ids))
        found: set[int] = set()
        for start in range(0, len(wanted), _BATCH):
            chunk = wanted[start : start + _BATCH]
            rows = await self._db.fetchall(
                f"SELECT f.id FROM {table}_fts f LEFT JOIN {table} s ON s.id = f.id"
                f" WHERE f.id IN ({','.join('?' * len(chunk))}) AND (s.id IS NULL OR {differs})",
                chunk,
            )
            found |= {int(r[0]) for r in rows}
        return found

    async def repair(self, tx: Transaction, table: str, ids: Collection[int]) -> None:
        made = _made(table)
        wanted = sorted(set(ids))
        for start in range(0, len(wanted), _BATCH):
            chunk = wanted[start : start + _BATCH]
            marks = ",".join("?" * len(chunk))
            await tx.execute(
                f"DELETE FROM {table}_fts f WHERE f.id IN ({marks})"
                f" AND NOT EXISTS (SELECT 1 FROM {table} s WHERE s.id = f.id)",
                chunk,
            )
            sets = ", ".join(f"{column} = {value}" for column, value in made.items())
            await tx.execute(
                f"UPDATE {table}_fts f SET {sets} FROM {table} s"
                f" WHERE s.id = f.id AND f.id IN ({marks})",
                chunk,
            )


def _made(table: str) -> dict[str, str]:
    made = _MADE.get(table)
    if made is None:
        raise ValueError(f"no full-text index over {table}")
    return made
