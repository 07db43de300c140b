"""Reading fact history across facts: the changes a set of passes made, and the changes of one
kind made in a stretch of time (what the daily digest reports). The rows are written by
kit/memory/fact_writer.py (`FactWriter`); this module only reads them."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from kit.clock import to_iso
from kit.memory.fact_rows import HISTORY_COLUMNS, HistoryEntry, history_entry
from kit.store.db import Database


class FactHistory:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def of_passes(self, user_id: str, pass_ids: Sequence[int]) -> list[HistoryEntry]:
        """Every change the passes made, in the order they were made."""
        if not pass_ids:
            return []
        marks = ",".join("?" * len(pass_ids))
        rows = await self._db.fetchall(
            f"SELECT {HISTORY_COLUMNS} FROM fact_history WHERE pass_id IN ({marks})"
            " AND user_id = ? ORDER BY id",
            (*pass_ids, user_id),
        )
        return [history_entry(r) for r in rows]

    async def outside_passes(
        self, user_id: str, since: datetime, until: datetime, *, actor: str, operation: str
    ) -> list[HistoryEntry]:
        """Changes by `actor` of kind `operation` in (since, until] that belong to no pass
        (REM's expiries, `remember`), oldest first."""
        rows = await self._db.fetchall(
            f"SELECT {HISTORY_COLUMNS} FROM fact_history WHERE user_id = ? AND pass_id IS NULL"
            " AND actor = ? AND operation = ? AND at > ? AND at <= ? ORDER BY id",
            (user_id, actor, operation, to_iso(since), to_iso(until)),
        )
        return [history_entry(r) for r in rows]
