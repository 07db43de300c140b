"""Version counters of what the cached parts of the context are made of.

`memory_versions` holds, per user, a counter for facts and one for day summaries; triggers
(m014_context) bump them in the same transaction as any change to a fact's content or flags
or to a day summary, whoever writes it. A cache keyed by them is right in every process: the
daemon sees a CLI's `kit facts` edit on its next turn.
"""

from __future__ import annotations

from dataclasses import dataclass

from kit.memory.db import Database


@dataclass(frozen=True)
class MemoryVersion:
    facts: int = 0
    days: int = 0


class MemoryVersions:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def get(self, user_id: str) -> MemoryVersion:
        row = await self._db.fetchone(
            "SELECT facts, days FROM memory_versions WHERE user_id = ?", (user_id,)
        )
        return MemoryVersion() if row is None else MemoryVersion(int(row[0]), int(row[1]))
