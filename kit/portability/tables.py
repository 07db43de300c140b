"""A store's tables as data, whichever engine holds them: which tables hold the owner's
memory, their columns, the order that satisfies their foreign keys, and a content hash per
table that is the same on SQLite and PostgreSQL for the same rows (`kit storage copy`
verifies a copy with it).

What is left out is each engine's own: schema bookkeeping (`schema_migrations`, names differ
per engine) and full-text indexes (FTS5 tables on SQLite, `<table>_fts` on PostgreSQL), which
the target's triggers rebuild from the rows as they arrive.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from kit.store.db import Database, Row, Transaction

_FTS = re.compile(r"_fts(_\w+)?$")
_BOOKKEEPING = frozenset({"schema_migrations"})
# Written by triggers while other tables are copied (memory_versions counts changes per
# user): copied last, over what the triggers wrote, so the target holds the source's values.
TRIGGER_KEPT = ("memory_versions",)


@dataclass(frozen=True)
class Table:
    name: str
    columns: tuple[str, ...]
    key: tuple[str, ...]  # primary key columns: the order rows are read in
    parents: frozenset[str]  # tables its foreign keys point to (itself excluded)
    self_refs: tuple[str, ...]  # columns pointing at its own rows (facts.replaced_by)
    vectors: tuple[str, ...]  # vector columns (BLOB on SQLite, pgvector on PostgreSQL)


Reader = Database | Transaction


async def tables(db: Reader, engine: str) -> dict[str, Table]:
    """The memory's tables in `db`, keyed by name."""
    if engine == "postgres":
        return await _postgres_tables(db)
    return await _sqlite_tables(db)


async def _sqlite_tables(db: Reader) -> dict[str, Table]:
    names = [
        str(r[0])
        for r in await db.fetchall(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        )
    ]
    found: dict[str, Table] = {}
    for name in names:
        if _FTS.search(name) or name in _BOOKKEEPING:
            continue
        info = await db.fetchall(f"PRAGMA table_info({name})")
        columns = tuple(str(r[1]) for r in info)
        key = tuple(str(r[1]) for r in sorted((r for r in info if r[5]), key=lambda r: r[5]))
        vectors = tuple(str(r[1]) for r in info if str(r[2]).upper() == "BLOB")
        links = [
            (str(r[2]), str(r[3])) for r in await db.fetchall(f"PRAGMA foreign_key_list({name})")
        ]
        found[name] = _table(name, columns, key or columns, links, vectors)
    return found


async def _postgres_tables(db: Reader) -> dict[str, Table]:
    rows = await db.fetchall(
        "SELECT c.table_name, c.column_name, c.udt_name FROM information_schema.columns c"
        " JOIN information_schema.tables t ON t.table_schema = c.table_schema"
        " AND t.table_name = c.table_name"
        " WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'"
        " ORDER BY c.table_name, c.ordinal_position"
    )
    columns: dict[str, list[str]] = {}
    vectors: dict[str, list[str]] = {}
    for table, column, kind in rows:
        columns.setdefault(str(table), []).append(str(column))
        if str(kind) == "vector":
            vectors.setdefault(str(table), []).append(str(column))
    keys: dict[str, list[str]] = {}
    for table, column in await db.fetchall(
        "SELECT k.table_name, k.column_name FROM information_schema.table_constraints c"
        " JOIN information_schema.key_column_usage k ON k.constraint_name = c.constraint_name"
        " AND k.table_schema = c.table_schema"
        " WHERE c.table_schema = current_schema() AND c.constraint_type = 'PRIMARY KEY'"
        " ORDER BY k.table_name, k.ordinal_position"
    ):
        keys.setdefault(str(table), []).append(str(column))
    links: dict[str, list[tuple[str, str]]] = {}
    for table, column, parent in await db.fetchall(
        "SELECT cl.relname, a.attname, ref.relname FROM pg_constraint con"
        " JOIN pg_class cl ON cl.oid = con.conrelid"
        " JOIN pg_class ref ON ref.oid = con.confrelid"
        " JOIN pg_namespace n ON n.oid = cl.relnamespace AND n.nspname = current_schema()"
        " JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = ANY (con.conkey)"
        " WHERE con.contype = 'f'"
    ):
        links.setdefault(str(table), []).append((str(parent), str(column)))
    return {
        name: _table(
            name,
            tuple(cols),
            tuple(keys.get(name) or cols),
            links.get(name, []),
            tuple(vectors.get(name, [])),
        )
        for name, cols in columns.items()
        if not _FTS.search(name) and name not in _BOOKKEEPING
    }


def _table(
    name: str,
    columns: tuple[str, ...],
    key: tuple[str, ...],
    links: Sequence[tuple[str, str]],
    vectors: tuple[str, ...],
) -> Table:
    return Table(
        name=name,
        columns=columns,
        key=key,
        parents=frozenset(parent for parent, _ in links if parent != name),
        self_refs=tuple(column for parent, column in links if parent == name),
        vectors=vectors,
    )


def load_order(found: dict[str, Table]) -> list[Table]:
    """Parents before children (by name among equals, so the order is stable), and the
    tables triggers write last."""
    order: list[Table] = []
    placed: set[str] = set()
    waiting = sorted(n for n in found if n not in TRIGGER_KEPT)
    while waiting:
        ready = [n for n in waiting if found[n].parents <= placed | set(TRIGGER_KEPT)]
        if not ready:  # a cycle across tables: none in Kit's schema; fail loudly, not wrongly
            raise RuntimeError(f"foreign keys form a cycle among {waiting}")
        for name in ready:
            order.append(found[name])
            placed.add(name)
        waiting = [n for n in waiting if n not in placed]
    return order + [found[n] for n in TRIGGER_KEPT if n in found]


def canonical(value: Any) -> bytes:
    """One value as bytes that are equal on both engines for equal content: a vector as its
    little-endian float32 bytes (a SQLite BLOB, or pgvector's numpy array)."""
    if value is None:
        return b"N"
    if isinstance(value, bool | int | np.integer):
        return b"i" + str(int(value)).encode()
    if isinstance(value, float | np.floating):
        number = float(value)
        return b"f" + (repr(number) if math.isfinite(number) else str(number)).encode()
    if isinstance(value, str):
        return b"s" + value.encode("utf-8", "surrogatepass")
    if isinstance(value, bytes | bytearray | memoryview):
        return b"v" + bytes(value)
    if isinstance(value, np.ndarray):
        return b"v" + np.asarray(value, dtype="<f4").tobytes()
    raise TypeError(f"no canonical form for a {type(value).__name__}")


def row_digest(row: Row) -> bytes:
    digest = hashlib.sha256()
    for value in row:
        part = canonical(value)
        digest.update(len(part).to_bytes(8, "big"))
        digest.update(part)
    return digest.digest()


class TableHash:
    """A table's rows in any order -> one hash (rows sorted by digest: the engines may read
    them in different orders, and collations never enter into it)."""

    def __init__(self) -> None:
        self._digests: list[bytes] = []

    def add(self, rows: Sequence[Row]) -> None:
        self._digests.extend(row_digest(r) for r in rows)

    @property
    def rows(self) -> int:
        return len(self._digests)

    def hexdigest(self) -> str:
        total = hashlib.sha256()
        for digest in sorted(self._digests):
            total.update(digest)
        return total.hexdigest()


def select_all(table: Table) -> str:
    """Every row in key order, a page at a time (LIMIT ? OFFSET ?)."""
    return (
        f"SELECT {', '.join(table.columns)} FROM {table.name}"
        f" ORDER BY {', '.join(table.key)} LIMIT ? OFFSET ?"
    )


async def table_hash(db: Reader, table: Table, page: int = 5000) -> TableHash:
    """The content hash of one table as `db` holds it now."""
    found = TableHash()
    offset = 0
    while True:
        rows = await db.fetchall(select_all(table), (page, offset))
        found.add(rows)
        if len(rows) < page:
            return found
        offset += page
