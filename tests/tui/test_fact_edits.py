"""The owner writes facts from the TUI against the real engine: add and edit through the
form, pin and unpin behind a confirmation; each stored as an undoable pass and shown in the
fact's history at once. Refusals keep the form open with what was typed."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from textual.pilot import Pilot
from textual.widgets import Checkbox, DataTable, Input, Select

from kit.api import Kit
from kit.memory.fact_rows import Fact
from tui.app import KitApp
from tui.dialogs import Confirm
from tui.fact_form import FactForm
from tui.fact_history import FactHistoryScreen

from .conftest import notes, settle
from .test_facts import open_facts, rows


@pytest.fixture
async def facts(kit: Kit) -> list[Fact]:
    ana = await kit.remember("Lives in Lisbon", category="person", subject="Ana", confidence=0.9)
    tea = await kit.remember("Likes green tea", category="preferences", confidence=0.7)
    return [ana, tea]


async def open_form(app: KitApp, pilot: Pilot[None], *keys: str) -> FactForm:
    await pilot.press(*keys)
    await settle(pilot)
    assert isinstance(app.screen, FactForm)
    return app.screen


@pytest.mark.usefixtures("facts")
async def test_add_through_the_form_stores_the_owners_fact(kit: Kit, app: KitApp) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        table = await open_facts(app, pilot)
        form = await open_form(app, pilot, "a")
        form.query_one("#form-content", Input).value = "Allergic to peanuts"
        form.query_one("#form-subject", Input).value = "health"
        form.query_one("#form-category", Select).value = "person"
        form.query_one("#form-expires", Input).value = "2027-01-31"
        form.query_one("#form-pin", Checkbox).value = True
        await pilot.press("ctrl+y")
        await settle(pilot)
        assert not isinstance(app.screen, FactForm)
        (added,) = [f for f in await kit.facts() if f.content == "Allergic to peanuts"]
        assert str(added.id) in [r[0] for r in rows(table)]  # the table reloaded
        assert notes(app)[-1][0] == "information" and f"fact #{added.id} added" in notes(app)[-1][1]
    assert (added.subject, added.category, added.pinned, added.owner_written) == (
        "health",
        "person",
        True,
        True,
    )
    assert added.confidence == 1.0
    assert added.expires_at == datetime(2027, 2, 1, tzinfo=UTC)  # holds through 31 January
    (entry,) = await kit.fact_history(added.id)
    assert (entry.actor, entry.operation) == ("owner", "insert") and entry.pass_id is not None


@pytest.mark.usefixtures("facts")
async def test_a_refused_add_keeps_the_form_open_and_stores_nothing(kit: Kit, app: KitApp) -> None:
    before = await kit.facts(include_inactive=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_facts(app, pilot)
        form = await open_form(app, pilot, "a")
        secret = "My bank PIN is 4921"
        form.query_one("#form-content", Input).value = secret
        await pilot.press("ctrl+y")
        await settle(pilot)
        assert app.screen is form  # still open, the text still there to fix
        assert form.query_one("#form-content", Input).value == secret
        severity, message = notes(app)[-1]
        assert severity == "error" and "never keeps secrets" in message and "4921" not in message

        form.query_one("#form-content", Input).value = "Banks with Caixa"
        form.query_one("#form-expires", Input).value = "someday"
        await pilot.press("ctrl+y")
        await settle(pilot)
        assert app.screen is form
        assert notes(app)[-1] == ("warning", "the last day must be a date, YYYY-MM-DD")

        form.query_one("#form-expires", Input).value = "2020-01-01"
        await pilot.press("ctrl+y")
        await settle(pilot)
        assert app.screen is form
        assert notes(app)[-1] == ("error", "the expiry date 2020-01-01 is already past")
        await pilot.press("escape")
        await settle(pilot)
    assert await kit.facts(include_inactive=True) == before


async def test_edit_in_place_from_the_history_shows_the_change_at_once(
    kit: Kit, app: KitApp, facts: list[Fact]
) -> None:
    ana = facts[0]
    async with app.run_test(size=(80, 24)) as pilot:
        await open_facts(app, pilot)
        await pilot.press("o")
        await settle(pilot)
        history_screen = app.screen
        assert isinstance(history_screen, FactHistoryScreen)
        form = await open_form(app, pilot, "e")
        content = form.query_one("#form-content", Input)
        assert content.value == "Lives in Lisbon"  # the form starts from the fact
        assert form.query_one("#form-subject", Input).value == "Ana"
        content.value = "Lives in Porto"
        await pilot.press("enter")  # enter in a field saves, like ctrl+y
        await settle(pilot)
        assert app.screen is history_screen
        history: DataTable[object] = history_screen.query_one("#history-table", DataTable)
        (newest, *_) = rows(history)
        pass_id = (await kit.fact_history(ana.id))[-1].pass_id
        assert newest[1:4] == ["owner", "edit", f"pass {pass_id}"]
        assert "written by you" in str(history_screen.query_one("#fact-details").render())
    fact = await kit.services.facts.get("owner", ana.id)
    assert (fact.content, fact.subject, fact.owner_written) == ("Lives in Porto", "Ana", True)


async def test_edit_can_clear_the_expiry_and_an_unchanged_form_changes_nothing(
    kit: Kit, app: KitApp
) -> None:
    trip = (await kit.add_fact("Is in Japan", category="person", expires=date(2026, 4, 30))).fact
    async with app.run_test(size=(80, 24)) as pilot:
        await open_facts(app, pilot)
        form = await open_form(app, pilot, "e")
        expires = form.query_one("#form-expires", Input)
        assert expires.value == "2026-04-30"  # the last day, in the owner's zone
        await pilot.press("ctrl+y")
        await settle(pilot)
        assert app.screen is form
        assert notes(app)[-1] == (
            "error",
            f"fact #{trip.id} already says that; nothing was changed",
        )
        expires.value = ""
        await pilot.press("ctrl+y")
        await settle(pilot)
        assert not isinstance(app.screen, FactForm)
    assert (await kit.services.facts.get("owner", trip.id)).expires_at is None


async def test_pin_and_unpin_ask_first_and_are_recorded(
    kit: Kit, app: KitApp, facts: list[Fact]
) -> None:
    ana = facts[0]
    async with app.run_test(size=(80, 24)) as pilot:
        await open_facts(app, pilot)
        await pilot.press("p")
        await settle(pilot)
        assert isinstance(app.screen, Confirm)
        await pilot.press("escape")  # cancelled: nothing changes
        await settle(pilot)
        assert not (await kit.services.facts.get("owner", ana.id)).pinned
        await pilot.press("p")
        await settle(pilot)
        await pilot.press("ctrl+y")
        await settle(pilot)
        assert (await kit.services.facts.get("owner", ana.id)).pinned
        await pilot.press("p")  # the same key unpins, after asking again
        await settle(pilot)
        assert isinstance(app.screen, Confirm)
        await pilot.press("ctrl+y")
        await settle(pilot)
    fact = await kit.services.facts.get("owner", ana.id)
    assert not fact.pinned and not fact.owner_written  # the curator's again
    assert [h.operation for h in await kit.fact_history(ana.id)] == ["insert", "pin", "unpin"]


async def test_an_owner_change_is_undone_from_the_facts_history(
    kit: Kit, app: KitApp, facts: list[Fact]
) -> None:
    tea = facts[1]
    edited = await kit.edit_fact(tea.id, "Likes jasmine tea")
    async with app.run_test(size=(80, 24)) as pilot:
        await open_facts(app, pilot)
        await pilot.press("down", "o")
        await settle(pilot)
        await pilot.press("u")  # the newest row: the owner's edit
        await settle(pilot)
        assert isinstance(app.screen, Confirm)
        await pilot.press("ctrl+y")
        await settle(pilot)
        history: DataTable[object] = app.screen.query_one("#history-table", DataTable)
        assert rows(history)[0][1:3] == ["owner", "undo"]
    assert edited.fact.content == "Likes jasmine tea"
    assert await kit.services.facts.get("owner", tea.id) == tea
