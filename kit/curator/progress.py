"""Which messages are curated: a mark per conversation and category, attempts, parked batches.

A batch is the next run of messages after a category's mark. Only `chat` and `import`
messages are ever shown to the curator; `job` output is stepped over (the mark moves past it)
but never read. The mark moves in the same transaction as the pass that curated the batch, so a
crash leaves the messages uncurated, and a pass that lost a race (another process curated the
same batch first) rolls back instead of applying twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime

from kit.clock import Clock, from_iso, to_iso
from kit.config import CATEGORIES
from kit.jobs.attempts import retry_delay
from kit.memory.messages import Message, Messages
from kit.store.db import Database, Transaction

CURATED_SOURCES = ("chat", "import")
BATCH_MAX_MESSAGES = 200
BATCH_MAX_CHARS = 24_000  # ~6k tokens of transcript per pass


class LostRace(Exception):
    """Another curator moved the mark first; this pass must not apply."""


@dataclass(frozen=True)
class Batch:
    user_id: str
    conversation_id: int
    category: str
    after_id: int  # the mark this batch was read at
    through_id: int  # the last message id it covers (skipped job output included)
    attempts: int  # failed passes over it so far
    messages: tuple[Message, ...]  # curatable messages only, oldest first
    parked_id: int | None = None  # set when retrying a parked batch
    fitted: bool = False  # cut short to fit the model's window (the rest is the next batch)

    @property
    def owner_message_ids(self) -> tuple[int, ...]:
        """The messages facts may come from: the owner's (and other people's) words."""
        return tuple(m.id for m in self.messages if m.role == "user")


@dataclass(frozen=True)
class Pending:
    user_id: str
    conversation_id: int
    last_message_at: datetime | None


@dataclass(frozen=True)
class Parked:
    id: int
    conversation_id: int
    category: str
    first_message_id: int
    last_message_id: int
    attempts: int
    reason: str
    parked_at: datetime


async def _messages_still_there(tx: Transaction, batch: Batch) -> None:
    if batch.messages:
        ids = [m.id for m in batch.messages]
        row = await tx.fetchone(
            f"SELECT COUNT(*) FROM messages WHERE id IN ({','.join('?' * len(ids))})", ids
        )
        if row is None or row[0] != len(ids):
            raise LostRace("some of its messages were forgotten meanwhile")


class CurationProgress:
    def __init__(self, db: Database, messages: Messages, clock: Clock) -> None:
        self._db = db
        self._messages = messages
        self._clock = clock

    async def pending(self, user_id: str | None = None) -> list[Pending]:
        """Conversations with curatable messages past some category's mark."""
        marks = (
            "SELECT CASE WHEN COUNT(*) < ? THEN 0 ELSE MIN(curated_through) END"
            " FROM curation_state s WHERE s.conversation_id = c.id"
        )
        sources = ",".join("?" * len(CURATED_SOURCES))
        rows = await self._db.fetchall(
            "SELECT c.id, c.user_id, c.last_message_at FROM conversations c"
            " WHERE (CAST(? AS TEXT) IS NULL OR c.user_id = ?) AND EXISTS (SELECT 1 FROM messages m"
            f" WHERE m.conversation_id = c.id AND m.source IN ({sources}) AND m.id > ({marks}))"
            " ORDER BY c.id",
            (user_id, user_id, *CURATED_SOURCES, len(CATEGORIES)),
        )
        return [Pending(r[1], r[0], None if r[2] is None else from_iso(r[2])) for r in rows]

    async def next_batch(
        self,
        user_id: str,
        conversation_id: int,
        category: str,
        *,
        before_day: date | None = None,
        backoff_from: datetime | None = None,
        max_chars: int = BATCH_MAX_CHARS,
    ) -> Batch | None:
        """The messages after the category's mark (only days before `before_day`, if given),
        bounded in count and size (`max_chars`: less for a model with a small window). None
        when there is nothing to curate, or, with `backoff_from` (now), when its last pass
        failed less than `retry_delay` ago."""
        state = await self._db.fetchone(
            "SELECT curated_through, attempts, updated_at FROM curation_state"
            " WHERE conversation_id = ? AND category = ?",
            (conversation_id, category),
        )
        after_id, attempts = (0, 0) if state is None else (int(state[0]), int(state[1]))
        if backoff_from is not None and state is not None and attempts:
            if backoff_from < from_iso(state[2]) + retry_delay(attempts):
                return None
        rows = await self._messages.span(conversation_id, after_id, limit=BATCH_MAX_MESSAGES)
        return self._cut(
            user_id, conversation_id, category, after_id, attempts, rows, before_day, max_chars
        )

    @staticmethod
    def _cut(
        user_id: str,
        conversation_id: int,
        category: str,
        after_id: int,
        attempts: int,
        rows: Sequence[Message],
        before_day: date | None,
        max_chars: int = BATCH_MAX_CHARS,
    ) -> Batch | None:
        taken: list[Message] = []
        through = after_id
        size = 0
        fitted = False
        for message in rows:
            if before_day is not None and message.day >= before_day:
                break  # today's conversation is not over yet
            if message.source in CURATED_SOURCES:
                if taken and size + len(message.text) > max_chars:
                    fitted = size + len(message.text) <= BATCH_MAX_CHARS
                    break
                size += len(message.text)
                taken.append(message)
            through = message.id
        if through == after_id:
            return None
        fitted = fitted or (size > max_chars)  # one message longer than the window: cut
        return Batch(
            user_id, conversation_id, category, after_id, through, attempts, tuple(taken),
            fitted=fitted,
        )  # fmt: skip

    async def advance(self, tx: Transaction, batch: Batch) -> None:
        """Mark the batch curated (inside the pass's transaction); `LostRace` if someone else
        already did, or if `kit forget` took some of its messages while the model thought
        (what the pass learned from them must not land)."""
        now = to_iso(self._clock.now())
        await _messages_still_there(tx, batch)
        if batch.parked_id is not None:
            changed = await tx.execute_rowcount(
                "UPDATE curation_parked SET resolved_at = ? WHERE id = ? AND resolved_at IS NULL",
                (now, batch.parked_id),
            )
            if changed != 1:
                raise LostRace(f"parked batch {batch.parked_id} was already retried")
            return
        await self._ensure_row(tx, batch)
        changed = await tx.execute_rowcount(
            "UPDATE curation_state SET curated_through = ?, attempts = 0, last_error = '',"
            " updated_at = ? WHERE conversation_id = ? AND category = ? AND curated_through = ?",
            (batch.through_id, now, batch.conversation_id, batch.category, batch.after_id),
        )
        if changed != 1:
            raise LostRace(
                f"conversation {batch.conversation_id} ({batch.category}) was curated meanwhile"
            )

    async def failed(
        self, tx: Transaction, batch: Batch, reason: str, max_attempts: int
    ) -> str | None:
        """Count a failed attempt; after `max_attempts` park the batch and move on.
        Returns a note for the outcome when the batch was parked now. `LostRace` if `kit
        forget` took some of its messages meanwhile: the failure's record may quote them."""
        await _messages_still_there(tx, batch)
        if batch.parked_id is not None:
            return None  # a retry of a parked batch stays parked
        await self._ensure_row(tx, batch)
        attempts = batch.attempts + 1
        now = to_iso(self._clock.now())
        if attempts < max_attempts:
            await tx.execute(
                "UPDATE curation_state SET attempts = ?, last_error = ?, updated_at = ?"
                " WHERE conversation_id = ? AND category = ? AND curated_through = ?",
                (attempts, reason, now, batch.conversation_id, batch.category, batch.after_id),
            )
            return None
        first = batch.messages[0].id if batch.messages else batch.through_id
        await tx.execute(
            "INSERT INTO curation_parked (user_id, conversation_id, category, first_message_id,"
            " last_message_id, attempts, reason, parked_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (batch.user_id, batch.conversation_id, batch.category, first, batch.through_id,
             attempts, reason, now),
        )  # fmt: skip
        await tx.execute(
            "UPDATE curation_state SET curated_through = ?, attempts = 0, last_error = ?,"
            " updated_at = ? WHERE conversation_id = ? AND category = ? AND curated_through = ?",
            (batch.through_id, reason, now, batch.conversation_id, batch.category, batch.after_id),
        )
        return (
            f"gave up after {attempts} attempts; the messages are parked "
            "(`kit curate --retry-parked` tries them again)"
        )

    async def _ensure_row(self, tx: Transaction, batch: Batch) -> None:
        await tx.execute(
            "INSERT INTO curation_state (conversation_id, category, user_id,"
            " curated_through, updated_at) VALUES (?, ?, ?, 0, ?) ON CONFLICT DO NOTHING",
            (batch.conversation_id, batch.category, batch.user_id, to_iso(self._clock.now())),
        )

    async def parked(self, user_id: str) -> list[Parked]:
        rows = await self._db.fetchall(
            "SELECT id, conversation_id, category, first_message_id, last_message_id, attempts,"
            " reason, parked_at FROM curation_parked WHERE user_id = ? AND resolved_at IS NULL"
            " ORDER BY id",
            (user_id,),
        )
        return [
            Parked(r[0], r[1], r[2], r[3], r[4], r[5], r[6], parked_at=from_iso(r[7])) for r in rows
        ]

    async def parked_batch(self, user_id: str, parked: Parked) -> Batch:
        """A parked batch, read again for a retry (it does not touch the category's mark)."""
        rows = await self._messages.span(
            parked.conversation_id,
            parked.first_message_id - 1,
            through_id=parked.last_message_id,
            limit=parked.last_message_id - parked.first_message_id + 1,
        )
        taken = tuple(m for m in rows if m.source in CURATED_SOURCES)
        return Batch(
            user_id,
            parked.conversation_id,
            parked.category,
            parked.first_message_id - 1,
            parked.last_message_id,
            parked.attempts,
            taken,
            parked_id=parked.id,
        )
