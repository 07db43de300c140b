"""`kit storage copy`: a whole memory moved from one store to another (SQLite to PostgreSQL
and back), every user at once, ids kept so history, passes and provenance still link.

All or nothing: the rows go in through ONE transaction on the target, and before it commits
every table is read back and its row count and content hash compared with the source's
(tables.py: the same hash on both engines for the same rows). Any failure — a row the
target refuses, a server gone, a mismatch — rolls it all back: the target keeps its schema
and no rows. The source is read inside one transaction too (its writer lock held), so the
copy is one consistent moment.

A target that already holds rows is refused: a copy never merges two memories (kit import
restores one owner's export into an empty memory; merging is nobody's job here).

Derived state: vectors are copied (the same model ids, so nothing is re-embedded); full-text
indexes are rebuilt by the target's own triggers as each row arrives (FTS5 on SQLite,
tsvector on PostgreSQL). PostgreSQL's id sequences are moved past the copied ids, so the
next row never collides with one.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from kit.errors import InputError, KitError, StorageError
from kit.portability.tables import (
    TRIGGER_KEPT,
    Table,
    TableHash,
    load_order,
    select_all,
    table_hash,
    tables,
)
from kit.store.db import Database, Row, Transaction

log = logging.getLogger(__name__)

PAGE = 2000  # rows read from the source and written to the target at a time

LEXICAL = {"sqlite": "FTS5", "postgres": "tsvector with GIN"}


@dataclass(frozen=True)
class CopiedTable:
    name: str
    rows: int
    digest: str  # sha256 of its rows (tables.py), equal on source and target


@dataclass(frozen=True)
class CopyResult:
    source: str
    target: str
    tables: tuple[CopiedTable, ...]
    vectors: dict[str, int]  # model id -> vectors copied
    lexical: str  # the target's full-text index, rebuilt from the rows

    @property
    def rows(self) -> int:
        return sum(t.rows for t in self.tables)


async def copy_memory(source: Database, target: Database) -> CopyResult:
    """Copy every table of `source` (migrated) into `target` (migrated, empty), verified."""
    if source.engine == target.engine and source.where == target.where:
        raise InputError(f"{target.where} is where memory lives now; name another store")
    step = "reading the schemas"
    try:
        async with source.transaction() as read, target.transaction() as write:
            theirs = await tables(read, source.engine)
            ours = await tables(write, target.engine)
            _same_schema(theirs, ours, source.where, target.where)
            await _refuse_non_empty(write, ours, target.where)
            copied: list[tuple[Table, TableHash]] = []
            for table in load_order(ours):
                step = f"copying {table.name}"
                copied.append((table, await _copy_table(read, write, table, target.engine)))
            step = "verifying"
            done = await _verify(write, copied, target.where)
            if target.engine == "postgres":
                step = "moving id sequences on"
                await _advance_sequences(write, ours)
            vectors = await _vectors(write, ours)
    except KitError:
        raise
    except Exception as exc:
        log.debug("storage copy failed while %s", step, exc_info=True)
        raise StorageError(
            f"copying into {target.where} failed while {step} ({type(exc).__name__}); nothing "
            "was kept there (the copy is one transaction) and the source is unchanged"
        ) from exc
    return CopyResult(
        source=source.where,
        target=target.where,
        tables=done,
        vectors=vectors,
        lexical=LEXICAL[target.engine],
    )


def _same_schema(
    theirs: dict[str, Table], ours: dict[str, Table], source: str, target: str
) -> None:
    """Both stores at the same migration: the same tables and columns (the schema test holds
    the two engines' migrations equal; this catches a store one Kit version behind)."""
    differ = sorted(
        n
        for n in set(theirs) | set(ours)
        if n not in theirs or n not in ours or theirs[n].columns != ours[n].columns
    )
    if differ:
        raise StorageError(
            f"{source} and {target} do not hold the same tables ({', '.join(differ[:5])} "
            "differ); open each with this version of Kit first (it migrates them), then copy"
        )


async def _refuse_non_empty(tx: Transaction, found: dict[str, Table], where: str) -> None:
    holding = [n for n in sorted(found) if await tx.fetchone(f"SELECT 1 FROM {n} LIMIT 1")]
    if holding:
        raise InputError(
            f"{where} already holds a memory (rows in {', '.join(holding[:4])}"
            f"{', ...' if len(holding) > 4 else ''}); kit storage copy fills only an empty "
            "store: point --to at a new database (createdb) or a new file"
        )


async def _copy_table(
    read: Transaction, write: Transaction, table: Table, engine: str
) -> TableHash:
    """Every row of one table, a page at a time; a column pointing at the table's own rows
    (facts.replaced_by points at a later fact) is filled in once all its rows are there."""
    if table.name in TRIGGER_KEPT:
        await write.execute(f"DELETE FROM {table.name}")  # what the triggers wrote meanwhile
    columns = table.columns
    insert = (
        f"INSERT INTO {table.name} ({', '.join(columns)})"
        f" VALUES ({', '.join('?' for _ in columns)})"
    )
    vector_at = [columns.index(c) for c in table.vectors]
    later_at = [columns.index(c) for c in table.self_refs]
    key_at = [columns.index(c) for c in table.key]
    links: list[tuple[Any, ...]] = []
    source = TableHash()
    offset = 0
    while True:
        rows = await read.fetchall(select_all(table), (PAGE, offset))
        source.add(rows)
        batch = [_converted(r, vector_at, later_at, engine) for r in rows]
        await write.executemany(insert, batch)
        for row in rows:
            if any(row[i] is not None for i in later_at):
                links.append((*(row[i] for i in later_at), *(row[i] for i in key_at)))
        if len(rows) < PAGE:
            break
        offset += PAGE
    if links:
        sets = ", ".join(f"{table.self_refs[n]} = ?" for n in range(len(later_at)))
        where = " AND ".join(f"{c} = ?" for c in table.key)
        await write.executemany(f"UPDATE {table.name} SET {sets} WHERE {where}", links)
    return source


def _converted(
    row: Row, vector_at: Sequence[int], later_at: Sequence[int], engine: str
) -> tuple[Any, ...]:
    values = list(row)
    for i in vector_at:
        values[i] = _vector_for(values[i], engine)
    for i in later_at:
        values[i] = None
    return tuple(values)


def _vector_for(value: Any, engine: str) -> Any:
    """SQLite keeps a vector as float32 bytes; the PostgreSQL adapter takes a numpy array."""
    if value is None:
        return None
    if engine == "postgres":
        if isinstance(value, bytes | bytearray | memoryview):
            return np.frombuffer(bytes(value), dtype="<f4")
        return value
    return np.asarray(value, dtype="<f4").tobytes()


async def _verify(
    write: Transaction, copied: Sequence[tuple[Table, TableHash]], where: str
) -> tuple[CopiedTable, ...]:
    """Each table read back inside the copy's transaction: same row count, same hash."""
    done: list[CopiedTable] = []
    for table, source in copied:
        landed = await table_hash(write, table)
        if (landed.rows, landed.hexdigest()) != (source.rows, source.hexdigest()):
            raise StorageError(
                f"{where}: the copy of {table.name} does not match the source ({landed.rows} "
                f"rows there, {source.rows} here, or their contents differ); nothing was kept "
                "there (the copy is one transaction)"
            )
        done.append(CopiedTable(table.name, source.rows, source.hexdigest()))
    return tuple(done)


async def _advance_sequences(write: Transaction, found: dict[str, Table]) -> None:
    """Each id sequence past the largest copied id (insert triggers do it too; this does not
    depend on them)."""
    for name in sorted(found):
        if "id" not in found[name].columns:
            continue
        await write.execute(
            "SELECT setval(CAST(seq AS regclass), top)"
            " FROM (SELECT pg_get_serial_sequence(?, 'id') AS seq,"
            f" (SELECT max(id) FROM {name}) AS top) s WHERE seq IS NOT NULL AND top IS NOT NULL",
            (name,),
        )


async def _vectors(write: Transaction, found: dict[str, Table]) -> dict[str, int]:
    if "embeddings" not in found:
        return {}
    rows = await write.fetchall(
        "SELECT model_id, COUNT(*) FROM embeddings GROUP BY model_id ORDER BY model_id"
    )
    return {str(r[0]): int(r[1]) for r in rows}
