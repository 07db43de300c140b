"""Conversations and their messages: the durable archive and the working-memory window.

Messages are never deleted by windowing: the window is just "messages from window_start_id on",
and older ones live on in the archive (searchable) and in the rolling window summary.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta, tzinfo
from typing import Any

from kit.clock import Clock, from_iso, local_date, to_iso
from kit.dates.text import mentions_time, said_days
from kit.llm.base import Role
from kit.memory.frozen import made
from kit.memory.hashes import content_hash
from kit.store.db import NO_INDEX, Database, Transaction
from kit.store.derived_columns import derived
from kit.untrusted.neutralise import neutralise


@dataclass(frozen=True)
class Conversation:
    id: int
    user_id: str
    channel: str
    external_id: str
    window_summary: str
    window_start_id: int
    last_message_at: datetime | None


@dataclass(frozen=True)
class Message:
    id: int
    user_id: str
    conversation_id: int
    role: Role
    speaker: str
    text: str
    at: datetime
    day: date
    ref: str | None
    source: str
    forwarded_from: str | None = None  # someone else's words, passed on by the speaker
    spoken: bool = False  # a voice message, kept as its transcript (kit/speech/)
    # The days its text names, read as of its day, as stored with it (m038; kit/dates/text.py
    # `said_days`); None where not derived: a search parses the text instead.
    said_days: str | None = None
    # Whether its text places something in time (m039; `mentions_time`), or None: parsed.
    says_time: bool | None = None


@dataclass(frozen=True)
class ChatHistory:
    """A conversation as a front-end reopens it: its latest messages, how many came before
    them, and the rolling summary of the part that has left the window ("" if none yet)."""

    messages: tuple[Message, ...]
    earlier: int
    summary: str


@dataclass(frozen=True)
class NewMessage:
    role: Role
    text: str
    at: datetime
    speaker: str = ""
    ref: str | None = None
    forwarded_from: str | None = None
    spoken: bool = False


_MESSAGE_COLUMNS = (
    "id, user_id, conversation_id, role, speaker, text, at, day, ref, source, forwarded_from,"
    " spoken, said_days, says_time"
)


async def said_at(tx: Transaction, user_id: str, ids: Iterable[int]) -> dict[int, datetime]:
    """When each of `ids` (the user's messages) was said: the times facts take their validity
    from (kit/memory/fact_times.py). Unknown ids are left out."""
    wanted = sorted(set(ids))
    if not wanted:
        return {}
    rows = await tx.fetchall(
        f"SELECT id, at FROM messages WHERE {NO_INDEX.format('user_id')} = ?"
        f" AND id IN ({','.join('?' * len(wanted))})",
        (user_id, *wanted),
    )
    return {int(r[0]): from_iso(r[1]) for r in rows}


def attributed(who: str, message: Message) -> str:
    """How a transcript names the speaker of `message`: `who`, and for forwarded text whose
    words they are ("Ana (forwarded from Bob)"), so no reader takes them as Ana's own. The
    name comes from outside: it is neutralised like the text around it. A voice message says
    so: its text is a transcript, and may have misheard a word."""
    if message.forwarded_from is None:
        return f"{who} (voice)" if message.spoken else who
    return f"{who} (forwarded from {neutralise(message.forwarded_from, inline=True)})"


def _message(row: Sequence[object]) -> Message:
    return made(
        Message,
        {
            "id": int(row[0]),  # type: ignore[call-overload]
            "user_id": str(row[1]),
            "conversation_id": int(row[2]),  # type: ignore[call-overload]
            "role": str(row[3]),
            "speaker": str(row[4]),
            "text": str(row[5]),
            "at": from_iso(str(row[6])),
            "day": date.fromisoformat(str(row[7])),
            "ref": None if row[8] is None else str(row[8]),
            "source": str(row[9]),
            "forwarded_from": None if row[10] is None else str(row[10]),
            "spoken": bool(row[11]),
            "said_days": None if row[12] is None else str(row[12]),
            "says_time": None if row[13] is None else bool(row[13]),
        },
    )


def _conversation(row: Sequence[object]) -> Conversation:
    return Conversation(
        id=int(row[0]),  # type: ignore[call-overload]
        user_id=str(row[1]),
        channel=str(row[2]),
        external_id=str(row[3]),
        window_summary=str(row[4]),
        window_start_id=int(row[5]),  # type: ignore[call-overload]
        last_message_at=None if row[6] is None else from_iso(str(row[6])),
    )


_CONVERSATION_COLUMNS = (
    "id, user_id, channel, external_id, window_summary, window_start_id, last_message_at"
)


class Messages:
    def __init__(self, db: Database, clock: Clock, tz: tzinfo) -> None:
        self._db = db
        self._clock = clock
        self._tz = tz

    async def conversation(self, user_id: str, channel: str, external_id: str) -> Conversation:
        """The conversation for this (user, channel, id), created on first use."""
        found = await self._find_conversation(user_id, channel, external_id)
        if found is not None:
            return found
        async with self._db.transaction() as tx:
            await tx.execute(
                "INSERT INTO conversations (user_id, channel, external_id, created_at)"
                " VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (user_id, channel, external_id, to_iso(self._clock.now())),
            )
        found = await self._find_conversation(user_id, channel, external_id)
        assert found is not None
        return found

    async def drop_if_empty(self, conversation: Conversation) -> None:
        """Remove a conversation that holds no message (one a refused import had just made)."""
        async with self._db.transaction() as tx:
            await tx.execute(
                "DELETE FROM conversations WHERE id = ?"
                " AND NOT EXISTS (SELECT 1 FROM messages WHERE conversation_id = ?)",
                (conversation.id, conversation.id),
            )

    async def find_conversation(
        self, user_id: str, channel: str, external_id: str
    ) -> Conversation | None:
        """The conversation if it exists (never creates one)."""
        return await self._find_conversation(user_id, channel, external_id)

    async def _find_conversation(
        self, user_id: str, channel: str, external_id: str
    ) -> Conversation | None:
        row = await self._db.fetchone(
            f"SELECT {_CONVERSATION_COLUMNS} FROM conversations"
            " WHERE user_id = ? AND channel = ? AND external_id = ?",
            (user_id, channel, external_id),
        )
        return None if row is None else _conversation(row)

    async def get_conversation(self, conversation_id: int) -> Conversation:
        row = await self._db.fetchone(
            f"SELECT {_CONVERSATION_COLUMNS} FROM conversations WHERE id = ?", (conversation_id,)
        )
        if row is None:
            raise LookupError(f"conversation {conversation_id} does not exist")
        return _conversation(row)

    async def add(
        self,
        conversation: Conversation,
        role: Role,
        text: str,
        *,
        at: datetime | None = None,
        speaker: str = "",
        ref: str | None = None,
        source: str = "chat",
        forwarded_from: str | None = None,
        spoken: bool = False,
    ) -> Message:
        """Store one message durably (committed before this returns)."""
        item = NewMessage(role, text, at or self._clock.now(), speaker, ref, forwarded_from, spoken)
        async with self._db.transaction() as tx:
            (message_id,) = await self.insert_many(tx, conversation, [item], source)
        day = local_date(item.at, self._tz)
        return Message(
            message_id,
            conversation.user_id,
            conversation.id,
            role,
            speaker,
            text,
            item.at,
            day,
            ref,
            source,
            forwarded_from,
            spoken,
            said_days(text, day),
            mentions_time(text),
        )

    _INSERT = (
        "INSERT INTO messages (user_id, conversation_id, role, speaker, text, at, day,"
        " ref, source, content_hash, forwarded_from, spoken, named_days, said_days, says_time)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    )

    def _row(self, conversation: Conversation, item: NewMessage, source: str) -> tuple[Any, ...]:
        day = local_date(item.at, self._tz)
        return (
            conversation.user_id,
            conversation.id,
            item.role,
            item.speaker,
            item.text,
            to_iso(item.at),
            day.isoformat(),
            item.ref,
            source,
            content_hash(item.speaker, item.text),
            item.forwarded_from,
            int(item.spoken),
            *derived(item.text, day),
        )

    async def _touch(
        self, tx: Transaction, conversation: Conversation, items: Sequence[NewMessage]
    ) -> None:
        if items:
            latest = max(to_iso(item.at) for item in items)
            await tx.execute(
                "UPDATE conversations SET last_message_at = ?"
                " WHERE id = ? AND (last_message_at IS NULL OR last_message_at < ?)",
                (latest, conversation.id, latest),
            )

    async def insert_many(
        self, tx: Transaction, conversation: Conversation, items: Sequence[NewMessage], source: str
    ) -> list[int]:
        """Insert messages inside the caller's transaction (imports land whole or not at all)."""
        ids = [await tx.insert(self._INSERT, self._row(conversation, i, source)) for i in items]
        await self._touch(tx, conversation, items)
        return ids

    async def insert_bulk(
        self, tx: Transaction, conversation: Conversation, items: Sequence[NewMessage], source: str
    ) -> int:
        """Like `insert_many` without returning ids: one statement for the whole batch, about
        three times faster, for imports of many thousands of messages. Returns how many."""
        await tx.executemany(self._INSERT, [self._row(conversation, i, source) for i in items])
        await self._touch(tx, conversation, items)
        return len(items)

    async def import_new(
        self,
        tx: Transaction,
        conversation: Conversation,
        batches: Iterable[Sequence[NewMessage]],
        source: str,
    ) -> int:
        """Insert the messages the conversation does not hold yet; returns how many were new.

        A message is the same one when its time, role, speaker and text are (a hash of the last
        two), counted with repeats: a file with "ok" twice in one minute adds two, and the same
        file imported again adds none; a file that overlaps an earlier one adds only the rest.
        Into an empty conversation (the usual first import) rows go straight in. Otherwise they
        are staged in a temporary table, the conversation's stored messages are counted by that
        identity (one pass over them: no index kept for this, so chat and the database pay
        nothing), and one statement inserts, in file order, each copy beyond those stored."""
        if (
            await tx.fetchone(
                "SELECT 1 FROM messages WHERE conversation_id = ? LIMIT 1", (conversation.id,)
            )
            is None
        ):
            added = 0
            for batch in batches:
                added += await self.insert_bulk(tx, conversation, batch, source)
            return added
        for table in ("import_staging", "import_present"):
            await tx.execute(f"DROP TABLE IF EXISTS {table}")
        await tx.execute(
            "CREATE TEMP TABLE import_staging (seq BIGINT PRIMARY KEY, role TEXT, speaker TEXT,"
            " text TEXT, at TEXT, day TEXT, ref TEXT, content_hash TEXT, forwarded_from TEXT,"
            " named_days TEXT, said_days TEXT, says_time INTEGER)"
        )
        await tx.execute(
            "CREATE TEMP TABLE import_present (at TEXT, role TEXT, content_hash TEXT, n BIGINT,"
            " PRIMARY KEY (at, role, content_hash))"
        )
        await tx.execute(
            "INSERT INTO import_present SELECT at, role, content_hash, COUNT(*)"
            " FROM messages WHERE conversation_id = ? GROUP BY at, role, content_hash",
            (conversation.id,),
        )
        seq = 0
        for batch in batches:
            await tx.executemany(
                "INSERT INTO import_staging (seq, role, speaker, text, at, day, ref, content_hash,"
                " forwarded_from, named_days, said_days, says_time)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(seq := seq + 1, *self._staged(conversation, item)) for item in batch],
            )
            await self._touch(tx, conversation, batch)
        added = await tx.execute_rowcount(
            "INSERT INTO messages (user_id, conversation_id, role, speaker, text, at, day, ref,"
            " source, content_hash, forwarded_from, named_days, said_days, says_time)"
            " SELECT ?, ?, role, speaker, text, at, day, ref, ?, content_hash, forwarded_from,"
            " named_days, said_days, says_time FROM"
            " (SELECT *, ROW_NUMBER() OVER (PARTITION BY at, role, content_hash ORDER BY seq)"
            "  AS copy FROM import_staging) AS s"
            " LEFT JOIN import_present AS p USING (at, role, content_hash)"
            " WHERE s.copy > COALESCE(p.n, 0) ORDER BY s.seq",
            (conversation.user_id, conversation.id, source),
        )
        for table in ("import_staging", "import_present"):
            await tx.execute(f"DROP TABLE {table}")
        return added

    def _staged(self, conversation: Conversation, item: NewMessage) -> tuple[Any, ...]:
        _, _, role, speaker, text, at, day, ref, _, digest, origin, _, *from_text = self._row(
            conversation, item, ""
        )
        return (role, speaker, text, at, day, ref, digest, origin, *from_text)

    async def window(self, conversation_id: int) -> list[Message]:
        """The unsummarised window: every message from the conversation's window start on."""
        rows = await self._db.fetchall(
            f"SELECT {_MESSAGE_COLUMNS} FROM messages WHERE conversation_id = ? AND id >= "
            "(SELECT window_start_id FROM conversations WHERE id = ?) ORDER BY id",
            (conversation_id, conversation_id),
        )
        return [_message(r) for r in rows]

    async def advance_window(
        self, conversation_id: int, *, expected_start_id: int, new_start_id: int, summary: str
    ) -> bool:
        """Move the window start and store the new rolling summary, if nobody else did first."""
        async with self._db.transaction() as tx:
            changed = await tx.execute_rowcount(
                "UPDATE conversations SET window_start_id = ?, window_summary = ?"
                " WHERE id = ? AND window_start_id = ?",
                (new_start_id, summary, conversation_id, expected_start_id),
            )
        return changed == 1

    async def history(
        self, user_id: str, channel: str, external_id: str, *, limit: int
    ) -> ChatHistory:
        """The latest `limit` messages of a conversation, oldest first (nothing is created)."""
        conversation = await self._find_conversation(user_id, channel, external_id)
        if conversation is None:
            return ChatHistory((), 0, "")
        rows = await self._db.fetchall(
            f"SELECT {_MESSAGE_COLUMNS} FROM messages WHERE conversation_id = ?"
            " ORDER BY id DESC LIMIT ?",
            (conversation.id, limit),
        )
        total = await self._db.scalar(
            "SELECT COUNT(*) FROM messages WHERE conversation_id = ?", (conversation.id,)
        )
        return ChatHistory(
            tuple(_message(r) for r in reversed(rows)),
            int(total) - len(rows),
            conversation.window_summary,
        )

    async def get_many(self, user_id: str, ids: Sequence[int]) -> list[Message]:
        if not ids:
            return []
        marks = ",".join("?" * len(ids))
        rows = await self._db.fetchall(
            # id lookups, not a scan of the user's index range (O(n) per search)
            f"SELECT {_MESSAGE_COLUMNS} FROM messages WHERE {NO_INDEX.format('user_id')} = ?"
            f" AND id IN ({marks})",
            (user_id, *ids),
        )
        return [_message(r) for r in rows]

    async def span(
        self, conversation_id: int, after_id: int, *, through_id: int | None = None, limit: int
    ) -> list[Message]:
        """A conversation's messages with ids after `after_id` (up to `through_id`), oldest
        first: how the curator reads what it has not curated yet."""
        upto = "" if through_id is None else f" AND id <= {int(through_id)}"
        rows = await self._db.fetchall(
            f"SELECT {_MESSAGE_COLUMNS} FROM messages WHERE conversation_id = ? AND id > ?"
            f"{upto} ORDER BY id LIMIT ?",
            (conversation_id, after_id, limit),
        )
        return [_message(r) for r in rows]

    async def neighbours(
        self, user_id: str, ids: Sequence[int], now: datetime, *, within: timedelta | None = None
    ) -> dict[int, tuple[int | None, int | None]]:
        """For each id, the ids of the messages just before and after it in its conversation
        (written at or before `now`): the turn a message answers, and the one answering it.
        With `within`, a message further away in time than that is no neighbour: it belongs
        to another sitting of the conversation. (A search asks kit/retrieval/links.py, which
        keeps this in memory and is tested against it.)"""
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        when = to_iso(now)
        near_p = near_n = ""
        if within is not None:
            days = within.total_seconds() / 86400
            near_p = f" AND julianday(m.at) - julianday(p.at) <= {days!r}"
            near_n = f" AND julianday(n.at) - julianday(m.at) <= {days!r}"
        rows = await self._db.fetchall(
            "SELECT m.id, p.id, n.id FROM messages m"
            " LEFT JOIN messages p ON p.id = (SELECT id FROM messages WHERE conversation_id ="
            f"  m.conversation_id AND id < m.id AND at <= ? ORDER BY id DESC LIMIT 1){near_p}"
            " LEFT JOIN messages n ON n.id = (SELECT id FROM messages WHERE conversation_id ="
            f"  m.conversation_id AND id > m.id AND at <= ? ORDER BY id LIMIT 1){near_n}"
            f" WHERE {NO_INDEX.format('m.user_id')} = ? AND m.id IN ({marks})",  # by id
            (when, when, user_id, *ids),
        )
        return {int(r[0]): (r[1], r[2]) for r in rows}

    async def recent_users(self, count: int) -> list[str]:
        """The users who wrote the latest messages, newest first, at most `count` of them."""
        rows = await self._db.fetchall(
            "SELECT user_id FROM messages ORDER BY id DESC LIMIT ?", (count * 50,)
        )
        return list(dict.fromkeys(str(r[0]) for r in rows))[:count]

    async def speakers(self, user_id: str) -> list[str]:
        """The distinct non-empty speaker names in the user's archive: one index seek per
        name (a skip scan over messages_user_speaker), not a pass over every message."""
        rows = await self._db.fetchall(
            "WITH RECURSIVE names(speaker) AS ("
            " SELECT MIN(speaker) FROM messages WHERE user_id = ? AND speaker > ''"
            " UNION ALL SELECT (SELECT MIN(speaker) FROM messages WHERE user_id = ?"
            "  AND speaker > names.speaker) FROM names WHERE names.speaker IS NOT NULL)"
            " SELECT speaker FROM names WHERE speaker IS NOT NULL",
            (user_id, user_id),
        )
        return [str(r[0]) for r in rows]

    async def on_day(self, user_id: str, day: date) -> list[Message]:
        rows = await self._db.fetchall(
            f"SELECT {_MESSAGE_COLUMNS} FROM messages WHERE user_id = ? AND day = ?"
            " ORDER BY at, id",
            (user_id, day.isoformat()),
        )
        return [_message(r) for r in rows]

    async def days_with_messages(self, user_id: str) -> list[date]:
        rows = await self._db.fetchall(
            "SELECT DISTINCT day FROM messages WHERE user_id = ? ORDER BY day", (user_id,)
        )
        return [date.fromisoformat(r[0]) for r in rows]

    async def count(self, user_id: str) -> int:
        return int(
            await self._db.scalar("SELECT COUNT(*) FROM messages WHERE user_id = ?", (user_id,))
        )
