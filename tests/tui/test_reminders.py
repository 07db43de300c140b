"""Reminders in the TUI on the real engine: the list (F5) with cancel, and a reminder delivered
to the open terminal conversation shown as a notification."""

from __future__ import annotations

from datetime import timedelta

from textual.widgets import DataTable

from kit.api import Kit
from kit.clock import FakeClock
from tests.support.reminders import schedule_local
from tests.tui.conftest import notes, settle
from tests.tui.scenes import wait_until
from tui.app import KitApp
from tui.reminders import RemindersScreen


async def test_the_list_shows_reminders_and_cancels_one_after_confirming(
    app: KitApp, kit: Kit
) -> None:
    await schedule_local(kit, "stretch", 30)
    await schedule_local(kit, "tea", 90)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("f5")
        await settle(pilot)
        assert isinstance(app.screen, RemindersScreen)
        table = app.screen.query_one("#reminder-table", DataTable)
        assert [table.get_row_at(i)[4] for i in range(table.row_count)] == ["stretch", "tea"]
        await pilot.press("c")
        await settle(pilot)
        await pilot.press("ctrl+y")
        await wait_until(pilot, lambda: table.row_count == 1, "the list reloaded")
        assert table.get_row_at(0)[4] == "tea"
        assert ("information", "reminder #1 cancelled") in notes(app)
    assert [r.text for r in await kit.services.reminders.active("owner")] == ["tea"]


async def test_a_reminder_due_while_the_tui_is_open_is_shown_as_a_notification(
    app: KitApp, kit: Kit, clock: FakeClock
) -> None:
    await schedule_local(kit, "stretch", 5)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        clock.advance(timedelta(minutes=5))
        app._check_notices()  # what the timer does every few seconds
        await wait_until(
            pilot, lambda: ("information", "Reminder: stretch") in notes(app), "the notice"
        )
