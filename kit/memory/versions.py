"""Version counters of what the cached parts of the context are made of.

`memory_versions` holds, per user, a counter for facts, one for day summaries and one for
notes; triggers (m014_context, m017_notes) bump them in the same transaction as any change to
a fact's content or flags, to a day summary or to the notes in use, whoever writes it. A cache
keyed by them is right in every process: the daemon sees a CLI's `kit facts` edit on its next
turn. A fourth, `used` (m036), counts changes to facts' access stats.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kit.store.db import Database


@dataclass(frozen=True)
class MemoryVersion:
    facts: int = 0
    days: int = 0
    notes: int = 0
    # Facts' access stats (m036, bumped by a turn's `touch`): the search's kept fact rows
    # follow it (kit/retrieval/rows.py). Not part of the version's identity: the cached
    # parts of the context stay as built while memory is only used, not changed.
    used: int = field(default=0, compare=False)


class MemoryVersions:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def get(self, user_id: str) -> MemoryVersion:
        row = await self._db.fetchone(
            "SELECT facts, days, notes, used FROM memory_versions WHERE user_id = ?", (user_id,)
        )
        if row is None:
            return MemoryVersion()
        return MemoryVersion(int(row[0]), int(row[1]), int(row[2]), int(row[3]))
