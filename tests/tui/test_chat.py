"""The chat pane against the real engine: streaming, the memory note, history, failures."""

from __future__ import annotations

import asyncio
from datetime import date

from kit.api import Kit
from kit.errors import LLMUnavailable
from kit.llm.fake import FakeLLM
from tui.app import KitApp
from tui.chat import ChatPane, HistoryInput, MemoryNote, Reply, Said

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
