"""The inbox screen (F8) against the real engine: the TUI says questions wait when it opens,
lists them with the chosen one in full, and k / t / b answer it (an owner pass); an answer
the question does not offer is refused on the screen, changing nothing."""

from __future__ import annotations

from textual.widgets import DataTable, Static

from kit.api import Kit
from kit.curator.ops import Deactivate, Update
from tests.support.curation import say
from tui.app import KitApp
from tui.inbox import EMPTY, InboxScreen

from .conftest import notes, settle


async def _questions(kit: Kit) -> tuple[int, int]:
    """Two questions: a rewrite of a pinned fact, a retirement of the owner's own."""
    pinned = (
        await kit.add_fact("Ana lives in Lisbon", category="people", subject="Ana", pinned=True)
    ).fact
    mine = (await kit.add_fact("Tom is a plumber", category="people", subject="Tom")).fact
    (said,) = await say(kit, "Ana moved to Porto; Tom retired")
    await kit.services.curator.apply_ops(
        "owner", "people",
        [Update(pinned.id, content="Ana lives in Porto", sources=(said.id,)),
         Deactivate(mine.id, "Tom retired", sources=(said.id,))],
        kind="curate", source_message_ids=[said.id],
    )  # fmt: skip
    return pinned.id, mine.id


async def test_the_inbox_lists_questions_and_t_takes_the_new(kit: Kit, app: KitApp) -> None:
    pinned, _ = await _questions(kit)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert any("2 questions" in message and "F8" in message for _, message in notes(app))
        await pilot.press("f8")
        await settle(pilot)
        assert isinstance(app.screen, InboxScreen)
        table: DataTable[str] = app.screen.query_one("#inbox-table", DataTable)
        assert table.row_count == 2
        detail = str(app.screen.query_one("#inbox-detail", Static).render())
        assert "Ana lives in Lisbon" in detail and "Ana lives in Porto" in detail
        assert "pinned by the owner" in detail

        await pilot.press("t")
        await settle(pilot)
        assert table.row_count == 1  # answered: it waits no more
        assert any("Take new" in m and "kit facts undo" in m for _, m in notes(app))
    fact = await kit.services.facts.get("owner", pinned)
    assert fact.content == "Ana lives in Porto"
    assert (await kit.fact_history(pinned))[-1].actor == "owner"


async def test_an_answer_not_offered_is_refused_and_k_keeps_the_old(kit: Kit, app: KitApp) -> None:
    _, mine = await _questions(kit)
    await kit.answer_question((await kit.inbox())[0].id, "keep-old")  # leave the retirement
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("f8")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, InboxScreen)
        assert "Kit would retire" in str(screen.query_one("#inbox-detail", Static).render())
        await pilot.press("b")  # keeping both makes no sense for a retirement
        await settle(pilot)
        assert any(
            severity == "warning" and "offers keep-old, take-new" in message
            for severity, message in notes(app)
        )
        assert len(await kit.inbox()) == 1
        await pilot.press("k")
        await settle(pilot)
        assert str(screen.query_one("#inbox-detail", Static).render()) == EMPTY
    assert (await kit.services.facts.get("owner", mine)).active
    assert (await kit.fact_history(mine))[-1].operation == "keep"
