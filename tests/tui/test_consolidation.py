"""The consolidation pane against the real REM: progress per step while it runs, the report,
dry runs that change nothing, and the last stored report."""

from __future__ import annotations

import asyncio
from datetime import date

import pytest
from textual.widgets import Markdown, Static

from kit.api import Kit
from kit.llm.fake import FakeLLM
from tui.app import KitApp
from tui.consolidation import StepLine
from tui.status import StatusLine

from .conftest import GatedLLM, settle

SAT, SUN = date(2026, 2, 28), date(2026, 3, 1)


def bullets(n: int, word: str = "item") -> str:
    return "\n".join(f"- {word} {i}" for i in range(1, n + 1))


@pytest.fixture
async def two_days(kit: Kit) -> None:
    for day in (SAT, SUN):
        await kit.services.days.put_detailed("owner", day, bullets(20, f"{day} detail"), 30)


def steps(app: KitApp) -> dict[str, str]:
    return {line.step: line.state for line in app.query(StepLine)}


def report(app: KitApp) -> str:
    return app.query_one("#rem-report", Markdown).source


@pytest.mark.usefixtures("two_days")
async def test_run_rem_shows_each_step_running_then_the_report(
    kit: Kit, app: KitApp, fake_llm: FakeLLM, gated: GatedLLM
) -> None:
    fake_llm.queue(bullets(10, "sat"), bullets(10, "sun"))
    gated.hold()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f4")
        await settle(pilot)
        assert "REM has not run yet" in report(app)
        await pilot.press("r")
        await asyncio.wait_for(gated.waiting.wait(), 5)
        await pilot.pause()
        assert steps(app) == {
            "condense": "running",
            "review": "waiting",
            "copies": "waiting",
            "expire": "waiting",
        }
        assert str(app.query_one("#rem-state", Static).render()) == "REM running…"
        gated.release()
        await settle(pilot)
        assert steps(app) == {
            "condense": "done",
            "review": "skipped",
            "copies": "skipped",
            "expire": "skipped",
        }
        text = report(app)
        assert text.startswith("## REM: just now")
        assert "**Condensed days:** 2026-02-28, 2026-03-01" in text
        assert "- condensed 2026-02-28 (20 -> 10 bullets)" in text
        status = app.query_one(StatusLine).status
        assert status is not None and status.last_rem_at is not None  # the status line caught up
    sun = await kit.day(SUN)
    assert sun is not None and sun.condensed == bullets(10, "sun")


@pytest.mark.usefixtures("two_days")
async def test_dry_run_reports_plans_and_changes_nothing(
    kit: Kit, app: KitApp, fake_llm: FakeLLM
) -> None:
    fake_llm.queue(bullets(10, "sat"), bullets(10, "sun"))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("f4")
        await settle(pilot)
        await pilot.press("n")
        await settle(pilot)
        text = report(app)
        assert text.startswith("## Dry run: what REM would do")
        assert "(dry run: nothing was changed)" in text
        assert "### Planned changes" in text
        assert "- would condense 2026-03-01 (20 -> 10 bullets)" in text
    assert [d.day for d in await kit.services.days.uncondensed("owner")] == [SAT, SUN]
    assert await kit.services.rem.last_report("owner") is None


@pytest.mark.usefixtures("two_days")
async def test_the_last_stored_report_shows_on_opening(
    kit: Kit, app: KitApp, fake_llm: FakeLLM
) -> None:
    fake_llm.queue(bullets(10, "sat"), "not bullets at all")
    await kit.services.rem.run("owner")  # as the nightly job would
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f4")
        await settle(pilot)
        text = report(app)
        assert text.startswith("## Last REM")
        assert "**Condensed days:** 2026-02-28" in text
        assert "### Rejected" in text
        assert "- condense 2026-03-01:" in text
