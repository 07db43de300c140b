"""Which facts a search may rank, kept in memory per user and facts version.

Vector candidates include facts that are no longer shown (inactive, expired, or unpinned and
unsure: their vectors stay, undo needs them), and such facts must take no rank. Asking the
database about a few hundred candidates each turn was a statement on every turn's critical
path; the answer only changes when a fact does, and `memory_versions.facts` (bumped by
triggers on any change to a fact's flags, by any process) says when. Expiry is by the clock,
so it is checked per turn against the kept expiry times.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

from kit.memory.facts import Facts
from kit.memory.versions import MemoryVersion, MemoryVersions

USERS = 64  # users whose shown facts are kept (many owners share one PostgreSQL process)


@dataclass(frozen=True)
class ShownFacts:
    """One user's shown facts at one facts version."""

    version: int
    ids: frozenset[int]
    expiring: dict[int, datetime] = field(default_factory=dict)  # id -> expires_at

    def live(self, ids: Iterable[int], now: datetime) -> set[int]:
        """Those of `ids` shown at `now`."""
        out = set()
        for item in ids:
            if item in self.ids:
                until = self.expiring.get(item)
                if until is None or until > now:
                    out.add(item)
        return out


class LiveFacts:
    def __init__(self, facts: Facts, versions: MemoryVersions) -> None:
        self._facts = facts
        self._versions = versions
        self._kept: OrderedDict[str, ShownFacts] = OrderedDict()

    async def versions(self, user_id: str) -> MemoryVersion:
        """The user's memory versions now (what `snapshot` is given)."""
        return await self._versions.get(user_id)

    async def snapshot(self, user_id: str, now: MemoryVersion | None = None) -> ShownFacts:
        """The user's shown facts, read again only when a fact changed since (`now`: the
        memory versions just read; None: read them here)."""
        # The version first: a change between the two reads makes the kept set newer than
        # its version says, so it is read again next time (never the other way round).
        version = (now if now is not None else await self._versions.get(user_id)).facts
        kept = self._kept.get(user_id)
        if kept is not None and kept.version == version:
            self._kept.move_to_end(user_id)
            return kept
        rows = await self._facts.shown(user_id)
        kept = ShownFacts(
            version,
            frozenset(i for i, _ in rows),
            {i: until for i, until in rows if until is not None},
        )
        self._kept[user_id] = kept
        self._kept.move_to_end(user_id)
        while len(self._kept) > USERS:
            self._kept.popitem(last=False)
        return kept
