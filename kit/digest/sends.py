"""Which digests were sent: one row per memory and digest day for the scheduled digest (at
most one: a partial unique index), and a row for each one the owner sent by hand.

The scheduled one is claimed before anything is sent and marked when it went out, so a
restart or a second worker never sends it twice: a claim left 'sending' by a worker that died
mid-send is not taken again (the owner may have it already; a lost digest is better than a
doubled one). A send that failed is taken again, at most MAX_ATTEMPTS times in all.
"""

from __future__ import annotations

from datetime import date

from kit.clock import Clock, to_iso
from kit.store.db import Database

MAX_ATTEMPTS = 3


class DigestSends:
    def __init__(self, db: Database, clock: Clock) -> None:
        self._db = db
        self._clock = clock

    async def settled(self, day: date) -> set[str]:
        """The memories whose scheduled digest for `day` needs nothing more: sent, empty,
        being sent, or failed too often."""
        rows = await self._db.fetchall(
            "SELECT user_id FROM digest_sends WHERE day = ? AND scheduled = 1"
            " AND (status != 'failed' OR attempts >= ?)",
            (day.isoformat(), MAX_ATTEMPTS),
        )
        return {str(r[0]) for r in rows}

    async def claim(self, user_id: str, day: date) -> bool:
        """Take `user_id`'s scheduled digest for `day` for sending: True for one caller only
        (again after a failed send, up to MAX_ATTEMPTS)."""
        now = to_iso(self._clock.now())
        async with self._db.transaction() as tx:
            if await tx.execute_rowcount(
                "INSERT INTO digest_sends (user_id, day, scheduled, status, started_at)"
                " VALUES (?, ?, 1, 'sending', ?) ON CONFLICT DO NOTHING",
                (user_id, day.isoformat(), now),
            ):
                return True
            retaken = await tx.execute_rowcount(
                "UPDATE digest_sends SET status = 'sending', attempts = attempts + 1,"
                " started_at = ?, detail = '' WHERE user_id = ? AND day = ? AND scheduled = 1"
                " AND status = 'failed' AND attempts < ?",
                (now, user_id, day.isoformat(), MAX_ATTEMPTS),
            )
        return retaken == 1

    async def empty(self, user_id: str, day: date) -> None:
        """Nothing changed that day: the scheduled digest is settled without a message."""
        now = to_iso(self._clock.now())
        async with self._db.transaction() as tx:
            await tx.execute(
                "INSERT INTO digest_sends (user_id, day, scheduled, status, started_at,"
                " finished_at) VALUES (?, ?, 1, 'empty', ?, ?) ON CONFLICT DO NOTHING",
                (user_id, day.isoformat(), now, now),
            )

    async def finish(
        self,
        user_id: str,
        day: date,
        *,
        sent: bool,
        messages: int = 0,
        chats: int = 0,
        detail: str = "",
    ) -> None:
        """Mark the claimed scheduled digest sent (or failed, with why)."""
        async with self._db.transaction() as tx:
            await tx.execute(
                "UPDATE digest_sends SET status = ?, finished_at = ?, messages = ?, chats = ?,"
                " detail = ? WHERE user_id = ? AND day = ? AND scheduled = 1",
                (
                    "sent" if sent else "failed",
                    to_iso(self._clock.now()),
                    messages,
                    chats,
                    detail,
                    user_id,
                    day.isoformat(),
                ),
            )

    async def by_hand(self, user_id: str, day: date, *, messages: int, chats: int) -> None:
        """Record a digest the owner sent with `kit digest --send`."""
        now = to_iso(self._clock.now())
        async with self._db.transaction() as tx:
            await tx.execute(
                "INSERT INTO digest_sends (user_id, day, scheduled, status, started_at,"
                " finished_at, messages, chats) VALUES (?, ?, 0, 'sent', ?, ?, ?, ?)",
                (user_id, day.isoformat(), now, now, messages, chats),
            )

    async def status(self, user_id: str, day: date) -> str | None:
        """The scheduled digest's status for that memory and day, if it has a row."""
        value = await self._db.scalar(
            "SELECT status FROM digest_sends WHERE user_id = ? AND day = ? AND scheduled = 1",
            (user_id, day.isoformat()),
        )
        return None if value is None else str(value)
