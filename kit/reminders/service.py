"""`Reminders`: what the chat tools, the API and the front-ends do with reminders.

Scheduling validates everything at the edge (kit/reminders/rules.py for the time; here the
text, the kind and the per-user cap) and stores nothing unless all of it is good.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, tzinfo
from typing import Any

from kit.clock import Clock
from kit.errors import InputError
from kit.reminders.delivery import Dispatcher
from kit.reminders.rules import check_text, resolve
from kit.reminders.store import NewReminder, Notice, Reminder, ReminderStore

MAX_ACTIVE = 50  # per user: enough for a life's routines, bounds a runaway model
KINDS = ("reminder", "task")


@dataclass(frozen=True)
class Scheduled:
    reminder: Reminder
    note: str  # set when a DST change moved the time asked for


class Reminders:
    def __init__(
        self, store: ReminderStore, dispatcher: Dispatcher, clock: Clock, tz: tzinfo
    ) -> None:
        self.store = store
        self.dispatcher = dispatcher
        self._clock = clock
        self.tz = tz

    async def schedule(
        self,
        user_id: str,
        *,
        channel: str,
        conversation: str,
        fields: Mapping[str, Any],
        now: datetime | None = None,
    ) -> Scheduled:
        """Validate the tool's fields and store the reminder; InputError says what is wrong."""
        now = now or self._clock.now()
        kind = str(fields.get("kind") or "reminder").strip().lower()
        if kind not in KINDS:
            raise InputError("kind must be 'reminder' (text sent as it is) or 'task' (Kit does it)")
        text = check_text(fields.get("text"))
        when = resolve(
            now=now,
            tz=self.tz,
            repeat=fields.get("repeat"),
            at=fields.get("at"),
            in_minutes=fields.get("in_minutes"),
            local_time=fields.get("time"),
            weekday=fields.get("weekday"),
        )
        new = NewReminder(user_id, channel, conversation, kind, text, when.rule, when.first_fire)
        stored = await self.store.add(new, max_active=MAX_ACTIVE)
        if stored is None:
            raise InputError(
                f"the owner already has {MAX_ACTIVE} active reminders, the most Kit keeps; "
                "cancel some first (list_reminders shows them)"
            )
        self.dispatcher.on_change()
        return Scheduled(stored, when.note)

    async def active(self, user_id: str) -> list[Reminder]:
        return await self.store.active(user_id)

    async def cancel(self, user_id: str, reminder_id: int) -> Reminder:
        """Stop an active reminder (kept, marked cancelled). NotFound / InputError say why not."""
        before = await self.store.get(user_id, reminder_id)
        if before.status != "active":
            raise InputError(
                f"reminder #{reminder_id} is already {before.status}; nothing to cancel"
            )
        reminder = await self.store.cancel(user_id, reminder_id)
        self.dispatcher.on_change()
        return reminder

    async def take_notices(self, user_id: str, conversation: str | None = None) -> list[Notice]:
        return await self.store.take_notices(user_id, conversation)

    def describe(self, reminder: Reminder) -> str:
        return describe(reminder, self.tz)


def describe(reminder: Reminder, tz: tzinfo) -> str:
    """One line: number, when it fires next (owner's zone), the rule and the text."""
    when = "-"
    if reminder.next_fire is not None:
        when = f"{reminder.next_fire.astimezone(tz):%a %Y-%m-%d %H:%M}"
    what = "task" if reminder.kind == "task" else "reminder"
    return f"#{reminder.id} {when} ({reminder.rule.describe()}, {what}): {reminder.text}"
