"""The days pane against the real engine: newest first with a gist, detailed/condensed, jump."""

from __future__ import annotations

from datetime import date

import pytest
from textual.pilot import Pilot
from textual.widgets import Markdown, OptionList, Static

from kit.api import Kit
from tui.app import KitApp
from tui.days import DaysPane

from .conftest import notes, settle


@pytest.fixture
async def three_days(kit: Kit) -> None:
    days = kit.services.days
    await days.put_detailed("owner", date(2026, 2, 20), "- Planted tomatoes\n- Rain all day", 12)
    await days.put_condensed("owner", date(2026, 2, 20), "- Tomatoes planted")
    await days.put_detailed("owner", date(2026, 3, 1), "- Baked sourdough\n- Called Rui", 30)
    await days.put_detailed("owner", date(2026, 2, 25), "- Fixed the sync bug", 8)


async def open_days(app: KitApp, pilot: Pilot[None]) -> DaysPane:
    await pilot.press("f2")
    await settle(pilot)
    return app.query_one(DaysPane)


def shown(app: KitApp) -> tuple[str, str]:
    header = str(app.query_one("#day-header", Static).render())
    return header, app.query_one("#day-body", Markdown).source


@pytest.mark.usefixtures("three_days")
async def test_days_are_listed_newest_first_with_a_gist(app: KitApp) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        await open_days(app, pilot)
        options = app.query_one("#day-list", OptionList)
        prompts = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        assert prompts == [
            "2026-03-01  Baked sourdough",
            "2026-02-25  Fixed the sync b…",  # clipped to fit the list at 80 columns
            "2026-02-20  Tomatoes planted",  # the gist is the condensed summary once there
        ]
        assert app.focused is options
        header, body = shown(app)
        assert header.startswith("Sunday 1 March 2026 · detailed · 30 messages")
        assert body == "- Baked sourdough\n- Called Rui"


@pytest.mark.usefixtures("three_days")
async def test_selecting_a_day_and_toggling_detailed_and_condensed(app: KitApp) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        await open_days(app, pilot)
        await pilot.press("down", "down")
        await settle(pilot)
        header, body = shown(app)
        assert header.startswith("Friday 20 February 2026 · detailed · 12 messages · condensed")
        assert body == "- Planted tomatoes\n- Rain all day"
        await pilot.press("t")
        await settle(pilot)
        header, body = shown(app)
        assert "· condensed ·" in header
        assert body == "- Tomatoes planted"
        await pilot.press("up")  # a day REM has not condensed yet says so
        await settle(pilot)
        assert "No condensed summary yet" in shown(app)[1]
        await pilot.press("t")
        await settle(pilot)
        assert shown(app)[1] == "- Fixed the sync bug"


@pytest.mark.usefixtures("three_days")
async def test_jump_to_a_date(app: KitApp) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        await open_days(app, pilot)
        await pilot.press("g", *"2026-02-25", "enter")
        await settle(pilot)
        assert shown(app)[0].startswith("Wednesday 25 February 2026")
        assert app.query_one("#day-list", OptionList).highlighted == 1


@pytest.mark.usefixtures("three_days")
async def test_jump_to_a_day_without_summary_or_a_non_date_says_so(app: KitApp) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        await open_days(app, pilot)
        await pilot.press("g", *"2026-01-01", "enter")
        await settle(pilot)
        assert notes(app)[-1][0] == "warning"
        assert "no summary for 2026-01-01" in notes(app)[-1][1]
        await pilot.press("g", *"yesterday", "enter")
        await settle(pilot)
        assert notes(app)[-1] == (
            "error",
            "'yesterday' is not a date; type it as YYYY-MM-DD, e.g. 2026-03-01",
        )
        assert shown(app)[0].startswith("Sunday 1 March 2026")  # still where it was


async def test_a_day_summarised_after_opening_shows_up_after_reload(kit: Kit, app: KitApp) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        await open_days(app, pilot)
        assert "No day summaries yet" in shown(app)[0]
        await kit.services.days.put_detailed("owner", date(2026, 3, 1), "- Late entry", 3)
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert shown(app)[1] == "- Late entry"
