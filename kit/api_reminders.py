"""The owner's reminders, as part of `Kit` (kit/api.py). Kit sets them from the chat (the
model's reminder tools); the owner lists, cancels and is shown them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kit.api_base import KitBase

if TYPE_CHECKING:
    from kit.reminders.delivery import DispatchReport
    from kit.reminders.store import Notice, Reminder


class Reminding(KitBase):
    async def reminders(self, *, user: str | None = None) -> list[Reminder]:
        """The active reminders, the next to fire first."""
        return await self.services.reminders.active(self._user(user))

    async def cancel_reminder(self, reminder_id: int, *, user: str | None = None) -> Reminder:
        """Stop a reminder (kept, marked cancelled)."""
        return await self.services.reminders.cancel(self._user(user), reminder_id)

    async def reminder_notices(
        self, conversation: str | None = None, *, user: str | None = None
    ) -> list[Notice]:
        """Reminders delivered to the terminal's conversations (or one of them) and not shown
        yet; each is handed out once, to whichever front-end asks first."""
        return await self.services.reminders.take_notices(self._user(user), conversation)

    async def deliver_due_reminders(self) -> DispatchReport:
        """Fire what is due now (a daemon's scheduler does this on its own)."""
        return await self.services.reminders.dispatcher.run_due()

    def describe_reminder(self, reminder: Reminder) -> str:
        """One line: its number, when it fires next in the owner's zone, its rule and text."""
        return self.services.reminders.describe(reminder)
