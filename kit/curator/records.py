"""Pass records: one row per curation, REM-review, undo or owner pass, applied or thrown out.

A pass's fact changes point at its row (fact_history.pass_id), so the row is written inside the
same transaction as the changes. Rejections and failures get a row of their own, with the
reason, so `kit facts passes` can say what was refused and why.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from kit.clock import Clock, from_iso, to_iso
from kit.errors import NotFound
from kit.store.db import Database, Transaction

ALL_DROPPED = "every operation was dropped"  # a noop pass's reason when it had operations
_COLUMNS = "id, user_id, kind, category, started_at, finished_at, status, reason, detail_json"


@dataclass(frozen=True)
class PassRecord:
    id: int
    user_id: str
    kind: str
    category: str | None
    started_at: datetime
    finished_at: datetime | None
    status: str  # applied | noop | rejected | failed | undone (kinds undo, owner: applied)
    reason: str
    detail: dict[str, Any]

    @property
    def undoable(self) -> bool:
        """Whether `undo` can take it back: it changed facts and was not undone already."""
        return self.status == "applied" and self.kind != "undo"

    @property
    def change_count(self) -> int:
        """How many of its operations were applied (the rest were dropped by the checks or
        set aside for the owner)."""
        operations = len(self.detail.get("operations", []))
        return operations - len(self.detail.get("dropped", [])) - self.asked_count

    @property
    def asked_count(self) -> int:
        """How many of its operations it set aside as questions for the owner (kit/inbox/)."""
        return len(self.detail.get("asked", []))


def _record(row: Sequence[Any]) -> PassRecord:
    return PassRecord(
        id=row[0],
        user_id=row[1],
        kind=row[2],
        category=row[3],
        started_at=from_iso(row[4]),
        finished_at=None if row[5] is None else from_iso(row[5]),
        status=row[6],
        reason=row[7],
        detail=json.loads(row[8]),
    )


class PassLog:
    def __init__(self, db: Database, clock: Clock) -> None:
        self._db = db
        self._clock = clock

    async def add(
        self,
        tx: Transaction,
        *,
        user_id: str,
        kind: str,
        category: str | None,
        status: str,
        started_at: datetime | None = None,
        reason: str = "",
        detail: dict[str, Any] | None = None,
    ) -> int:
        """Write a finished pass inside the caller's transaction; returns its id."""
        now = self._clock.now()
        return await tx.insert(
            "INSERT INTO passes (user_id, kind, category, started_at, finished_at, status,"
            " reason, detail_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                user_id,
                kind,
                category,
                to_iso(started_at or now),
                to_iso(now),
                status,
                reason,
                json.dumps(detail or {}, ensure_ascii=False),
            ),
        )

    async def record(self, **fields: Any) -> int:
        """`add` in a transaction of its own (for rejections and failures)."""
        async with self._db.transaction() as tx:
            return await self.add(tx, **fields)

    async def set_status(self, tx: Transaction, pass_id: int, status: str) -> None:
        await tx.execute("UPDATE passes SET status = ? WHERE id = ?", (status, pass_id))

    async def describe(
        self, tx: Transaction, pass_id: int, *, reason: str, detail: dict[str, Any]
    ) -> None:
        """Set what a pass did once it is known (an owner's add learns its fact id after the
        pass row exists: the fact's history row points at the pass)."""
        await tx.execute(
            "UPDATE passes SET reason = ?, detail_json = ? WHERE id = ?",
            (reason, json.dumps(detail, ensure_ascii=False), pass_id),
        )

    async def get(self, user_id: str, pass_id: int) -> PassRecord:
        row = await self._db.fetchone(
            f"SELECT {_COLUMNS} FROM passes WHERE id = ? AND user_id = ?", (pass_id, user_id)
        )
        if row is None:
            raise NotFound(f"pass {pass_id} does not exist; `kit facts passes` lists them")
        return _record(row)

    async def recent(
        self, user_id: str, *, limit: int = 20, include_noop: bool = False
    ) -> list[PassRecord]:
        """Newest first. Passes that changed nothing are left out unless asked for, but for
        those that dropped every operation (what Kit refused to learn is worth seeing)."""
        where = "" if include_noop else f" AND (status != 'noop' OR reason = '{ALL_DROPPED}')"
        rows = await self._db.fetchall(
            f"SELECT {_COLUMNS} FROM passes WHERE user_id = ?{where} ORDER BY id DESC LIMIT ?",
            (user_id, limit),
        )
        return [_record(r) for r in rows]

    async def finished_between(
        self, user_id: str, since: datetime, until: datetime
    ) -> list[PassRecord]:
        """Passes that finished in (since, until], oldest first (what the digest reports)."""
        rows = await self._db.fetchall(
            f"SELECT {_COLUMNS} FROM passes WHERE user_id = ? AND finished_at > ?"
            " AND finished_at <= ? ORDER BY id",
            (user_id, to_iso(since), to_iso(until)),
        )
        return [_record(r) for r in rows]

    async def undo_of(self, user_id: str, pass_id: int) -> int | None:
        """The undo pass that undid `pass_id`, if any."""
        value = await self._db.scalar(
            "SELECT id FROM passes WHERE user_id = ? AND kind = 'undo'"
            " AND CAST(json_extract(detail_json, '$.undoes') AS BIGINT) = ? ORDER BY id LIMIT 1",
            (user_id, pass_id),
        )
        return None if value is None else int(value)
