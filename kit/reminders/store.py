"""The `reminders` and `reminder_deliveries` tables: the one module with their SQL.

A fire goes through three writes, each one transaction:
1. `claim`: a delivery row (reminder, fire time: unique) is inserted and the reminder's
   `next_fire` moved on (or the one-off marked done), together. A fire is never claimed twice.
2. (tasks only) `prepare`: the reply Kit wrote for the task is kept on the delivery, so a retry
   resends it instead of asking the model again.
3. `mark_sent`: the delivery is marked sent in the same transaction that stores the delivered
   text as a message of the conversation (source 'job': never learned from).
A 'pending' delivery (the daemon was killed before 3) is delivered again at the next start,
marked late; a 'sent' one never is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from kit.clock import Clock, from_iso, to_iso
from kit.errors import NotFound
from kit.memory.messages import Messages, NewMessage
from kit.reminders.rules import Repeat, Rule
from kit.store.db import Database, Transaction

# Channels with no live connection to send on (the TUI and `kit chat` share "terminal"; the
# Python API's default is "api"): delivering there is storing the message, and a front-end
# shows it when one is open, or when one next opens.
LOCAL_CHANNELS = ("terminal", "api")


@dataclass(frozen=True)
class Reminder:
    id: int
    user_id: str
    channel: str
    conversation: str
    kind: str  # "reminder" (text delivered as it is) or "task" (a prompt Kit answers then)
    text: str
    repeat: Repeat
    local_time: str | None
    weekday: int | None
    status: str  # active, done, cancelled
    next_fire: datetime | None
    created_at: datetime

    @property
    def rule(self) -> Rule:
        return Rule(self.repeat, self.local_time, self.weekday)


@dataclass(frozen=True)
class Delivery:
    id: int
    reminder_id: int
    user_id: str
    channel: str
    conversation: str
    kind: str
    reminder_text: str
    fire_at: datetime
    status: str  # pending, sent, failed
    text: str | None  # what is (or was) sent; for a task, set once Kit has answered it
    attempts: int
    late: bool
    claimed_at: datetime


@dataclass(frozen=True)
class Notice:
    """A delivered reminder a terminal front-end has not shown yet."""

    delivery_id: int
    reminder_id: int
    conversation: str
    text: str
    fire_at: datetime
    late: bool


_LOCAL = ",".join("?" * len(LOCAL_CHANNELS))
_REMINDER = (
    "id, user_id, channel, conversation, kind, text, repeat, local_time, weekday, status,"
    " next_fire, created_at"
)
_DELIVERY = (
    "d.id, d.reminder_id, d.user_id, r.channel, r.conversation, r.kind, r.text, d.fire_at,"
    " d.status, d.text, d.attempts, d.late, d.claimed_at"
)


def _reminder(row: Sequence[object]) -> Reminder:
    return Reminder(
        id=int(row[0]),  # type: ignore[call-overload]
        user_id=str(row[1]),
        channel=str(row[2]),
        conversation=str(row[3]),
        kind=str(row[4]),
        text=str(row[5]),
        repeat=str(row[6]),  # type: ignore[arg-type]
        local_time=None if row[7] is None else str(row[7]),
        weekday=None if row[8] is None else int(row[8]),  # type: ignore[call-overload]
        status=str(row[9]),
        next_fire=None if row[10] is None else from_iso(str(row[10])),
        created_at=from_iso(str(row[11])),
    )


def _delivery(row: Sequence[object]) -> Delivery:
    return Delivery(
        id=int(row[0]),  # type: ignore[call-overload]
        reminder_id=int(row[1]),  # type: ignore[call-overload]
        user_id=str(row[2]),
        channel=str(row[3]),
        conversation=str(row[4]),
        kind=str(row[5]),
        reminder_text=str(row[6]),
        fire_at=from_iso(str(row[7])),
        status=str(row[8]),
        text=None if row[9] is None else str(row[9]),
        attempts=int(row[10]),  # type: ignore[call-overload]
        late=bool(row[11]),
        claimed_at=from_iso(str(row[12])),
    )


@dataclass(frozen=True)
class NewReminder:
    user_id: str
    channel: str
    conversation: str
    kind: str
    text: str
    rule: Rule
    first_fire: datetime


class ReminderStore:
    def __init__(self, db: Database, messages: Messages, clock: Clock) -> None:
        self._db = db
        self._messages = messages
        self._clock = clock

    # ---- the owner's reminders -----------------------------------------------------------

    async def add(self, new: NewReminder, *, max_active: int) -> Reminder | None:
        """Store a reminder; None when the user already has `max_active` active ones (checked
        in the same transaction, so two turns at once cannot both slip past the cap)."""
        async with self._db.transaction() as tx:
            active = await tx.fetchone(
                "SELECT COUNT(*) FROM reminders WHERE user_id = ? AND status = 'active'",
                (new.user_id,),
            )
            if active is not None and int(active[0]) >= max_active:
                return None
            rid = await self.insert(tx, new, "active", self._clock.now())
        return await self.get(new.user_id, rid)

    async def insert(
        self, tx: Transaction, new: NewReminder, status: str, created_at: datetime
    ) -> int:
        """Insert inside the caller's transaction (`add`, and restoring an export)."""
        return await tx.insert(
            f"INSERT INTO reminders ({_REMINDER.removeprefix('id, ')})"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                new.user_id,
                new.channel,
                new.conversation,
                new.kind,
                new.text,
                new.rule.repeat,
                new.rule.local_time,
                new.rule.weekday,
                status,
                to_iso(new.first_fire) if status == "active" else None,
                to_iso(created_at),
            ),
        )

    async def get(self, user_id: str, reminder_id: int) -> Reminder:
        row = await self._db.fetchone(
            f"SELECT {_REMINDER} FROM reminders WHERE id = ? AND user_id = ?",
            (reminder_id, user_id),
        )
        if row is None:
            raise NotFound(f"there is no reminder #{reminder_id}; list them to see their numbers")
        return _reminder(row)

    async def active(self, user_id: str) -> list[Reminder]:
        """The user's active reminders, soonest first."""
        rows = await self._db.fetchall(
            f"SELECT {_REMINDER} FROM reminders WHERE user_id = ? AND status = 'active'"
            " ORDER BY next_fire, id",
            (user_id,),
        )
        return [_reminder(r) for r in rows]

    async def every(self, user_id: str) -> list[Reminder]:
        """All of the user's reminders, oldest first (what an export carries)."""
        rows = await self._db.fetchall(
            f"SELECT {_REMINDER} FROM reminders WHERE user_id = ? ORDER BY id", (user_id,)
        )
        return [_reminder(r) for r in rows]

    async def cancel(self, user_id: str, reminder_id: int) -> Reminder:
        """Stop an active reminder (kept, marked cancelled). A fire already claimed is still
        delivered: it was due before the cancel."""
        reminder = await self.get(user_id, reminder_id)
        if reminder.status != "active":
            return reminder
        async with self._db.transaction() as tx:
            await tx.execute(
                "UPDATE reminders SET status = 'cancelled', next_fire = NULL, ended_at = ?"
                " WHERE id = ? AND status = 'active'",
                (to_iso(self._clock.now()), reminder_id),
            )
        return await self.get(user_id, reminder_id)

    async def next_due(self, channels: Sequence[str]) -> datetime | None:
        """The earliest time something on `channels` needs doing: a fire or a retry."""
        marks = ",".join("?" * len(channels))
        row = await self._db.fetchone(
            "SELECT MIN(t) FROM ("
            f" SELECT MIN(next_fire) AS t FROM reminders WHERE status = 'active'"
            f"  AND channel IN ({marks})"
            " UNION ALL SELECT MIN(COALESCE(d.retry_at, d.claimed_at)) FROM reminder_deliveries d"
            f"  JOIN reminders r ON r.id = d.reminder_id WHERE d.status = 'pending'"
            f"  AND r.channel IN ({marks}))",
            (*channels, *channels),
        )
        return None if row is None or row[0] is None else from_iso(str(row[0]))

    # ---- firing ----------------------------------------------------------------------------

    async def due_now(self, now: datetime, channels: Sequence[str]) -> list[Reminder]:
        marks = ",".join("?" * len(channels))
        rows = await self._db.fetchall(
            f"SELECT {_REMINDER} FROM reminders WHERE status = 'active' AND next_fire <= ?"
            f" AND channel IN ({marks}) ORDER BY next_fire, id",
            (to_iso(now), *channels),
        )
        return [_reminder(r) for r in rows]

    async def claim(
        self, claims: Sequence[tuple[Reminder, datetime | None]], now: datetime, late: timedelta
    ) -> int:
        """For each (reminder, its next fire or None), in ONE transaction: insert the delivery
        of its current fire time and move it on, if nobody moved it first. Returns how many."""
        claimed = 0
        async with self._db.transaction() as tx:
            for reminder, following in claims:
                assert reminder.next_fire is not None
                moved = await tx.execute_rowcount(
                    "UPDATE reminders SET next_fire = ?, status = ?, ended_at = ?"
                    " WHERE id = ? AND status = 'active' AND next_fire = ?",
                    (
                        None if following is None else to_iso(following),
                        "active" if following is not None else "done",
                        None if following is not None else to_iso(now),
                        reminder.id,
                        to_iso(reminder.next_fire),
                    ),
                )
                if moved != 1:
                    continue  # another process claimed it, or it was cancelled meanwhile
                await tx.execute(
                    "INSERT INTO reminder_deliveries (reminder_id, user_id, fire_at,"
                    " claimed_at, late) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                    (
                        reminder.id,
                        reminder.user_id,
                        to_iso(reminder.next_fire),
                        to_iso(now),
                        int(now - reminder.next_fire > late),
                    ),
                )
                claimed += 1
        return claimed

    async def pending(self, now: datetime, channels: Sequence[str]) -> list[Delivery]:
        """Claimed fires not delivered yet whose (re)try time has come, oldest first."""
        marks = ",".join("?" * len(channels))
        rows = await self._db.fetchall(
            f"SELECT {_DELIVERY} FROM reminder_deliveries d JOIN reminders r"
            " ON r.id = d.reminder_id WHERE d.status = 'pending'"
            f" AND COALESCE(d.retry_at, d.claimed_at) <= ? AND r.channel IN ({marks})"
            " ORDER BY d.fire_at, d.id",
            (to_iso(now), *channels),
        )
        return [_delivery(r) for r in rows]

    async def take_for_sending(
        self, delivery_id: int, worker: str, until: datetime, holder_gone: Callable[[str], bool]
    ) -> bool:
        """Take a pending fire for sending, so no other worker sends it meanwhile: free, or
        its taker's time ran out or its process is gone (a restart after a crash sends it at
        once). True when it is ours; released by marking it sent or failed."""
        now = to_iso(self._clock.now())
        async with self._db.transaction() as tx:
            row = await tx.fetchone(
                "SELECT sending_by, sending_until FROM reminder_deliveries"
                " WHERE id = ? AND status = 'pending'",
                (delivery_id,),
            )
            if row is None:
                return False
            by, taken_until = row
            if by is not None and by != worker and taken_until > now and not holder_gone(by):
                return False
            await tx.execute(
                "UPDATE reminder_deliveries SET sending_by = ?, sending_until = ? WHERE id = ?",
                (worker, to_iso(until), delivery_id),
            )
        return True

    async def prepare(self, delivery_id: int, text: str) -> None:
        """Keep the text a task produced, so a retry resends it and never re-runs the task."""
        async with self._db.transaction() as tx:
            await tx.execute(
                "UPDATE reminder_deliveries SET text = ? WHERE id = ?", (text, delivery_id)
            )

    async def mark_sent(self, delivery: Delivery, text: str, now: datetime, *, late: bool) -> None:
        """The delivery is sent: mark it so and store the sent text as Kit's message in the
        conversation (source 'job': never learned from), in one transaction. A task's answer
        is stored by its turn already (as 'job' too), so only the mark is written for it."""
        conversation = await self._messages.conversation(
            delivery.user_id, delivery.channel, delivery.conversation
        )
        async with self._db.transaction() as tx:
            message_id = None
            if delivery.kind == "reminder":
                (message_id,) = await self._messages.insert_many(
                    tx, conversation, [NewMessage("assistant", text, now)], "job"
                )
            # The stored message is the record of what was said (and goes with the messages
            # when the owner forgets them): the delivery keeps the text only until a local
            # front-end has shown it.
            kept = text if delivery.channel in LOCAL_CHANNELS else None
            changed = await tx.execute_rowcount(
                "UPDATE reminder_deliveries SET status = 'sent', text = ?, sent_at = ?, late = ?,"
                " message_id = ? WHERE id = ? AND status = 'pending'",
                (kept, to_iso(now), int(late), message_id, delivery.id),
            )
            if changed != 1:
                raise AlreadySent(delivery.id)  # rolls the stored message back

    async def mark_failed_attempt(
        self, delivery: Delivery, error: str, retry_at: datetime | None
    ) -> None:
        """A send that did not work: retried at `retry_at`, or given up (None)."""
        async with self._db.transaction() as tx:
            await tx.execute(
                "UPDATE reminder_deliveries SET attempts = attempts + 1, last_error = ?,"
                " retry_at = ?, status = ?, sending_by = NULL WHERE id = ? AND status = 'pending'",
                (
                    error,
                    None if retry_at is None else to_iso(retry_at),
                    "pending" if retry_at is not None else "failed",
                    delivery.id,
                ),
            )

    # ---- terminal front-ends ---------------------------------------------------------------

    async def take_notices(self, user_id: str, conversation: str | None) -> list[Notice]:
        """Delivered terminal reminders not shown yet (of one conversation, or all), marked
        shown in the same transaction: each is shown once, by whichever front-end asks first."""
        async with self._db.transaction() as tx:
            rows = await tx.fetchall(
                "SELECT d.id, d.reminder_id, r.conversation, d.text, d.fire_at, d.late"
                " FROM reminder_deliveries d JOIN reminders r ON r.id = d.reminder_id"
                f" WHERE d.user_id = ? AND r.channel IN ({_LOCAL}) AND d.status = 'sent'"
                " AND d.shown_at IS NULL AND (CAST(? AS TEXT) IS NULL OR r.conversation = ?)"
                " ORDER BY d.fire_at, d.id",
                (user_id, *LOCAL_CHANNELS, conversation, conversation),
            )
            if rows:
                marks = ",".join("?" * len(rows))
                await tx.execute(
                    "UPDATE reminder_deliveries SET shown_at = ?, text = NULL"
                    f" WHERE id IN ({marks})",
                    (to_iso(self._clock.now()), *(int(r[0]) for r in rows)),
                )
        return [
            Notice(
                delivery_id=int(r[0]),
                reminder_id=int(r[1]),
                conversation=str(r[2]),
                text=str(r[3] or ""),
                fire_at=from_iso(str(r[4])),
                late=bool(r[5]),
            )
            for r in rows
        ]


class AlreadySent(Exception):
    """Another process marked this delivery sent first; this transaction must not apply."""

    def __init__(self, delivery_id: int) -> None:
        super().__init__(f"delivery {delivery_id} was already marked sent")
        self.delivery_id = delivery_id


# ---- the owner's data out and in (kit/portability/) ---------------------------------------

EXPORTED = (
    "id",
    "channel",
    "conversation",
    "kind",
    "text",
    "repeat",
    "local_time",
    "weekday",
    "status",
    "next_fire",
    "created_at",
    "ended_at",
)


async def export_rows(db: Database, user_id: str) -> list[dict[str, object]]:
    """Every reminder of the user, as JSON-ready rows. Delivery records are bookkeeping, like
    the scheduler's job runs, and stay behind."""
    rows = await db.fetchall(
        f"SELECT {', '.join(EXPORTED)} FROM reminders WHERE user_id = ? ORDER BY id", (user_id,)
    )
    return [dict(zip(EXPORTED, row, strict=True)) for row in rows]


async def restore_rows(tx: Transaction, user_id: str, rows: Sequence[dict[str, object]]) -> None:
    """Recreate exported reminders verbatim (new ids) inside a restore's transaction. An
    active one whose time went by while it was exported fires once, late, like any missed."""
    columns = EXPORTED[1:]
    await tx.executemany(
        f"INSERT INTO reminders (user_id, {', '.join(columns)})"
        f" VALUES (?, {', '.join('?' * len(columns))})",
        [(user_id, *(row.get(c) for c in columns)) for row in rows],
    )


# ---- `kit forget` (kit/forget/forgetter.py) ---------------------------------------------------


async def forget_candidates(db: Any, user_id: str) -> list[tuple[int, str, str]]:
    """(id, text, created_at) of every reminder of the user, for a forget to choose from.
    `db` is a database or the forget's open transaction (anything with `fetchall`)."""
    rows = await db.fetchall(
        "SELECT id, text, created_at FROM reminders WHERE user_id = ? ORDER BY id", (user_id,)
    )
    return [(int(r[0]), str(r[1]), str(r[2])) for r in rows]


async def delete_for_forget(tx: Transaction, user_id: str, ids: Sequence[int]) -> None:
    """Erase reminders (their deliveries go with them) inside the forget's transaction."""
    await tx.executemany(
        "DELETE FROM reminders WHERE id = ? AND user_id = ?", [(i, user_id) for i in ids]
    )
