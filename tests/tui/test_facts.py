"""The facts pane and a fact's history against the real engine: filters, history,
deactivation behind a confirmation (recorded in history), undo of a pass."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from textual.pilot import Pilot
from textual.widgets import Checkbox, DataTable, Input, OptionList, Select, Static

from kit.api import Kit
from kit.curator.ops import Insert, Update
from kit.memory.fact_rows import Fact
from kit.memory.fact_writer import Provenance
from tui.app import KitApp
from tui.dialogs import Confirm, Pick
from tui.fact_history import FactHistoryScreen
from tui.facts import FactsPane

from .conftest import notes, settle


@pytest.fixture
async def facts(kit: Kit) -> list[Fact]:
    ana = await kit.remember("Lives in Lisbon", category="person", subject="Ana", confidence=0.95)
    coffee = await kit.remember(
        "Oat-milk flat white, no sugar",
        category="preferences",
        subject="coffee",
        confidence=0.8,
        expires_at=datetime(2026, 6, 1, tzinfo=UTC),
    )
    old = await kit.remember("Works at Acme", category="projects", confidence=0.6)
    old = (await kit.forget_fact(old.id, reason="left Acme in January")).fact
    return [ana, coffee, old]


async def open_facts(app: KitApp, pilot: Pilot[None]) -> DataTable[object]:
    await pilot.press("f3")
    await settle(pilot)
    table: DataTable[object] = app.query_one("#fact-table", DataTable)
    return table


def rows(table: DataTable[object]) -> list[list[str]]:
    return [[str(cell) for cell in table.get_row_at(i)] for i in range(table.row_count)]


@pytest.mark.usefixtures("facts")
async def test_table_shows_active_facts_with_confidence_expiry_and_last_use(
    app: KitApp, facts: list[Fact]
) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        table = await open_facts(app, pilot)
        assert app.focused is table
        ana, coffee, _ = facts
        assert rows(table) == [
            [str(ana.id), "person", "", "Ana: Lives in Lisbon", "0.95", "—", "never"],
            [
                str(coffee.id),
                "preferences",
                "",
                "coffee: Oat-milk flat white, no sugar",
                "0.80",
                "2026-06-01",
                "never",
            ],
        ]


async def test_the_table_shows_which_facts_are_pinned_and_which_are_the_owners(
    kit: Kit, app: KitApp
) -> None:
    """Issue 20: the table did not say which facts were pinned; the curator and REM leave
    those, and the owner's own (kit facts add / edit), alone, so it says so."""
    learned = await kit.remember("Drinks green tea", category="preferences")
    pinned = (await kit.add_fact("Allergic to penicillin", pinned=True)).fact
    written = (await kit.add_fact("Born in Porto")).fact
    async with app.run_test(size=(120, 40)) as pilot:
        table = await open_facts(app, pilot)
        held = {r[0]: r[2] for r in rows(table)}
        header = [str(c.label) for c in table.columns.values()]
    assert header[:4] == ["#", "category", "held", "fact"]
    assert held == {str(learned.id): "", str(pinned.id): "pinned", str(written.id): "yours"}


async def test_filters_by_inactive_category_and_text(app: KitApp, facts: list[Fact]) -> None:
    ana, coffee, old = facts
    async with app.run_test(size=(80, 24)) as pilot:
        table = await open_facts(app, pilot)
        await pilot.press("i")
        await settle(pilot)
        assert app.query_one("#fact-inactive", Checkbox).value
        assert [r[0] for r in rows(table)] == [str(ana.id), str(coffee.id), str(old.id)]

        await pilot.press("c")  # the category list opens; pick "projects" by keyboard
        await settle(pilot)
        await pilot.press("down", "down", "down", "down", "enter")
        await settle(pilot)
        assert app.query_one("#fact-category", Select).value == "projects"
        assert [r[0] for r in rows(table)] == [str(old.id)]

        app.query_one("#fact-category", Select).clear()
        await pilot.press("slash")
        assert app.focused is app.query_one("#fact-filter", Input)
        await pilot.press(*"lisbon")  # letters that are pane keys go into the input
        await settle(pilot)
        assert [r[0] for r in rows(table)] == [str(ana.id)]
        await pilot.press("enter")  # back to the table
        assert app.focused is table


async def test_opening_a_fact_shows_its_history(app: KitApp, facts: list[Fact]) -> None:
    old = facts[2]
    async with app.run_test(size=(80, 24)) as pilot:
        await open_facts(app, pilot)
        await pilot.press("i")
        await settle(pilot)
        await pilot.press("down", "down", "o")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, FactHistoryScreen)
        details = str(screen.query_one("#fact-details", Static).render())
        assert f"#{old.id} [projects] Works at Acme" in details
        assert "inactive" in details
        history: DataTable[object] = screen.query_one("#history-table", DataTable)
        assert [r[1:3] + r[4:] for r in rows(history)] == [
            ["owner", "deactivate", "left Acme in January"],
            ["api", "insert", "written through the API"],
        ]
        change = str(screen.query_one("#change-text", Static).render())
        assert "active: True → False" in change
        await pilot.press("escape")
        assert isinstance(app.query_one(FactsPane), FactsPane)
        assert not isinstance(app.screen, FactHistoryScreen)


async def test_deactivate_asks_first_and_records_who_and_why(
    kit: Kit, app: KitApp, facts: list[Fact]
) -> None:
    ana = facts[0]
    async with app.run_test(size=(80, 24)) as pilot:
        table = await open_facts(app, pilot)
        await pilot.press("d")
        await settle(pilot)
        assert isinstance(app.screen, Confirm)
        reason = app.screen.query_one("#reason", Input)
        reason.value = "moved to Porto"
        await pilot.press("ctrl+y")
        await settle(pilot)
        assert not isinstance(app.screen, Confirm)
        assert [r[0] for r in rows(table)] == [str(facts[1].id)]
        assert (
            "information",
            f"fact #{ana.id} deactivated; its history keeps what it said (pass "
            f"{(await kit.fact_history(ana.id))[-1].pass_id}: its history can undo it)",
        ) in notes(app)
    history = await kit.fact_history(ana.id)
    assert (history[-1].actor, history[-1].operation, history[-1].reason) == (
        "owner",
        "deactivate",
        "moved to Porto",
    )


async def test_cancelled_deactivation_changes_nothing(
    kit: Kit, app: KitApp, facts: list[Fact]
) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        await open_facts(app, pilot)
        await pilot.press("d")
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
    assert [f.id for f in await kit.facts()] == [facts[0].id, facts[1].id]
    assert len(await kit.fact_history(facts[0].id)) == 1


async def test_deactivate_from_the_history_screen(kit: Kit, app: KitApp, facts: list[Fact]) -> None:
    coffee = facts[1]
    async with app.run_test(size=(80, 24)) as pilot:
        await open_facts(app, pilot)
        await pilot.press("down", "o")
        await settle(pilot)
        await pilot.press("d")
        await settle(pilot)
        await pilot.press("enter")  # the reason input is prefilled: enter confirms
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, FactHistoryScreen)
        history: DataTable[object] = screen.query_one("#history-table", DataTable)
        assert rows(history)[0][1:3] == ["owner", "deactivate"]  # the screen reloaded
    assert not (await kit.services.facts.get("owner", coffee.id)).active


async def test_undo_a_curation_pass_from_a_facts_history(
    kit: Kit, app: KitApp, facts: list[Fact]
) -> None:
    ana = facts[0]
    # Held with confidence 0.95, a rewrite of it waits for the owner (kit/inbox/); this one
    # is only sure enough to be rewritten at once.
    ana = await kit.services.facts.update("owner", ana.id, Provenance("api"), confidence=0.8)
    applied = await kit.services.curator.apply_ops(
        "owner",
        "person",
        [Update(ana.id, content="Lives in Porto")],
        kind="curate",
        source_message_ids=[],
    )
    pass_id = applied.pass_id
    async with app.run_test(size=(80, 24)) as pilot:
        await open_facts(app, pilot)
        await pilot.press("o")
        await settle(pilot)
        history: DataTable[object] = app.screen.query_one("#history-table", DataTable)
        assert rows(history)[0][1:4] == ["curator", "update", f"pass {pass_id}"]
        await pilot.press("u")
        await settle(pilot)
        assert isinstance(app.screen, Confirm)
        await pilot.press("ctrl+y")
        await settle(pilot)
        assert ("information", f"pass {pass_id} undone: 1 fact restored, 0 facts it had added "
                "deactivated") in notes(app)  # fmt: skip
        assert rows(history)[0][1:4] == ["owner", "undo", f"pass {pass_id + 1}"]
    assert (await kit.services.facts.get("owner", ana.id)).content == "Lives in Lisbon"


async def test_undo_lists_the_passes_to_choose_from_newest_first(
    kit: Kit, app: KitApp, facts: list[Fact]
) -> None:
    """`u` lists the passes that can be undone (not asking for a number nobody knows)."""
    eve = await kit.services.curator.apply_ops(
        "owner", "people", [Insert("Eve, a cousin", 0.9, "Eve")], kind="curate",
        source_message_ids=[],
    )  # fmt: skip
    porto = await kit.services.curator.apply_ops(
        "owner", "person", [Update(facts[0].id, content="Lives in Porto")], kind="curate",
        source_message_ids=[],
    )  # fmt: skip
    retired = (await kit.fact_history(facts[2].id))[-1].pass_id  # the owner's, in the fixture
    async with app.run_test(size=(80, 24)) as pilot:
        await open_facts(app, pilot)
        assert len(rows(app.query_one("#fact-table", DataTable))) == 3
        await pilot.press("u")
        await settle(pilot)
        assert isinstance(app.screen, Pick)
        listed = [str(o.prompt) for o in app.screen.query_one(OptionList).options]
        assert [line.split()[1] for line in listed] == [
            str(porto.pass_id),
            str(eve.pass_id),
            str(retired),
        ]
        assert "curate people" in listed[1] and "1 change" in listed[1]
        assert "owner projects" in listed[2] and f"retire #{facts[2].id}" in listed[2]
        await pilot.press("down", "enter")  # the older one: Eve
        await settle(pilot)
        assert isinstance(app.screen, Confirm)
        await pilot.press("ctrl+y")
        await settle(pilot)
        assert len(rows(app.query_one("#fact-table", DataTable))) == 2  # Eve is gone again
        await pilot.press("u")
        await settle(pilot)
        listed = [str(o.prompt) for o in app.screen.query_one(OptionList).options]
        assert [line.split()[1] for line in listed] == [str(porto.pass_id), str(retired)]
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, Pick)


async def test_with_no_pass_to_undo_it_says_so(app: KitApp) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        await open_facts(app, pilot)
        await pilot.press("u")
        await settle(pilot)
        assert not isinstance(app.screen, Pick)
        assert notes(app)[-1] == (
            "information",
            "no curation pass to undo: none has changed a fact yet",
        )
