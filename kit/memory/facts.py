"""Long-term facts and their history. Every change to a fact writes a history row.

`Facts` reads them and offers single-change conveniences that open their own transaction; the
changes themselves, with their history rows, are `FactWriter`'s (kit/memory/fact_writer.py),
which works inside a caller's transaction so a curation pass lands whole or not at all.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime
from typing import Any

from kit.clock import Clock, from_iso, to_iso
from kit.errors import NotFound
from kit.memory.fact_rows import (
    FACT_COLUMNS,
    HISTORY_COLUMNS,
    MIN_SHOWN_CONFIDENCE,
    Fact,
    HistoryEntry,
    check_category,
    fact_from_row,
    history_entry,
)
from kit.memory.fact_writer import LIVE_SQL, FactWriter, Provenance
from kit.memory.same_fact import known_as, probe
from kit.store.db import NO_INDEX, Database, Transaction


class Facts:
    def __init__(self, db: Database, clock: Clock) -> None:
        self._db = db
        self._clock = clock

    def writer(self, tx: Transaction, user_id: str) -> FactWriter:
        return FactWriter(tx, user_id, self._clock.now())

    async def add(
        self, user_id: str, *, category: str, content: str, provenance: Provenance, **fields: Any
    ) -> Fact:
        async with self._db.transaction() as tx:
            return await self.writer(tx, user_id).insert(
                category=category, content=content, provenance=provenance, **fields
            )

    async def add_unless_known(
        self, user_id: str, *, category: str, content: str, provenance: Provenance, **fields: Any
    ) -> tuple[Fact, bool]:
        """`remember`: the live fact of any category that already says `content`
        (kit/memory/same_fact.py), or a new one. (fact, whether it was added)."""
        async with self._db.transaction() as tx:
            writer = self.writer(tx, user_id)
            word = probe(content)
            alike = await writer.live(None if word is None else [word])
            known = known_as(str(fields.get("subject") or ""), content, alike)
            if known is not None:
                return known, False
            fact = await writer.insert(
                category=category, content=content, provenance=provenance, **fields
            )
            return fact, True

    async def deactivate(self, user_id: str, fact_id: int, provenance: Provenance) -> Fact:
        async with self._db.transaction() as tx:
            return await self.writer(tx, user_id).deactivate(fact_id, provenance=provenance)

    async def update(
        self, user_id: str, fact_id: int, provenance: Provenance, **fields: Any
    ) -> Fact:
        async with self._db.transaction() as tx:
            return await self.writer(tx, user_id).update(fact_id, provenance=provenance, **fields)

    async def get(self, user_id: str, fact_id: int) -> Fact:
        row = await self._db.fetchone(
            f"SELECT {FACT_COLUMNS} FROM facts WHERE id = ? AND user_id = ?", (fact_id, user_id)
        )
        if row is None:
            raise NotFound(f"fact {fact_id} does not exist; `kit facts` lists the ids")
        return fact_from_row(row)

    async def listing(
        self, user_id: str, *, category: str | None = None, include_inactive: bool = False
    ) -> list[Fact]:
        if category is not None:
            check_category(category)
        sql = f"SELECT {FACT_COLUMNS} FROM facts WHERE user_id = ?"
        params: list[Any] = [user_id]
        if category is not None:
            sql += " AND category = ?"
            params.append(category)
        if not include_inactive:
            sql += " AND active = 1"
        rows = await self._db.fetchall(sql + " ORDER BY category, id", params)
        return [fact_from_row(r) for r in rows]

    async def live(
        self,
        user_id: str,
        now: datetime,
        ids: Sequence[int] | None = None,
        *,
        subjects: Collection[str] | None = None,
    ) -> list[Fact]:
        """Facts shown to the model (see `Fact.is_live`); optionally only those among `ids`,
        or only those about one of `subjects` (exactly as stored)."""
        sql = f"SELECT {FACT_COLUMNS} FROM facts WHERE user_id = ? AND {LIVE_SQL}"
        params: list[Any] = [user_id, to_iso(now), MIN_SHOWN_CONFIDENCE]
        if subjects is not None:
            if not subjects:
                return []
            sql += f" AND subject IN ({','.join('?' * len(subjects))})"
            params.extend(sorted(subjects))
        if ids is not None:
            if not ids:
                return []
            # look the ids up by id, not by scanning the user's index range
            sql = sql.replace("WHERE user_id", f"WHERE {NO_INDEX.format('user_id')}", 1)
            sql += f" AND id IN ({','.join('?' * len(ids))})"
            params.extend(ids)
        rows = await self._db.fetchall(sql + " ORDER BY id", params)
        return [fact_from_row(r) for r in rows]

    async def by_ids(self, user_id: str, ids: Sequence[int]) -> list[Fact]:
        """The user's facts among `ids`, shown or not (`Fact.is_live` tells), in id order."""
        if not ids:
            return []
        rows = await self._db.fetchall(
            f"SELECT {FACT_COLUMNS} FROM facts WHERE {NO_INDEX.format('user_id')} = ?"  # by id
            f" AND id IN ({','.join('?' * len(ids))}) ORDER BY id",
            (user_id, *ids),
        )
        return [fact_from_row(r) for r in rows]

    async def shown(self, user_id: str) -> list[tuple[int, datetime | None]]:
        """Every fact shown to the model at some time from now on: active, and pinned or
        confident enough (see `Fact.is_live`), with when it expires. Ids and times only:
        kit/retrieval/liveness.py keeps them per memory version."""
        rows = await self._db.fetchall(
            "SELECT id, expires_at FROM facts WHERE user_id = ? AND active = 1"
            " AND (pinned = 1 OR confidence >= ?)",
            (user_id, MIN_SHOWN_CONFIDENCE),
        )
        return [(int(r[0]), None if r[1] is None else from_iso(r[1])) for r in rows]

    async def live_ids(self, user_id: str, now: datetime, ids: Sequence[int]) -> set[int]:
        """Which of `ids` are live facts, by the database: what a search's kept shown facts
        (kit/retrieval/liveness.py) must answer, and are tested against."""
        if not ids:
            return set()
        rows = await self._db.fetchall(
            f"SELECT id FROM facts WHERE {NO_INDEX.format('user_id')} = ? AND {LIVE_SQL}"  # by id
            f" AND id IN ({','.join('?' * len(ids))})",
            [user_id, to_iso(now), MIN_SHOWN_CONFIDENCE, *ids],
        )
        return {int(r[0]) for r in rows}

    async def core(self, user_id: str, now: datetime, limit: int | None = None) -> list[Fact]:
        """Candidates for the always-present core: the owner's own facts (category person)
        and pinned facts, in the order the core keeps them: pinned first, then by confidence,
        use and recency (the partial index facts_core reads them in that order)."""
        rows = await self._db.fetchall(
            f"SELECT {FACT_COLUMNS} FROM facts WHERE user_id = ? AND {LIVE_SQL}"
            " AND (category = 'person' OR pinned = 1)"
            " ORDER BY pinned DESC, confidence DESC, access_count DESC, updated_at DESC, id"
            + ("" if limit is None else f" LIMIT {int(limit)}"),
            (user_id, to_iso(now), MIN_SHOWN_CONFIDENCE),
        )
        return [fact_from_row(r) for r in rows]

    async def subjects(self, user_id: str) -> list[tuple[str, str, int]]:
        """(category, subject, how many active facts) for every subject the user's active
        facts name: what the memory index is made of."""
        rows = await self._db.fetchall(
            "SELECT category, subject, COUNT(*) FROM facts WHERE user_id = ? AND active = 1"
            " AND (pinned = 1 OR confidence >= ?) AND subject != '' GROUP BY category, subject",
            (user_id, MIN_SHOWN_CONFIDENCE),
        )
        return [(str(r[0]), str(r[1]), int(r[2])) for r in rows]

    async def touch(self, user_id: str, ids: Sequence[int], now: datetime) -> None:
        """Bump access stats of facts that were put in front of the model (not a content change)."""
        if not ids:
            return
        async with self._db.transaction() as tx:
            await tx.execute(
                "UPDATE facts SET access_count = access_count + 1, last_accessed_at = ?"
                f" WHERE user_id = ? AND id IN ({','.join('?' * len(ids))})",
                (to_iso(now), user_id, *ids),
            )

    async def history(self, user_id: str, fact_id: int) -> list[HistoryEntry]:
        await self.get(user_id, fact_id)
        rows = await self._db.fetchall(
            f"SELECT {HISTORY_COLUMNS} FROM fact_history WHERE user_id = ? AND fact_id = ?"
            " ORDER BY id",
            (user_id, fact_id),
        )
        return [history_entry(r) for r in rows]
