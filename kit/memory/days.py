"""Short-term memory: one summary per user and day, detailed and condensed."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from kit.clock import Clock, from_iso, to_iso
from kit.memory.hashes import content_hash
from kit.store.db import Database, Transaction


@dataclass(frozen=True)
class Day:
    id: int
    user_id: str
    day: date
    detailed: str
    condensed: str
    message_count: int
    created_at: datetime
    updated_at: datetime
    condensed_at: datetime | None

    @property
    def best(self) -> str:
        """What the context shows: the condensed summary once REM has written it."""
        return self.condensed or self.detailed

    @property
    def gist(self) -> str:
        """A one-line preview for lists."""
        for line in self.best.splitlines():
            line = line.strip().lstrip("-*• ").strip()
            if line:
                return line
        return ""


_COLUMNS = (
    "id, user_id, day, detailed, condensed, message_count, created_at, updated_at, condensed_at"
)


def _day(row: Sequence[Any]) -> Day:
    return Day(
        id=row[0],
        user_id=row[1],
        day=date.fromisoformat(row[2]),
        detailed=row[3],
        condensed=row[4],
        message_count=row[5],
        created_at=from_iso(row[6]),
        updated_at=from_iso(row[7]),
        condensed_at=None if row[8] is None else from_iso(row[8]),
    )


def day_text_hash(detailed: str, condensed: str) -> str:
    return content_hash(condensed or detailed)


class Days:
    def __init__(self, db: Database, clock: Clock) -> None:
        self._db = db
        self._clock = clock

    async def get(self, user_id: str, day: date) -> Day | None:
        row = await self._db.fetchone(
            f"SELECT {_COLUMNS} FROM days WHERE user_id = ? AND day = ?", (user_id, day.isoformat())
        )
        return None if row is None else _day(row)

    async def get_many(self, user_id: str, ids: Sequence[int]) -> list[Day]:
        if not ids:
            return []
        rows = await self._db.fetchall(
            f"SELECT {_COLUMNS} FROM days WHERE user_id = ? AND id IN ({','.join('?' * len(ids))})",
            (user_id, *ids),
        )
        return [_day(r) for r in rows]

    async def recent(self, user_id: str, before: date, count: int) -> list[Day]:
        """The `count` latest summarised days strictly before `before`, oldest first."""
        if count <= 0:
            return []
        rows = await self._db.fetchall(
            f"SELECT {_COLUMNS} FROM days WHERE user_id = ? AND day < ? ORDER BY day DESC LIMIT ?",
            (user_id, before.isoformat(), count),
        )
        return [_day(r) for r in reversed(rows)]

    async def span(self, user_id: str) -> tuple[int, date | None, date | None]:
        """How many days are summarised, and the first and last of them."""
        row = await self._db.fetchone(
            "SELECT COUNT(*), MIN(day), MAX(day) FROM days WHERE user_id = ?", (user_id,)
        )
        if row is None or not row[0]:
            return 0, None, None
        return int(row[0]), date.fromisoformat(row[1]), date.fromisoformat(row[2])

    async def latest_texts(self, user_id: str, count: int) -> list[str]:
        """What the context shows of the `count` latest summarised days, newest first."""
        rows = await self._db.fetchall(
            "SELECT CASE WHEN condensed != '' THEN condensed ELSE detailed END FROM days"
            " WHERE user_id = ? ORDER BY day DESC LIMIT ?",
            (user_id, count),
        )
        return [str(r[0]) for r in rows]

    async def listing(self, user_id: str) -> list[Day]:
        """Every summarised day, newest first."""
        rows = await self._db.fetchall(
            f"SELECT {_COLUMNS} FROM days WHERE user_id = ? ORDER BY day DESC", (user_id,)
        )
        return [_day(r) for r in rows]

    async def put_detailed(
        self,
        user_id: str,
        day: date,
        detailed: str,
        message_count: int,
        tx: Transaction | None = None,
    ) -> None:
        """Write a day's detailed summary; a rewritten day must be condensed again."""
        if tx is None:
            async with self._db.transaction() as own:
                await self.put_detailed(user_id, day, detailed, message_count, own)
            return
        now = to_iso(self._clock.now())
        await tx.execute(
            "INSERT INTO days (user_id, day, detailed, condensed, message_count, created_at,"
            " updated_at, content_hash) VALUES (?, ?, ?, '', ?, ?, ?, ?)"
            " ON CONFLICT (user_id, day) DO UPDATE SET detailed = excluded.detailed,"
            " condensed = '', condensed_at = NULL, message_count = excluded.message_count,"
            " updated_at = excluded.updated_at, content_hash = excluded.content_hash",
            (
                user_id,
                day.isoformat(),
                detailed,
                message_count,
                now,
                now,
                day_text_hash(detailed, ""),
            ),
        )

    async def put_condensed(
        self, user_id: str, day: date, condensed: str, tx: Transaction | None = None
    ) -> None:
        if tx is None:
            async with self._db.transaction() as own:
                await self.put_condensed(user_id, day, condensed, own)
            return
        now = to_iso(self._clock.now())
        row = await tx.fetchone(
            "SELECT detailed FROM days WHERE user_id = ? AND day = ?", (user_id, day.isoformat())
        )
        if row is None:
            raise LookupError(f"no detailed summary for {day} to condense")
        await tx.execute(
            "UPDATE days SET condensed = ?, condensed_at = ?, updated_at = ?, content_hash = ?"
            " WHERE user_id = ? AND day = ?",
            (condensed, now, now, day_text_hash(row[0], condensed), user_id, day.isoformat()),
        )

    async def uncondensed(self, user_id: str) -> list[Day]:
        rows = await self._db.fetchall(
            f"SELECT {_COLUMNS} FROM days WHERE user_id = ? AND condensed = '' AND detailed != ''"
            " ORDER BY day",
            (user_id,),
        )
        return [_day(r) for r in rows]
