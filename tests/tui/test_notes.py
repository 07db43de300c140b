"""The notes pane against the real engine: notes by name with their descriptions, the chosen
note's text with line numbers, and an empty state that says how to add one."""

from __future__ import annotations

from textual.widgets import OptionList, Static, TextArea

from kit.api import Kit
from tui.app import KitApp
from tui.notes import EMPTY

from .conftest import settle


def shown(app: KitApp) -> tuple[str, str]:
    header = str(app.query_one("#note-header", Static).render())
    return header, app.query_one("#note-body", TextArea).text


async def test_notes_are_listed_and_the_chosen_one_is_shown(app: KitApp, kit: Kit) -> None:
    await kit.add_note("# Jam\n\n- quince\n- sugar", name="jam")
    await kit.add_note("# Lisbon weekend\n- passport", name="trip", description="Packing list")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f6")
        await settle(pilot)
        options = app.query_one("#note-list", OptionList)
        prompts = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        assert prompts == ["jam\n  Jam", "trip\n  Packing list"]
        assert app.focused is options
        header, body = shown(app)
        assert header.startswith("jam · 4 lines · 23 bytes · updated ") and header.endswith("Jam")
        assert body == "# Jam\n\n- quince\n- sugar"
        await pilot.press("down")
        await settle(pilot)
        assert shown(app)[1] == "# Lisbon weekend\n- passport"
        await pilot.press("enter")  # into the text, to scroll it
        await settle(pilot)
        assert app.focused is app.query_one("#note-body", TextArea)
        await pilot.press("escape")
        await settle(pilot)
        assert app.focused is options


async def test_without_notes_the_pane_says_how_to_add_one(app: KitApp) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f6")
        await settle(pilot)
        assert shown(app) == (EMPTY, "")
        assert "kit notes add FILE" in EMPTY and "Telegram" in EMPTY


async def test_a_note_added_meanwhile_appears_on_reload(app: KitApp, kit: Kit) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f6")
        await settle(pilot)
        await kit.add_note("milk\neggs", name="shopping")
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert shown(app)[1] == "milk\neggs"
