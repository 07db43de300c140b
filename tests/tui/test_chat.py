"""The chat pane against the real engine: streaming, the memory note, history, failures."""

from __future__ import annotations

import asyncio
from datetime import date

from kit.api import Kit
from kit.errors import LLMUnavailable
from kit.llm.fake import FakeLLM
from kit.turn_reply import UNMADE_STORE
from tui.app import KitApp
from tui.chat import ChatPane, EarlierSummary, HistoryInput, MemoryNote, Reply, Said

from .conftest import GatedLLM, notes, settle


async def test_reply_streams_in_before_the_turn_ends(
    kit: Kit, app: KitApp, fake_llm: FakeLLM, gated: GatedLLM
) -> None:
    answer = "Lisbon has the best custard tarts in the world."
    fake_llm.queue(answer)
    gated.hold(after_chunks=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(*"tarts?", "enter")
        await asyncio.wait_for(gated.waiting.wait(), 5)
        await pilot.pause()
        reply = app.query_one(Reply)
        assert reply.body.source == answer[:16]  # FakeLLM streams 16 characters at a time
        gated.release()
        await settle(pilot)
        assert reply.body.source == answer
        assert [str(s.render()) for s in app.query(Said)] == ["tarts?"]
    stored = await kit.services.db.fetchall("SELECT role, text FROM messages ORDER BY id")
    assert [tuple(r) for r in stored] == [("user", "tarts?"), ("assistant", answer)]


async def test_kits_note_copied_by_the_model_never_streams_in(
    kit: Kit, app: KitApp, fake_llm: FakeLLM, gated: GatedLLM
) -> None:
    """A small model that copies Kit's note from its window ("... remember: Stored as fact
    #2", a store that never happened) is not shown saying it while the reply streams in: the
    pane shows Kit's fallback, and what was stored (kit/turn_reply.py)."""
    fake_llm.queue(
        "(The model gave no answer of its own, only what its tools said. "
        "remember: Stored as fact #2 (preferences).)"
    )
    gated.hold(after_chunks=4)  # 64 characters: the note and the false store are in
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(*"tea, not coffee", "enter")
        await asyncio.wait_for(gated.waiting.wait(), 5)
        await pilot.pause()
        reply = app.query_one(Reply)
        assert reply.body.source == ""
        gated.release()
        await settle(pilot)
        assert reply.body.source == UNMADE_STORE
    stored = await kit.services.db.fetchall("SELECT role, text FROM messages ORDER BY id")
    assert [tuple(r) for r in stored] == [("user", "tea, not coffee"), ("assistant", UNMADE_STORE)]


async def test_memory_note_shows_the_facts_and_days_in_context(
    kit: Kit, app: KitApp, fake_llm: FakeLLM
) -> None:
    fact = await kit.remember("Lives in Lisbon", category="person", subject="Ana")
    await kit.services.days.put_detailed("owner", date(2026, 3, 1), "- Baked bread", 4)
    fake_llm.queue("You live in Lisbon.")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(*"where do I live?", "enter")
        await settle(pilot)
        note = app.query_one(MemoryNote)
        assert note.title == "memory used: 1 fact, 1 day"
        assert note.collapsed
        await pilot.press("ctrl+o")
        await settle(pilot)
        assert not note.collapsed
        text = str(note.query_one(".memory-lines").render())
        assert f"fact #{fact.id} [person] Ana: Lives in Lisbon" in text
        assert "day 2026-03-01: Baked bread" in text


async def test_no_memory_note_when_no_memory_was_used(app: KitApp, fake_llm: FakeLLM) -> None:
    fake_llm.queue("Hello!")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(*"hi", "enter")
        await settle(pilot)
        assert not app.query(MemoryNote)
        await pilot.press("ctrl+o")
        assert ("information", "no reply has used memory yet") in notes(app)


async def test_up_and_down_walk_the_input_history_and_restore_the_draft(
    app: KitApp, fake_llm: FakeLLM
) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        for text in ("first", "second"):
            await pilot.press(*text, "enter")
            await settle(pilot)
        prompt = app.query_one("#prompt", HistoryInput)
        await pilot.press(*"draft")
        await pilot.press("up")
        assert prompt.value == "second"
        await pilot.press("up", "up")
        assert prompt.value == "first"
        await pilot.press("down")
        assert prompt.value == "second"
        await pilot.press("down")
        assert prompt.value == "draft"


async def test_model_unavailable_shows_a_notification_and_a_failed_reply(
    kit: Kit, app: KitApp, fake_llm: FakeLLM
) -> None:
    fake_llm.queue(LLMUnavailable("ANTHROPIC_API_KEY is not set; export your key and restart"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(*"hello", "enter")
        await settle(pilot)
        reply = app.query_one(Reply)
        assert reply.has_class("failed")
        assert "ANTHROPIC_API_KEY is not set" in reply.body.source
        severity, message = notes(app)[-1]
        assert severity == "error"
        assert "export your key and restart" in message
    # The owner's message is kept even though the model could not answer.
    rows = await kit.services.db.fetchall("SELECT role FROM messages")
    assert [r[0] for r in rows] == ["user"]


async def test_bad_input_is_a_notification_not_a_crash(app: KitApp) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        prompt = app.query_one("#prompt", HistoryInput)
        prompt.value = "x" * 100_001
        await pilot.press("enter")
        await settle(pilot)
        severity, message = notes(app)[-1]
        assert severity == "error"
        assert "too long" in message
        assert app.query_one(Reply).has_class("failed")
        assert not app.query_one(ChatPane).busy
        assert app.is_running


async def test_a_reopened_chat_shows_the_conversations_latest_messages(
    kit: Kit, app: KitApp, fake_llm: FakeLLM
) -> None:
    """Like `llm chat -c`: the conversation continues where it was left, on screen too."""
    for number in range(25):
        fake_llm.queue(f"reply {number}")
        await kit.send(f"message {number}", channel="terminal", conversation="terminal")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        said = [str(s.render()) for s in app.query(Said)]
        replies = [r.body.source for r in app.query(Reply)]
        assert said == [f"message {n}" for n in range(15, 25)]  # the latest 20 messages
        assert replies == [f"reply {n}" for n in range(15, 25)]
        hint = str(app.query_one("#chat-hint").render())
        assert "30 earlier messages before these" in hint
        fake_llm.queue("and a new one")
        await pilot.press(*"next", "enter")
        await settle(pilot)
        assert [str(s.render()) for s in app.query(Said)][-1] == "next"  # after, not before
        assert len(app.query(Said)) == 11  # the history was not loaded again after the turn


async def test_the_rolling_summary_of_older_messages_shows_on_demand(
    kit: Kit, app: KitApp, fake_llm: FakeLLM
) -> None:
    fake_llm.queue("Noted.")
    await kit.send("I moved to Porto", channel="terminal", conversation="terminal")
    messages = kit.services.messages
    conversation = await messages.conversation("owner", "terminal", "terminal")
    window = await messages.window(conversation.id)
    await messages.advance_window(
        conversation.id,
        expected_start_id=conversation.window_start_id,
        new_start_id=window[-1].id,
        summary="- The owner moved to Porto",
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert not app.query(EarlierSummary)
        assert "ctrl+s shows the summary of older ones" in str(app.query_one("#chat-hint").render())
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert "- The owner moved to Porto" in str(app.query_one(EarlierSummary).render())
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert not app.query(EarlierSummary)


async def test_without_a_summary_ctrl_s_says_there_is_none_yet(app: KitApp) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert not app.query(Said)  # a new conversation: nothing to show
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert notes(app)[-1][1].startswith("nothing summarised yet")


async def test_slash_commands_answer_as_on_telegram_and_never_reach_the_model(
    kit: Kit, app: KitApp, fake_llm: FakeLLM
) -> None:
    """The TUI's chat takes the same commands as Telegram and `kit chat` (issue 20: /help went
    to the model): /help lists them, an unknown one gets "did you mean", /facts lists facts."""
    from tui.chat import CommandAnswer

    fact = await kit.remember("Keeps bees on the roof", category="person", pinned=True)
    async with app.run_test(size=(80, 24)) as pilot:
        for line in ("/help", "/serch bees", "/facts"):
            await pilot.press(*line, "enter")
            await settle(pilot)
        answers = [str(a.render()) for a in app.query(CommandAnswer)]
    assert len(answers) == 3
    assert "/search <query>" in answers[0] and "/reminders" in answers[0]
    assert answers[1] == "I don't know /serch. Did you mean /search? /help lists what I can do."
    assert f"#{fact.id} (person, pinned) Keeps bees on the roof" in answers[2]
    assert fake_llm.requests == []
    stored = await kit.services.db.fetchall("SELECT COUNT(*) FROM messages")
    assert stored[0][0] == 0  # commands are not conversation


async def test_opening_the_memory_note_scrolls_it_into_view_at_once(
    kit: Kit, app: KitApp, fake_llm: FakeLLM
) -> None:
    """An animated scroll shows the transcript between two places for a moment (a snapshot
    taken then had the note half in view): the note jumps into view."""
    await kit.remember("Lives in Lisbon", category="person", subject="Ana")
    fake_llm.queue("\n\n".join(f"Paragraph {i}." for i in range(30)))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(*"where do I live?", "enter")
        await settle(pilot)
        transcript = app.query_one(ChatPane).transcript
        transcript.scroll_home(animate=False)  # the owner scrolled up to read the reply
        await settle(pilot)
        scrolls: list[str] = []
        animate = app.animator.animate

        def spied(obj: object, attribute: str, *args: object, **kwargs: object) -> None:
            if attribute in ("scroll_x", "scroll_y"):
                scrolls.append(attribute)
            animate(obj, attribute, *args, **kwargs)  # type: ignore[arg-type]

        app.animator.animate = spied  # type: ignore[method-assign]
        await pilot.press("ctrl+o")
        await settle(pilot)
        assert transcript.scroll_y == transcript.max_scroll_y  # the open note is in view
        assert scrolls == []
