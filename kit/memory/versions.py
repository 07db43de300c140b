"""Version counters of what the cached parts of the context are made of.

`memory_versions` holds, per user, a counter for facts, one for day summaries and one for
notes; triggers (m014_context, m017_notes) bump them in the same transaction as any change to
a fact's content or flags, to a day summary or to the notes in use, whoever writes it. A cache
keyed by them is right in every process: the daemon sees a CLI's `kit facts` edit on its next
turn.
"""

from __future__ import annotations

from dataclasses import dataclass

from kit.store.db import Database


@dataclass(frozen=True)
class MemoryVersion:
    facts: int = 0
    days: int = 0
    notes: int = 0


class MemoryVersions:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def get(self, user_id: str) -> MemoryVersion:
        row = await self._db.fetchone(
            "SELECT facts, days, notes FROM memory_versions WHERE user_id = ?", (user_id,)
        )
        if row is None:
            return MemoryVersion()
        return MemoryVersion(int(row[0]), int(row[1]), int(row[2]))
