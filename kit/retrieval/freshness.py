"""What a build's kept state is checked against, read in one statement per build.

A context build used to ask the database five times whether what it keeps in memory still
holds: the user's `memory_versions` twice (the sandwich's cached part, the shown facts), the
conversations' links, and the word index's three layers. Each statement is a hop to a reader
thread and back, and each hop costs the loop the GIL twice (issue 33, docs/measurements.md).
Here they are one row: the user's versions, the newest message id, and the word index's
layer signatures (`LexicalSearch.fresh_sql`), read together; each part of the build compares
its kept state with its own columns.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kit.memory.versions import MemoryVersion
from kit.store.db import Database


@dataclass(frozen=True)
class Freshness:
    """One moment's view of what changes the kept state."""

    version: MemoryVersion
    newest_message: int  # 0: no messages
    words: tuple[object, ...] = ()  # the values of the word search's `fresh_sql`, in order


async def read_freshness(db: Database, user_id: str, words: Sequence[str] = ()) -> Freshness:
    """The user's versions, the newest message and the word search's signatures: one statement."""
    extra = "".join(f", ({sql})" for sql in words)
    row = await db.fetchone(
        f"SELECT v.facts, v.days, v.notes, (SELECT max(id) FROM messages){extra}"
        " FROM (SELECT 1 AS one) o LEFT JOIN memory_versions v ON v.user_id = ?",
        (user_id,),
    )
    assert row is not None  # one row always: the LEFT JOIN keeps it
    values = tuple(row)
    version = (
        MemoryVersion()
        if values[0] is None
        else MemoryVersion(int(values[0]), int(values[1]), int(values[2]))
    )
    return Freshness(version, int(values[3] or 0), values[4:])
