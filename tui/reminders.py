"""Reminders in the TUI: a screen listing the active ones (next time in the owner's zone,
the repeat, the text) with cancel, and the notices of reminders delivered to this terminal."""

from __future__ import annotations

from typing import Any, ClassVar, cast

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static
from textual.worker import Worker

from kit.reminders.store import Reminder
from tui.base import KitHost, add_columns, start_work
from tui.dialogs import Confirm

CHECK_SECONDS = 5.0  # how often an open TUI asks for reminders delivered to it
EMPTY = "No reminders. Ask Kit in the chat, e.g. “remind me tomorrow at 9 to call Ana”."


class RemindersScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "app.pop_screen", "Back"),
        Binding("c", "cancel_reminder", "Cancel reminder"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.reminders: list[Reminder] = []

    @property
    def kit_app(self) -> KitHost:
        return cast(KitHost, self.app)

    def compose(self) -> ComposeResult:
        yield Static("Reminders and scheduled tasks", id="reminders-title")
        table: DataTable[str] = DataTable(id="reminder-table", cursor_type="row")
        yield table
        yield Static("", id="reminders-empty", markup=False)
        yield Footer()

    @property
    def table(self) -> DataTable[str]:
        return self.query_one("#reminder-table", DataTable)

    def on_mount(self) -> None:
        fixed = (("#", 4), ("next", 16), ("repeat", 22), ("kind", 8))
        add_columns(self.table, fixed, ("text", "text", 12), self.app.size.width)
        self.table.focus()
        self.start_reload()

    def start_reload(self) -> Worker[Any]:
        return start_work(self, self.reload, group="reload")

    async def reload(self) -> None:
        app = self.kit_app
        with app.reporting():
            self.reminders = await app.client.reminders()
        table = self.table
        table.clear()
        for r in self.reminders:
            when = (
                "—" if r.next_fire is None else f"{r.next_fire.astimezone(app.tz):%a %d %b %H:%M}"
            )
            table.add_row(str(r.id), when, r.rule.describe(), r.kind, r.text, key=str(r.id))
        self.query_one("#reminders-empty", Static).update("" if self.reminders else EMPTY)

    def current(self) -> Reminder | None:
        if not self.reminders or not self.table.row_count:
            return None
        return self.reminders[self.table.cursor_row]

    def action_cancel_reminder(self) -> None:
        reminder = self.current()
        if reminder is None:
            self.notify("no reminder selected; the list is empty", severity="warning")
            return
        body = f"#{reminder.id} ({reminder.rule.describe()}): {reminder.text}"
        dialog = Confirm(f"Cancel reminder #{reminder.id}?", body, action="Cancel reminder")

        def confirmed(answer: str | None) -> None:
            if answer is not None:
                start_work(self, self._cancel, reminder.id, group="change")

        self.app.push_screen(dialog, confirmed)

    async def _cancel(self, reminder_id: int) -> None:
        app = self.kit_app
        with app.reporting():
            await app.client.cancel_reminder(reminder_id)
            app.notify(f"reminder #{reminder_id} cancelled")
        await self.reload()


async def show_notices(app: KitHost) -> None:
    """Reminders delivered to this conversation (while open, or since it was last open)."""
    with app.reporting():
        for notice in await app.client.reminder_notices(app.conversation):
            app.notify(notice.text, title="Reminder", timeout=30)
