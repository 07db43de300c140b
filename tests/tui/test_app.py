"""The app as a whole: the status line, the command palette, keyboard navigation, and failures
turned into notifications."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest
from textual.command import CommandList, CommandPalette

from kit.api import Kit
from kit.client import LocalClient
from kit.daemon.socket_client import DaemonUnavailable, SocketClient
from kit.errors import NotFound
from kit.llm.budget import BudgetState
from kit.llm.fake import FakeLLM
from kit.surface import Status
from tui.app import KitApp
from tui.command import logs_to_file
from tui.dialogs import Confirm
from tui.failures import describe
from tui.status import StatusLine, status_text

from .conftest import notes, settle


def status_line(app: KitApp) -> str:
    return str(app.query_one(StatusLine).render())


async def test_status_line_shows_mode_models_tokens_today_and_last_rem(
    kit: Kit, app: KitApp, fake_llm: FakeLLM
) -> None:
    fake_llm.queue("Hi.")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert status_line(app) == (
            "○ standalone │ claude-sonnet-4-6 / claude-haiku-4-5 │ embed hashing-bow-256 │ "
            "0 tokens today │ last REM never"
        )
        await pilot.press(*"hello", "enter")
        await settle(pilot)
        status = app.query_one(StatusLine).status
        assert status is not None and status.tokens_today > 0  # refreshed after the turn
        assert f"{status.tokens_today:,} tokens today" in status_line(app)


def test_status_text_shortens_to_fit_80_columns() -> None:
    status = Status("daemon", "owner", "claude-sonnet-4-5", "claude-haiku-4-5",
                    "sentence-transformers/all-MiniLM-L6-v2", 1_234_567, None, 5.0)  # fmt: skip

    wide = status_text(status, UTC, 120)
    assert wide == (
        "● daemon │ claude-sonnet-4-5 / claude-haiku-4-5 │ embed all-MiniLM-L6-v2 │ "
        "1,234,567 tokens today │ last REM never"
    )
    narrow = status_text(status, UTC, 78)
    assert len(narrow) <= 78
    assert narrow.startswith("● daemon │ sonnet-4-5/haiku-4-5 │ 1,234,567 tok")


def test_status_line_says_when_the_background_budget_is_spent() -> None:
    at = datetime(2026, 3, 2, 14, 32, tzinfo=UTC)
    spent = BudgetState(date(2026, 3, 2), 500_000, 500_000, "owner", 500_000, 0, at,
                        resumes_at=datetime(2026, 3, 3, tzinfo=UTC))  # fmt: skip
    status = Status("daemon", "owner", "claude-sonnet-4-5", "claude-haiku-4-5", None, 1_234,
                    None, 5.0, background=spent)  # fmt: skip

    assert "1,234 tokens today (background budget spent)" in status_text(status, UTC, 160)
    narrow = status_text(status, UTC, 70)
    assert len(narrow) <= 70 and "1,234 tok today, bg spent" in narrow
    calm = dataclasses.replace(status, background=dataclasses.replace(spent, paused_at=None))
    assert "spent" not in status_text(calm, UTC, 160)


async def test_function_keys_switch_panes_and_focus_their_main_widget(app: KitApp) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.focused is not None and app.focused.id == "prompt"
        for key, focused in (("f2", "day-list"), ("f3", "fact-table"), ("f4", "rem-report-box"),
                             ("f1", "prompt")):  # fmt: skip
            await pilot.press(key)
            await settle(pilot)
            assert app.focused is not None and app.focused.id == focused


async def test_command_palette_lists_the_pane_actions_with_their_keys(
    kit: Kit, app: KitApp
) -> None:
    await kit.remember("Lives in Lisbon", category="person")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f3")
        await settle(pilot)
        await pilot.press("ctrl+p")
        await settle(pilot)
        assert isinstance(app.screen, CommandPalette)
        await pilot.press(*"deactivate")
        await settle(pilot)
        results = app.screen.query_one(CommandList)
        shown = [str(results.get_option_at_index(i).prompt) for i in range(results.option_count)]
        assert any("Deactivate" in s and "(key: d)" in s for s in shown), shown
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, Confirm)  # the command ran the same action as the key


async def test_a_daemon_that_is_not_there_is_a_notification_not_a_crash(tmp_path: Path) -> None:
    app = KitApp(SocketClient(tmp_path / "kit.sock"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press(*"hello", "enter")
        await settle(pilot)
        errors = [m for severity, m in notes(app) if severity == "error"]
        assert errors and all("cannot reach the Kit daemon" in m for m in errors)
        assert "connecting" in status_line(app)  # no status to show, and no traceback
        assert app.is_running


def test_failures_say_what_to_do() -> None:
    assert describe(NotFound("fact 9 does not exist")) == "fact 9 does not exist"
    assert describe(DaemonUnavailable("start it with `kit run`")) == "start it with `kit run`"
    gone = describe(ConnectionResetError("reset by peer"))
    assert gone.startswith("lost the connection to the Kit daemon (reset by peer)")
    assert "`kit run`" in gone
    bug = describe(ZeroDivisionError("division by zero"), Path("/d/logs/tui.log"))
    assert bug == (
        "unexpected error (ZeroDivisionError: division by zero); this is a bug in Kit, the "
        "traceback is in /d/logs/tui.log"
    )


def test_logs_go_to_a_file_while_the_ui_owns_the_terminal(tmp_path: Path) -> None:
    root = logging.getLogger()
    terminal = logging.StreamHandler()
    root.addHandler(terminal)
    try:
        with logs_to_file(tmp_path / "logs" / "tui.log"):
            assert terminal not in root.handlers
            logging.getLogger("kit.test").warning("a line for the file")
        assert terminal in root.handlers
    finally:
        root.removeHandler(terminal)
    assert "a line for the file" in (tmp_path / "logs" / "tui.log").read_text()


def test_status_line_says_how_far_a_re_embedding_got() -> None:
    from kit.retrieval.model_state import ReindexProgress

    job = ReindexProgress("sentence-transformers/all-MiniLM-L6-v2", "local/mpnet@0a1b2c3d4e5f",
                          None, 1_234, 5_094, True)  # fmt: skip
    status = Status("daemon", "owner", "claude-sonnet-4-5", "claude-haiku-4-5",
                    "sentence-transformers/all-MiniLM-L6-v2", 1_234, None, 5.0,
                    reindex=job)  # fmt: skip
    assert "embed all-MiniLM-L6-v2 (re-embedding 24%)" in status_text(status, UTC, 160)


async def test_reminders_digest_and_inbox_show_their_keys_beside_the_tabs(app: KitApp) -> None:
    """F5, F7 and F8 open screens, not tabs: their keys were on no label and in no footer.
    At 80 columns they sit right of the tab labels, each a click away from its screen."""
    from textual.widgets import Static, Tab

    from tui.digest import DigestScreen

    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        keys = app.query_one("#screen-keys", Static)
        shown = str(keys.render())
        assert all(k in shown for k in ("F5 Reminders", "F7 Digest", "F8 Inbox"))
        labels = max(t.region.right for t in app.query(Tab))
        assert keys.display and labels < keys.region.x and keys.region.right <= 80
        await pilot.click("#screen-keys", offset=(len("F5 Reminders  F"), 0))
        await settle(pilot)
        assert isinstance(app.screen, DigestScreen)


async def test_settle_outlasts_a_worker_replaced_by_a_newer_one(
    app: KitApp, local: LocalClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Why TUI tests failed under load: the reminders' check runs every 5 s, a newer check
    cancels the older one, and the tests' `settle` raised WorkerCancelled when the worker it
    waited on was the cancelled one. Replayed here by event, not by the clock: the interval's
    own checks are kept out (a loaded machine outlived its 5 s, and a third check ran)."""
    monkeypatch.setattr("tui.app.CHECK_SECONDS", 3600.0)  # longer than any test may run
    gate = asyncio.Event()
    asked: list[str] = []
    original = local.reminder_notices

    async def held(conversation: str) -> Any:
        asked.append(conversation)
        if len(asked) == 1:
            await gate.wait()  # the first check hangs until it is replaced
        return await original(conversation)

    monkeypatch.setattr(local, "reminder_notices", held)
    async with app.run_test(size=(80, 24)) as pilot:
        while not asked:
            await pilot.pause()
        settling = asyncio.create_task(settle(pilot))
        for _ in range(3):
            await asyncio.sleep(0)  # settle now waits on the first check's worker
        app._check_notices()  # the interval's next check: the first is cancelled
        await settling  # no WorkerCancelled
        assert len(asked) == 2
        gate.set()


async def test_a_key_right_after_a_tabs_reaches_the_tab_just_shown(app: KitApp) -> None:
    """F3 then i, both already waiting (a quick typist, a loaded machine): the i went to the
    chat's prompt, which still had the keyboard, instead of the facts pane."""
    from textual import events
    from textual.widgets import Checkbox, Input

    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert pilot.app._driver is not None
        for key, char in (("f3", None), ("i", "i")):
            event = events.Key(key, char)
            event.set_sender(app)
            pilot.app._driver.send_message(event)  # both queued before either is handled
        await settle(pilot)
        assert app.query_one("#prompt", Input).value == ""
        assert app.query_one("#fact-inactive", Checkbox).value is True
