"""Which message comes just before and just after each one in its conversation, kept in
memory per user.

A message scores a share of its neighbours' relevance (kit/retrieval/search.py), so every search
asked the database for the neighbours of a few hundred candidates, a statement on the
critical path of every turn. Messages are only ever appended (in id order) and removed by
`kit forget`, so each user's messages are kept here as arrays (id, time, the previous and
next message of its conversation; and what a search scores it by,
kit/retrieval/message_columns.py), looked up for all candidates at once with numpy, and each
search first reads just the messages added since (by id), and the last few before them
again: one that committed late (PostgreSQL) makes the user's arrays be read anew. `forget`
drops a user's arrays; like the vector matrices, rows another process removes linger until
restart (a removed message is shown by nobody: its row is not found).

Same answer as `Messages.neighbours`: the nearest message before / after in the same
conversation written at or before `now`, and none when it is further away than `within`; and
the same speakers as `Messages.speakers`.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Sequence
from datetime import date, datetime, timedelta

import numpy as np
import numpy.typing as npt

from kit.clock import from_iso
from kit.retrieval.message_columns import MessageColumns
from kit.store.db import NO_INDEX, Database

# A message as read: id, conversation id, time, speaker, role, text, day, the days its text
# names (m038) and whether it places something in time (m039), the last two None where not
# derived.
Row = tuple[int, int, datetime, str, str, str, date, str | None, bool | None]

USERS = 64  # users whose conversations are kept (many owners share one PostgreSQL process)
OVERLAP = 64  # messages before the last one kept that each search reads again


class ConversationLinks:
    """One user's messages up to id `upto`, in id order: each one's time and the positions
    of the messages before and after it in its conversation (-1: none)."""

    def __init__(self) -> None:
        self.upto = 0
        self._size = 0
        self._ids = np.zeros(0, dtype=np.int64)
        self._times = np.zeros(0, dtype=np.float64)  # POSIX seconds, as `at`
        self._before = np.zeros(0, dtype=np.int64)
        self._after = np.zeros(0, dtype=np.int64)
        self._last: dict[int, int] = {}  # conversation id -> position of its latest message
        self.speakers: set[str] = set()  # every speaker name in them (not empty)
        self.columns = MessageColumns()  # what a search scores each one by

    def add(self, rows: Sequence[Row]) -> None:
        """Messages (`Row`) in id order, all after `upto`."""
        need = self._size + len(rows)
        if need > len(self._ids):
            capacity = max(1024, need + need // 4)  # room for a while of new messages
            self._ids = np.resize(self._ids, capacity)
            self._times = np.resize(self._times, capacity)
            self._before = np.resize(self._before, capacity)
            self._after = np.resize(self._after, capacity)
            self.columns.reserve(capacity)
        for item, conversation_id, at, speaker, role, text, day, said, says in rows:
            if speaker:
                self.speakers.add(speaker)
            position = self._size
            self.columns.set(position, role, speaker, text, at, day, said, says)
            before = self._last.get(conversation_id, -1)
            self._ids[position] = item
            self._times[position] = at.timestamp()
            self._before[position] = before
            self._after[position] = -1
            if before >= 0:
                self._after[before] = position
            self._last[conversation_id] = position
            self._size += 1
            self.upto = item

    def knows(self, ids: Sequence[int]) -> bool:
        """Whether every one of `ids` is kept."""
        return len(self._find(ids)[0]) == len(ids)

    def positions(self, ids: Sequence[int]) -> npt.NDArray[np.int64] | None:
        """The positions of `ids` (in `columns`), or None when one of them is not kept."""
        wanted, positions = self._find(ids)
        return positions if len(wanted) == len(ids) else None

    def _find(self, ids: Sequence[int]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """Those of `ids` that are kept, and their positions."""
        wanted = np.asarray(ids, dtype=np.int64)
        if self._size == 0 or len(wanted) == 0:
            return wanted[:0], wanted[:0]
        kept = self._ids[: self._size]
        positions = np.minimum(np.searchsorted(kept, wanted), self._size - 1)
        known = kept[positions] == wanted
        return wanted[known], positions[known]

    def neighbours(
        self, ids: Sequence[int], now: datetime, within: timedelta | None = None
    ) -> dict[int, tuple[int | None, int | None]]:
        """For each known id, the messages just before and after it (see module note)."""
        wanted, positions = self._find(ids)
        if len(wanted) == 0:
            return {}
        at = self._times[positions]
        limit = now.timestamp()
        before = self._reach(self._before, self._before[positions], limit)
        after = self._reach(self._after, self._after[positions], limit)
        if within is not None:
            gap = within.total_seconds()
            before = np.where(at - self._time_of(before) <= gap, before, -1)
            after = np.where(self._time_of(after) - at <= gap, after, -1)
        before_ids = np.where(before >= 0, self._ids[np.maximum(before, 0)], -1).tolist()
        after_ids = np.where(after >= 0, self._ids[np.maximum(after, 0)], -1).tolist()
        return {
            item: (b if b >= 0 else None, a if a >= 0 else None)
            for item, b, a in zip(wanted.tolist(), before_ids, after_ids, strict=True)
        }

    def _time_of(self, positions: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
        """Times at `positions`; +inf where there is none (-1), so no such neighbour fits."""
        times = self._times[np.maximum(positions, 0)]
        return np.where(positions >= 0, times, np.inf)

    def _reach(
        self, step: npt.NDArray[np.int64], positions: npt.NDArray[np.int64], limit: float
    ) -> npt.NDArray[np.int64]:
        """From each position, follow `step` past messages written after `limit` (a
        message's neighbour is the nearest one written by then)."""
        while True:
            late = (positions >= 0) & (self._time_of(positions) > limit)
            if not late.any():
                return positions
            positions = np.where(late, step[np.maximum(positions, 0)], positions)


class Links:
    def __init__(self, db: Database) -> None:
        self._db = db
        self._kept: OrderedDict[str, ConversationLinks] = OrderedDict()
        # One reader at a time: a search's layers, or a turn beside the daemon's warm-up
        # (kit/daemon/warm.py), would each read a user's whole archive the first time.
        self._reading = asyncio.Lock()

    async def current(self, user_id: str) -> ConversationLinks:
        """The user's conversations with every message written since the last call."""
        async with self._reading:
            return await self._current(user_id)

    async def _current(self, user_id: str) -> ConversationLinks:
        links = self._kept.get(user_id)
        if links is None:
            links = self._kept[user_id] = ConversationLinks()
        self._kept.move_to_end(user_id)
        while len(self._kept) > USERS:
            self._kept.popitem(last=False)
        # By id, not by the user's index: only the rows added since are read, and the last
        # few before them again, in case one committed after a later one (PostgreSQL hands
        # out ids before commit, so two writers can commit out of order).
        rows = await self._db.fetchall(
            "SELECT id, conversation_id, at, speaker, role, text, day, said_days, says_time"
            " FROM messages"
            f" WHERE {NO_INDEX.format('user_id')}"
            " = ? AND id > ? ORDER BY id",
            (user_id, max(links.upto - OVERLAP, 0)),
        )
        if not links.knows([int(r[0]) for r in rows if r[0] <= links.upto]):
            # One came in late: start over (the next search reads them all).
            self._kept.pop(user_id, None)
            return await self._current(user_id)
        # Another search may have added some of them meanwhile.
        links.add([_row(r) for r in rows if r[0] > links.upto])
        return links

    def forget(self, user_id: str | None = None) -> None:
        """Drop what is kept of a user's conversations (all users': None), after messages
        were removed."""
        if user_id is None:
            self._kept.clear()
        else:
            self._kept.pop(user_id, None)


def _row(r: Sequence[object]) -> Row:
    return (
        int(r[0]),  # type: ignore[call-overload]
        int(r[1]),  # type: ignore[call-overload]
        from_iso(r[2]),  # type: ignore[arg-type]
        str(r[3]),
        str(r[4]),
        str(r[5]),
        date.fromisoformat(str(r[6])),
        None if r[7] is None else str(r[7]),
        None if r[8] is None else bool(r[8]),
    )
