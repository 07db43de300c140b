"""Where a channel's reading of its updates got to (Matrix's sync token), kept in the database
so a restart, or another worker taking the channel over, goes on from there: what arrived
while Kit was down is answered, and what was answered is not read again (each event is also
claimed once: kit/jobs/leases.py `claim_event`)."""

from __future__ import annotations

from kit.clock import Clock, to_iso
from kit.store.db import Database


class ChannelCursors:
    def __init__(self, db: Database, clock: Clock) -> None:
        self._db = db
        self._clock = clock

    async def get(self, channel: str) -> str | None:
        row = await self._db.fetchone(
            "SELECT cursor FROM channel_cursors WHERE channel = ?", (channel,)
        )
        return None if row is None else str(row[0])

    async def put(self, channel: str, cursor: str) -> None:
        async with self._db.transaction() as tx:
            await tx.execute(
                "INSERT INTO channel_cursors (channel, cursor, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (channel) DO UPDATE SET cursor = excluded.cursor,"
                " updated_at = excluded.updated_at",
                (channel, cursor, to_iso(self._clock.now())),
            )
