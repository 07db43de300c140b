"""The rows of a search's candidates, kept in memory by id (issue 33, round 8).

Every search loads the rows of a few hundred candidates to score them
(kit/retrieval/candidates.py): at 100k items ~50 days and ~45 facts a turn (and the ~15
messages it shows: they are scored from columns, kit/retrieval/message_scores.py), a
statement per layer and a few hundred rows made objects, most of them the same rows as the turn
before (a topic comes back). Kept here, per user and layer, valid while what says the layer
changed has not moved:
- messages never change once written; they are removed only by `kit forget` (which refuses
  to run beside another engine) and `kit restore --replace`, both of which drop what is kept
  here (`MemorySearch.forget_cache`), like the conversations' links and the vector matrices;
- day summaries change in place: kept at a `memory_versions.days` (bumped by triggers in the
  writing transaction, in any process), dropped when it moves;
- facts change in place and by their access stats (a turn's `touch`, the usage boost's
  input): kept at a `memory_versions.facts` and `.used` (m036), dropped when either moves.
  Facts are kept in every state; which are shown is decided per call by `Fact.is_live`, the
  same test the database's `live` makes.
The version is read before the rows: a row that changed between the two is newer than its
version says, and is read again at the next search (never the other way round). An id with no
row of the user's is remembered too (None). Each layer keeps at most a bounded number of rows,
the least recently used going first.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable, Sequence
from datetime import datetime
from typing import Generic, TypeVar

from kit.memory.days import Day, Days
from kit.memory.fact_rows import Fact
from kit.memory.facts import Facts
from kit.memory.messages import Message, Messages
from kit.memory.versions import MemoryVersion

# Users whose rows are kept, the most recently searched (many owners share one PostgreSQL
# process; the links and shown facts, a few bytes a row, keep 64).
USERS = 8
# Rows kept per user and layer. As objects on the bench's archive a message is ~0.45 KB, a
# fact ~0.5 KB, a day summary ~1.6 KB: ~9.5 MB a user when all three are full (more where
# messages are longer). 120 different questions at 100k items asked for ~17,500 messages.
MESSAGES = 8192
FACTS = 4096
DAYS = 2048

R = TypeVar("R", Message, Day, Fact)


class _Layer(Generic[R]):
    """One user's kept rows of one layer, at one version."""

    def __init__(self, version: Hashable, limit: int) -> None:
        self.version = version
        self.limit = limit
        self.rows: OrderedDict[int, R | None] = OrderedDict()

    async def get(
        self, user_id: str, ids: Sequence[int], read: Callable[[str, list[int]], Awaitable[list[R]]]
    ) -> list[R]:
        """The rows of `ids` (those that exist), reading only the ones not kept."""
        rows = self.rows
        # What is kept now: another search may push rows out while this one reads.
        have = {i: rows[i] for i in ids if i in rows}
        missing = [i for i in ids if i not in have]
        if missing:
            found = {row.id: row for row in await read(user_id, missing)}
            for item in missing:
                have[item] = rows[item] = found.get(item)
        out = []
        for item in ids:
            if item in rows:
                rows.move_to_end(item)
            row = have[item]
            if row is not None:
                out.append(row)
        while len(rows) > self.limit:
            rows.popitem(last=False)
        return out


class KeptRows:
    def __init__(self, facts: Facts, days: Days, messages: Messages) -> None:
        self._facts = facts
        self._days = days
        self._messages = messages
        self._kept_messages: OrderedDict[str, _Layer[Message]] = OrderedDict()
        self._kept_days: OrderedDict[str, _Layer[Day]] = OrderedDict()
        self._kept_facts: OrderedDict[str, _Layer[Fact]] = OrderedDict()

    async def messages(self, user_id: str, ids: Sequence[int]) -> list[Message]:
        """The user's messages among `ids`, in id order."""
        layer = _layer(self._kept_messages, user_id, None, MESSAGES)
        return sorted(await layer.get(user_id, ids, self._messages.get_many), key=_by_id)

    async def days(self, user_id: str, ids: Sequence[int], version: MemoryVersion) -> list[Day]:
        """The user's day summaries among `ids`, in date order (as the database's index
        returns them), at the memory `version` (read before this call)."""
        layer = _layer(self._kept_days, user_id, version.days, DAYS)
        return sorted(await layer.get(user_id, ids, self._days.get_many), key=_by_day)

    async def live_facts(
        self, user_id: str, ids: Sequence[int], now: datetime, version: MemoryVersion
    ) -> list[Fact]:
        """`Facts.live(user_id, now, ids)`: the user's facts among `ids` shown at `now`, in
        id order, at the memory `version` (read before this call)."""
        layer = _layer(self._kept_facts, user_id, (version.facts, version.used), FACTS)
        facts = await layer.get(user_id, ids, self._facts.by_ids)
        return sorted((f for f in facts if f.is_live(now)), key=_by_id)

    def forget(self, user_id: str | None = None) -> None:
        """Drop what is kept of a user's rows (all users': None), after rows were removed."""
        for kept in (self._kept_messages, self._kept_days, self._kept_facts):
            if user_id is None:
                kept.clear()
            else:
                kept.pop(user_id, None)


def _layer(
    kept: OrderedDict[str, _Layer[R]], user_id: str, version: Hashable, limit: int
) -> _Layer[R]:
    """The user's layer in `kept` at `version` (a new, empty one when it moved)."""
    layer = kept.get(user_id)
    if layer is None or layer.version != version:
        layer = kept[user_id] = _Layer(version, limit)
    kept.move_to_end(user_id)
    while len(kept) > USERS:
        kept.popitem(last=False)
    return layer


def _by_id(row: Message | Fact) -> int:
    return row.id


def _by_day(day: Day) -> tuple[object, int]:
    return (day.day, day.id)
