"""Whether a full-text index still holds words of erased rows (for `kit forget --verify`).

An index entry carries no text a query can read back, so it is checked against its row: an
entry of a row that is gone, or holding a word its row no longer has, is a leftover (a
forgotten message's words, a fact's words from before it was erased). One implementation per
engine (`index_audit` below picks): SQLite's here, PostgreSQL's in kit/forget/pg_index_audit.py.

SQLite: FTS5 tables whose content is the row (or a view of it). The words an index holds for
a row are read with `fts5vocab` ('instance': term, row, column); the words the row has now are
found by indexing it again into a temporary FTS5 table with the same columns and tokenizer.
This runs on a read-only connection of its own (temporary tables are its own): it takes no
lock a running daemon waits for.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
from collections.abc import Collection
from pathlib import Path
from typing import Protocol

from kit.store.db import Database, Transaction

_INDEXED = ("messages", "facts", "days", "note_chunks")
_ARGS = re.compile(r"fts5\((.*)\)\s*$", re.IGNORECASE | re.DOTALL)


class IndexAudit(Protocol):
    async def stale(self, table: str, ids: Collection[int]) -> set[int]:
        """Of `ids` (rows of `table`, present or gone), those whose full-text index entries
        hold words the row does not have now (all of its entries, for a row that is gone)."""
        ...

    async def repair(self, tx: Transaction, table: str, ids: Collection[int]) -> None:
        """Inside an erasing transaction: the entries of `ids` made again from their rows
        (none for a row that is gone)."""
        ...


class SqliteIndexAudit:
    def __init__(self, path: Path) -> None:
        self._path = path

    async def stale(self, table: str, ids: Collection[int]) -> set[int]:
        if table not in _INDEXED:
            raise ValueError(f"no full-text index over {table}")
        if not ids:
            return set()
        return await asyncio.to_thread(self._stale, table, sorted(set(ids)))

    async def repair(self, tx: Transaction, table: str, ids: Collection[int]) -> None:
        # An FTS5 entry is taken out by giving the words it was made from, which a stale
        # entry no longer has: the index is made again from its rows instead.
        fts = f"{table}_fts"
        await tx.execute(f"INSERT INTO {fts}({fts}) VALUES ('rebuild')")

    def _stale(self, table: str, ids: list[int]) -> set[int]:
        uri = self._path.resolve().as_uri() + "?mode=ro"  # a name with '?' or '#' stays a name
        conn = sqlite3.connect(uri, uri=True, isolation_level=None)
        try:
            return _audit(conn, f"{table}_fts", ids)
        finally:
            conn.close()


def _audit(conn: sqlite3.Connection, fts: str, ids: list[int]) -> set[int]:
    (sql,) = conn.execute("SELECT sql FROM sqlite_master WHERE name = ?", (fts,)).fetchone()
    match = _ARGS.search(sql)
    assert match is not None, f"{fts} is not an FTS5 table"
    columns: list[str] = []
    options: dict[str, str] = {}
    for part in _split(match.group(1)):
        key, eq, value = part.partition("=")
        if eq:
            options[key.strip().lower()] = value.strip().strip("'\"")
        else:
            columns.append(part.strip())
    cols = ", ".join(columns)
    conn.execute("BEGIN")  # one snapshot for the index and the rows
    try:
        conn.execute("CREATE TEMP TABLE kit_audit_ids (id INTEGER PRIMARY KEY)")
        conn.executemany("INSERT INTO kit_audit_ids (id) VALUES (?)", [(i,) for i in ids])
        conn.execute(
            f"CREATE VIRTUAL TABLE temp.kit_audit_now USING fts5({cols},"
            f" tokenize='{options['tokenize']}')"
        )
        conn.execute(
            f"INSERT INTO temp.kit_audit_now (rowid, {cols}) SELECT {options['content_rowid']},"
            f" {cols} FROM main.{options['content']} WHERE {options['content_rowid']} IN"
            " (SELECT id FROM kit_audit_ids)"
        )
        vocab = "CREATE VIRTUAL TABLE temp.{} USING fts5vocab({}, {}, instance)"
        conn.execute(vocab.format("kit_audit_held", "main", fts))
        conn.execute(vocab.format("kit_audit_want", "temp", "kit_audit_now"))
        rows = conn.execute(
            "SELECT DISTINCT doc FROM (SELECT doc, term, col FROM temp.kit_audit_held"
            " WHERE doc IN (SELECT id FROM kit_audit_ids) EXCEPT"
            " SELECT doc, term, col FROM temp.kit_audit_want)"
        ).fetchall()
        return {int(r[0]) for r in rows}
    finally:
        conn.execute("ROLLBACK")


def _split(args: str) -> list[str]:
    """FTS5 arguments, split at commas outside quotes."""
    parts, current, quote = [], "", ""
    for char in args:
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == ",":
            parts.append(current)
            current = ""
            continue
        current += char
    return [p for p in [*parts, current] if p.strip()]


def index_audit(db: Database) -> IndexAudit:
    """Whether full-text entries hold words their rows no longer have (`kit forget --verify`):
    FTS5's own words read back, or tsvectors compared with the rows."""
    if db.engine == "postgres":
        from kit.forget.pg_index_audit import PostgresIndexAudit

        return PostgresIndexAudit(db)
    from kit.store.sqlite import SqliteDatabase

    assert isinstance(db, SqliteDatabase)
    return SqliteIndexAudit(db.path)
