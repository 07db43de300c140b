"""Which message comes just before and just after each one in its conversation, kept in
memory per user.

A message scores a share of its neighbours' relevance (kit/memory/search.py), so every search
asked the database for the neighbours of a few hundred candidates, a statement on the
critical path of every turn. Messages are only ever appended (in id order) and removed by
`kit forget`, so each user's conversations are kept here as lists of (id, time) and each
search first reads just the messages added since (by id). `forget` drops a user's lists;
like the vector matrices, rows another process removes linger until restart (harmless: a
removed message is loaded by nobody).

Same answer as `Messages.neighbours`: the nearest message before / after in the same
conversation written at or before `now`, and none when it is further away than `within`.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from kit.clock import from_iso
from kit.memory.db import NO_INDEX, Database

USERS = 64  # users whose conversations are kept (many owners share one PostgreSQL process)


@dataclass
class _Conversation:
    ids: list[int] = field(default_factory=list)
    times: list[float] = field(default_factory=list)  # POSIX seconds, as `at`


@dataclass
class ConversationLinks:
    """One user's conversations, up to message `upto`."""

    upto: int = 0
    conversations: dict[int, _Conversation] = field(default_factory=dict)
    where: dict[int, tuple[_Conversation, int]] = field(default_factory=dict)  # id -> place

    def add(self, rows: Sequence[tuple[int, int, datetime]]) -> None:
        """Messages in id order, all after `upto`."""
        for item, conversation_id, at in rows:
            conversation = self.conversations.setdefault(conversation_id, _Conversation())
            self.where[item] = (conversation, len(conversation.ids))
            conversation.ids.append(item)
            conversation.times.append(at.timestamp())
            self.upto = item

    def neighbours(
        self, ids: Sequence[int], now: datetime, within: timedelta | None = None
    ) -> dict[int, tuple[int | None, int | None]]:
        """For each known id, the messages just before and after it (see module note)."""
        limit = now.timestamp()
        gap = None if within is None else within.total_seconds()
        out: dict[int, tuple[int | None, int | None]] = {}
        for item in ids:
            place = self.where.get(item)
            if place is None:
                continue
            conversation, index = place
            times, at = conversation.times, conversation.times[index]
            before = index - 1
            while before >= 0 and times[before] > limit:
                before -= 1
            after = index + 1
            while after < len(times) and times[after] > limit:
                after += 1
            previous = next_ = None
            if before >= 0 and (gap is None or at - times[before] <= gap):
                previous = conversation.ids[before]
            if after < len(times) and (gap is None or times[after] - at <= gap):
                next_ = conversation.ids[after]
            out[item] = (previous, next_)
        return out


class Links:
    def __init__(self, db: Database) -> None:
        self._db = db
        self._kept: OrderedDict[str, ConversationLinks] = OrderedDict()

    async def current(self, user_id: str) -> ConversationLinks:
        """The user's conversations with every message written since the last call."""
        links = self._kept.get(user_id)
        if links is None:
            links = self._kept[user_id] = ConversationLinks()
        self._kept.move_to_end(user_id)
        while len(self._kept) > USERS:
            self._kept.popitem(last=False)
        # By id, not by the user's index: only the rows added since are read.
        rows = await self._db.fetchall(
            f"SELECT id, conversation_id, at FROM messages WHERE {NO_INDEX.format('user_id')}"
            " = ? AND id > ? ORDER BY id",
            (user_id, links.upto),
        )
        # Another search may have added some of them meanwhile.
        links.add([(int(r[0]), int(r[1]), from_iso(r[2])) for r in rows if r[0] > links.upto])
        return links

    def forget(self, user_id: str | None = None) -> None:
        """Drop what is kept of a user's conversations (all users': None), after messages
        were removed."""
        if user_id is None:
            self._kept.clear()
        else:
            self._kept.pop(user_id, None)
