"""The derived places `kit forget --verify` looks at (the others: verify.py): search
indexes, vector rows, saved vector graphs and the vectors this process holds in memory, and
`--repair`, which erases what is left there.

None of them holds text to compare, so each is checked by the ids a receipt lists. A derived
entry of an erased row is a leftover when its row is gone, or when it was made from what the
row said before the forget (an index entry holding other words than the row now, a vector
keyed to another content hash); an entry of a row that is back is counted with the row
(messages), not here. A row id can be taken again by a new row (SQLite gives the highest
free id): its entries, made from the new row, are not leftovers.

Derived state is rebuilt from rows at any time, so repairing it loses nothing: stale index
entries are written again from their rows (SQLite rebuilds the FTS5 index), stale vector rows
deleted (backfill embeds the rows as they are now), saved graphs deleted (rebuilt).
"""

from __future__ import annotations

import asyncio
import bisect
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from kit.forget.findings import GRAPHS, INDEX, MEMORY, VECTORS, Leftover, leftover
from kit.forget.index_audit import IndexAudit
from kit.forget.receipt import Receipt
from kit.retrieval.kinds import PASSAGES, Kind
from kit.retrieval.vectors import VectorStore
from kit.store.db import Database

_BATCH = 1000
# Where each layer's rows live.
_TABLES: dict[Kind, str] = {
    "message": "messages",
    "fact": "facts",
    "day": "days",
    "note": "note_chunks",
}


@dataclass
class Stale:
    """Every derived leftover found, whole (a Leftover lists only the first ids)."""

    index: dict[str, set[int]] = field(default_factory=dict)  # table -> row ids
    vectors: dict[Kind, set[int]] = field(default_factory=dict)
    graphs: list[tuple[Path, set[int]]] = field(default_factory=list)
    unreadable: list[Path] = field(default_factory=list)
    held: set[int] = field(default_factory=set)

    def leftovers(self) -> list[Leftover | None]:
        found = [
            leftover(INDEX, f"{table} entries holding words of erased rows", ids)
            for table, ids in self.index.items()
        ]
        stale_vectors = [i for ids in self.vectors.values() for i in ids]
        found.append(
            leftover(VECTORS, "vectors of erased rows (made from what they said)", stale_vectors)
        )
        found += [
            leftover(GRAPHS, f"vectors of erased rows in {path.name}", sorted(ids))
            for path, ids in self.graphs
        ]
        if self.unreadable:
            found.append(
                Leftover(GRAPHS, "saved graph files that cannot be read", len(self.unreadable))
            )
        found.append(leftover(MEMORY, "vectors of erased rows loaded (restart Kit)", self.held))
        return found


class Derived:
    def __init__(
        self,
        db: Database,
        audit: IndexAudit,
        vectors: VectorStore | None,
        user_id: str,
        receipt: Receipt,
        back: set[int],
    ) -> None:
        self._db = db
        self._audit = audit
        self._vectors = vectors
        self._user_id = user_id
        self._receipt = receipt
        self._back = back  # erased messages found back: counted as messages, not again here
        ids = receipt.ids
        self._erased: dict[Kind, tuple[int, ...]] = {
            "message": ids.messages,
            "fact": ids.facts,
            "day": ids.days,
            "note": ids.note_sections,
        }

    async def find(self) -> Stale:
        stale = Stale()
        for kind, table in _TABLES.items():
            wanted = set(self._erased[kind])
            if kind == "message":
                wanted = (wanted - self._back) | await self._next_messages()
            stale.index[table] = await self._audit.stale(table, wanted) if wanted else set()
            stale.vectors[kind] = await self._vector_rows(kind, table)
        if self._vectors is not None:
            gone: dict[str, set[int]] = {kind: await self._gone(kind) for kind in _TABLES}
            for layer, path in self._vectors.saved(self._user_id):
                keys = await asyncio.to_thread(_saved_keys, path)
                if keys is None:
                    stale.unreadable.append(path)
                elif layer == PASSAGES:  # an erased message's passages are gone with it
                    if missing := await self._missing_passages(keys):
                        stale.graphs.append((path, missing))
                elif gone[layer] & keys:
                    stale.graphs.append((path, gone[layer] & keys))
            for kind in _TABLES:
                stale.held |= self._vectors.held(self._user_id, kind) & gone[kind]
            held = self._vectors.held(self._user_id, PASSAGES)
            stale.held |= await self._missing_passages(held)
        return stale

    async def repair(self, stale: Stale) -> None:
        """Erase the derived leftovers `find` found, in one erasing transaction; then the
        saved graphs and loaded vectors of the user (rebuilt from the rows)."""
        async with self._db.transaction(erasing=True) as tx:
            for table, ids in stale.index.items():
                if ids:
                    await self._audit.repair(tx, table, ids)
            for kind, ids in stale.vectors.items():
                for chunk in _chunks(sorted(ids)):
                    await tx.execute(
                        "DELETE FROM embeddings WHERE user_id = ? AND kind = ?"
                        f" AND item_id IN ({_marks(chunk)})",
                        (self._user_id, kind, *chunk),
                    )
        if self._vectors is not None and (stale.graphs or stale.unreadable or stale.held):
            self._vectors.forget_cache(self._user_id, saved=True)

    async def _next_messages(self) -> set[int]:
        """The message after each erased one in its conversation: its index entry holds the
        words of the one before it (a reply is searched with its question's words)."""
        erased = sorted(self._erased["message"])
        following: set[int] = set()
        for conversation_id in self._receipt.ids.conversations:
            ids = [
                int(r[0])
                for r in await self._db.fetchall(
                    "SELECT id FROM messages WHERE conversation_id = ? ORDER BY id",
                    (conversation_id,),
                )
            ]
            for erased_id in erased:
                at = bisect.bisect_right(ids, erased_id)
                if at < len(ids):
                    following.add(ids[at])
        return following

    async def _vector_rows(self, kind: Kind, table: str) -> set[int]:
        ids = [i for i in self._erased[kind] if kind != "message" or i not in self._back]
        stale: set[int] = set()
        for chunk in _chunks(ids):
            rows = await self._db.fetchall(
                f"SELECT e.item_id FROM embeddings e LEFT JOIN {table} s ON s.id = e.item_id"
                f" WHERE e.user_id = ? AND e.kind = ? AND e.item_id IN ({_marks(chunk)})"
                " AND (s.id IS NULL OR s.content_hash != e.content_hash)",
                (self._user_id, kind, *chunk),
            )
            stale |= {int(r[0]) for r in rows}
        return stale

    async def _missing_passages(self, ids: frozenset[int]) -> set[int]:
        """Passages (kit/retrieval/passage_rows.py) of these ids that no longer exist: their
        message was erased (the receipt lists no passage: they are derived, and went with it)."""
        present: set[int] = set()
        for chunk in _chunks(sorted(ids)):
            sql = f"SELECT id FROM message_passages WHERE id IN ({_marks(chunk)})"
            present |= {int(r[0]) for r in await self._db.fetchall(sql, chunk)}
        return set(ids) - present

    async def _gone(self, kind: Kind) -> set[int]:
        """Erased rows of `kind` no vector may be held for now: those that do not exist (a
        reused id's vectors are the new row's); for facts, which keep their row blanked, those
        with no vector row (backfill may embed the blank, and then its vector is not theirs)."""
        erased = self._erased[kind]
        if kind == "fact":
            sql = "SELECT item_id FROM embeddings WHERE kind = 'fact' AND item_id IN ({})"
        else:
            sql = f"SELECT id FROM {_TABLES[kind]} WHERE id IN ({{}})"
        present: set[int] = set()
        for chunk in _chunks(erased):
            present |= {
                int(r[0]) for r in await self._db.fetchall(sql.format(_marks(chunk)), chunk)
            }
        return set(erased) - present


def _saved_keys(path: Path) -> frozenset[int] | None:
    from kit.retrieval.ann import saved_keys  # usearch: only where a graph was saved

    return saved_keys(path)


def _chunks(ids: Sequence[int]) -> list[list[int]]:
    items = list(ids)
    return [items[i : i + _BATCH] for i in range(0, len(items), _BATCH)]


def _marks(ids: Sequence[int]) -> str:
    return ",".join("?" * len(ids))
