"""The main screens of the TUI on the demo data, as pilot scripts: shared by the snapshot tests
and by `python -m tests.tui.scenes DIR`, which writes the screenshots of docs/tui.md."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable
from datetime import UTC
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Input
from textual.worker import Worker, WorkerCancelled

from tests.tui.demo import DemoClient
from tui.app import FOLLOW_GROUP, KitApp
from tui.chat import ChatPane, EarlierSummary, MemoryNote
from tui.dialogs import Confirm, Pick
from tui.fact_form import FactForm

Scene = Callable[[Pilot[None]], Awaitable[None]]
MAX_ROUNDS = 8  # rounds of waiting for workers and the screen, at most


async def settle(pilot: Pilot[None]) -> None:
    """Let every running worker finish and the screen catch up with what they changed: a
    round waits for the workers, then for the screen to go idle (each idle wait is at least
    20 ms of sleep: most of a TUI test). Settled is two quiet rounds in a row, neither with a
    worker to wait for: a message that bubbles up hop by hop (a checkbox's change reaching
    its pane, which starts a reload) may start work after one pass over the screen.

    A worker may be cancelled while it is waited on: a newer one of its group replaced it
    (the reminders' check runs every 5 s, and a test on a loaded machine outlives that). Its
    successor is waited on in the next round; a worker that failed still fails the test."""
    quiet = 0
    for _ in range(MAX_ROUNDS):
        # A blinking cursor is drawn or not depending on the moment the picture is taken.
        for field in pilot.app.screen.query(Input):
            field.cursor_blink = False
        busy = _busy(pilot)
        if busy:  # (an empty list would mean "all of them")
            ended = await asyncio.gather(*(w.wait() for w in busy), return_exceptions=True)
            for error in ended:
                if isinstance(error, BaseException) and not isinstance(error, WorkerCancelled):
                    raise error
        await pilot.wait_for_scheduled_animations()
        quiet = quiet + 1 if not busy and not _busy(pilot) else 0
        if quiet == 2:
            break
    for field in pilot.app.screen.query(Input):  # a screen the last round opened
        field.cursor_blink = False


def _busy(pilot: Pilot[None]) -> list[Worker[object]]:
    """The workers still to finish: all but the one that follows the engine as long as the
    app runs."""
    return [w for w in pilot.app.workers if w.group != FOLLOW_GROUP and not w.is_finished]


async def wait_until(pilot: Pilot[None], ready: Callable[[], bool], what: str) -> None:
    """Wait on a condition, not on a guess of how long it takes: a loaded machine is slow."""
    async with asyncio.timeout(30):
        while not ready():
            await pilot.pause(0.02)
    await settle(pilot)
    assert ready(), what


async def chat(pilot: Pilot[None]) -> None:
    await settle(pilot)
    prompt = pilot.app.query_one("#prompt", Input)
    prompt.value = "Where should I take Ana for coffee?"  # quicker than typing it key by key
    await pilot.press("enter")
    # The reply is done when its memory note is mounted (the last thing the turn does).
    await wait_until(pilot, lambda: bool(pilot.app.query(MemoryNote)), "the reply finished")
    await pilot.press("ctrl+o")  # open the note of what memory the reply used
    transcript = pilot.app.query_one(ChatPane).transcript

    def in_view() -> bool:  # open, laid out, and scrolled into view (after a refresh)
        note = pilot.app.query(MemoryNote).last()
        return not note.collapsed and transcript.scroll_y == transcript.max_scroll_y

    await wait_until(pilot, in_view, "the note is open and in view")


async def chat_summary(pilot: Pilot[None]) -> None:
    """A reopened chat (its latest messages), with the summary of older ones shown."""
    await settle(pilot)
    await pilot.press("ctrl+s")
    await wait_until(pilot, lambda: bool(pilot.app.query(EarlierSummary)), "the summary shows")


async def daemon_lost(pilot: Pilot[None]) -> None:
    """What the owner sees the moment the daemon stops under the TUI."""
    await settle(pilot)
    assert isinstance(pilot.app, KitApp)
    pilot.app.announce_lost(15)
    await settle(pilot)


async def days(pilot: Pilot[None]) -> None:
    await settle(pilot)
    await pilot.press("f2")
    await settle(pilot)
    await pilot.press("down")  # a day REM has condensed
    await settle(pilot)


async def facts(pilot: Pilot[None]) -> None:
    # The app settled, the tab, then its key: a picture is of the pane, not of how quickly keys
    # follow a tab (test_app.py's test_a_key_right_after_a_tabs_reaches_the_tab_just_shown).
    await settle(pilot)
    await pilot.press("f3")
    await settle(pilot)
    await pilot.press("i")  # inactive facts too
    await settle(pilot)


async def fact_history(pilot: Pilot[None]) -> None:
    await facts(pilot)
    await pilot.press("o")
    await settle(pilot)


async def deactivate(pilot: Pilot[None]) -> None:
    await settle(pilot)
    await pilot.press("f3")
    await settle(pilot)
    await pilot.press("down", "down", "d")
    await settle(pilot)


async def undo_pass(pilot: Pilot[None]) -> None:
    await settle(pilot)
    await pilot.press("f3")
    await settle(pilot)
    await pilot.press("u")  # the passes that can be undone, to choose from
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, Pick), "the list is open")


async def add_fact(pilot: Pilot[None]) -> None:
    await settle(pilot)
    await pilot.press("f3")
    await settle(pilot)
    await pilot.press("a")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, FactForm), "the form is open")
    pilot.app.screen.query_one("#form-content", Input).value = "Allergic to peanuts"
    pilot.app.screen.query_one("#form-expires", Input).value = "2026-12-31"
    await settle(pilot)


async def edit_fact(pilot: Pilot[None]) -> None:
    await settle(pilot)
    await pilot.press("f3")
    await settle(pilot)
    await pilot.press("down", "down", "e")  # the coffee preference
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, FactForm), "the form is open")


async def pin_fact(pilot: Pilot[None]) -> None:
    await settle(pilot)
    await pilot.press("f3")
    await settle(pilot)
    await pilot.press("p")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, Confirm), "the dialog is open")


async def rem(pilot: Pilot[None]) -> None:
    await settle(pilot)
    await pilot.press("f4")
    await settle(pilot)
    await pilot.press("n")  # a dry run
    await settle(pilot)


async def reminders(pilot: Pilot[None]) -> None:
    await settle(pilot)
    await pilot.press("f5")
    await settle(pilot)


async def notes(pilot: Pilot[None]) -> None:
    await settle(pilot)
    await pilot.press("f6")
    await settle(pilot)
    await pilot.press("down")  # the second note
    await settle(pilot)


async def digest(pilot: Pilot[None]) -> None:
    await settle(pilot)
    await pilot.press("f7")
    await settle(pilot)
    await pilot.press("down")  # a fact's line
    await settle(pilot)


SCENES: dict[str, Scene] = {
    "chat": chat,
    "chat-summary": chat_summary,
    "daemon-lost": daemon_lost,
    "days": days,
    "facts": facts,
    "fact-history": fact_history,
    "deactivate": deactivate,
    "undo-pass": undo_pass,
    "add-fact": add_fact,
    "edit-fact": edit_fact,
    "pin-fact": pin_fact,
    "rem": rem,
    "reminders": reminders,
    "notes": notes,
    "digest": digest,
}


def demo_app() -> KitApp:
    return KitApp(DemoClient(mode="daemon"), tz=UTC)


async def _write(folder: Path, size: tuple[int, int]) -> None:
    for name, scene in SCENES.items():
        app = demo_app()
        async with app.run_test(size=size) as pilot:
            await scene(pilot)
            svg = app.export_screenshot(title=f"kit tui: {name}")
        (folder / f"{name}.svg").write_text(svg)
        print(folder / f"{name}.svg")


if __name__ == "__main__":
    target = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots")
    target.mkdir(parents=True, exist_ok=True)
    asyncio.run(_write(target, (100, 30)))
