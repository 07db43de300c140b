"""The memory digest in the TUI (F7) on the real engine: the day's passes with a line per fact,
the days before and after, and the Telegram buttons' actions behind a confirmation; the inbox
questions that wait first, answered on the inbox screen (F8)."""

from __future__ import annotations

from textual.widgets import OptionList, Static

from kit.api import Kit
from kit.clock import FakeClock
from tests.support.digest import USER, a_day_of_curation, a_question, at
from tests.tui.conftest import notes, settle
from tests.tui.scenes import wait_until
from tui.app import KitApp
from tui.digest import DigestScreen
from tui.inbox import InboxScreen


def rows(app: KitApp) -> list[str]:
    listing = app.screen.query_one("#digest-list", OptionList)
    return [str(listing.get_option_at_index(i).prompt) for i in range(listing.option_count)]


def heading(app: KitApp) -> str:
    return str(app.screen.query_one("#digest-title", Static).render())


async def test_the_digest_shows_the_days_passes_and_pins_and_undoes_from_there(
    app: KitApp, kit: Kit, clock: FakeClock
) -> None:
    day = await a_day_of_curation(kit, clock)
    learned = day.curation.inserted_fact_ids[0]
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot)
        await pilot.press("f7")
        await settle(pilot)
        assert isinstance(app.screen, DigestScreen)
        assert heading(app) == "Memory digest for Monday 2 March 2026 (since Sun 21:00)"
        shown = rows(app)
        assert shown[0] == f"Pass {day.curation.pass_id} · curation of preferences · 14:35"
        assert shown[1] == (
            f"  + learned #{learned}: Takes oat milk in coffee — from your message at 14:02"
        )
        await pilot.press("down", "p")  # the learned fact's line
        await settle(pilot)
        await pilot.press("ctrl+y")
        await wait_until(
            pilot, lambda: any("pinned" in n for _, n in notes(app)), "the pin is stored"
        )
        assert (await kit.services.facts.get(USER, learned)).pinned
        await pilot.press("up", "u")  # the pass
        await settle(pilot)
        await pilot.press("ctrl+y")  # refused: the pin came after the pass, and names it
        await wait_until(pilot, lambda: any("cannot undo" in n for _, n in notes(app)), "refused")
        await pilot.press("left_square_bracket")
        await wait_until(pilot, lambda: "Sunday 1 March" in heading(app), "the day before")
        assert (
            heading(app) == "Nothing changed in memory for Sunday 1 March 2026 (since Sat 21:00)."
        )
        assert rows(app) == []
        await pilot.press("right_square_bracket", "escape")
        await settle(pilot)
        assert not isinstance(app.screen, DigestScreen)
    assert day.curation.pass_id is not None
    record = await kit.services.curator.passes.get(USER, day.curation.pass_id)
    assert record.status == "applied"  # the owner's pin stands in the way: nothing undone


async def test_undo_from_the_digest_reverts_the_pass(
    app: KitApp, kit: Kit, clock: FakeClock
) -> None:
    day = await a_day_of_curation(kit, clock)
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot)
        await pilot.press("f7")
        await settle(pilot)
        await pilot.press("u")
        await settle(pilot)
        await pilot.press("ctrl+y")
        await wait_until(pilot, lambda: "undone since" in rows(app)[0], "the digest reloaded")
        await pilot.press("p")  # the pass heading: no fact to pin
        await settle(pilot)
        assert ("warning", "choose a fact's line to pin it") in notes(app)
    assert day.curation.pass_id is not None
    record = await kit.services.curator.passes.get(USER, day.curation.pass_id)
    assert record.status == "undone"


async def test_the_digest_lists_the_questions_waiting_first_and_f8_answers_them(
    app: KitApp, kit: Kit, clock: FakeClock
) -> None:
    older = await a_question(kit, clock, at(10, day=1), "Ana owns a dog", "Ana owns two dogs")
    question = await a_question(kit, clock, at(15), "Ana lives in Lisbon", "Ana lives in Porto")
    asked_then = await kit.services.inbox.question(USER, question)
    fact_id, asked = asked_then.old[0].id, asked_then.pass_id
    assert older != question
    async with app.run_test(size=(160, 30)) as pilot:
        await settle(pilot)
        await pilot.press("f7")
        await settle(pilot)
        assert isinstance(app.screen, DigestScreen)
        # no change that day, but a question waits: it is the day's news
        assert heading(app) == "Memory digest for Monday 2 March 2026 (since Sun 21:00)"
        assert rows(app) == [
            "Waiting for your answer (F8 answers them: keep old, take new or keep both)",
            f"  ? question {question} · people: Kit would rewrite #{fact_id} — now: [Ana] Ana "
            "lives in Lisbon → new: [Ana] Ana lives in Porto",
            "  and 1 question asked before this day",
        ]  # not the pass that asked: it changed nothing (as in `kit digest` and on Telegram)
        assert not any(row.startswith(f"Pass {asked} ") for row in rows(app))
        await pilot.press("f8")
        await settle(pilot)
        assert isinstance(app.screen, InboxScreen)
        await pilot.press("t")  # the older question, listed first there: take the new
        await wait_until(pilot, lambda: any("Take new" in n for _, n in notes(app)), "answered")
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, DigestScreen)
        await pilot.press("right_square_bracket", "left_square_bracket")  # read it again
        await wait_until(
            pilot, lambda: "and 1 question" not in "".join(rows(app)), "the answered one is gone"
        )
        assert rows(app)[1].startswith(f"  ? question {question} ·")
