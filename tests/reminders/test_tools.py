"""The chat model's reminder tools, through a real turn: what is stored, what the model is
told, and that bad input stores nothing."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from kit.api import Kit
from kit.llm.fake import FakeLLM
from kit.reminders.service import MAX_ACTIVE
from tests.support.reminders import ask

pytestmark = pytest.mark.stores


async def test_schedule_stores_the_reminder_on_the_conversation_it_was_asked_in(
    kit: Kit, fake_llm: FakeLLM
) -> None:
    result = await ask(
        kit,
        fake_llm,
        {"text": "call Ana", "at": "2026-03-02T17:30"},
        channel="telegram",
        conversation="4242",
    )
    assert not result.is_error
    assert result.content.startswith("Scheduled #1 Mon 2026-03-02 17:30 (once, reminder): call Ana")
    (stored,) = await kit.services.reminders.active("owner")
    assert (stored.channel, stored.conversation, stored.kind) == ("telegram", "4242", "reminder")
    assert stored.next_fire == datetime(2026, 3, 2, 17, 30, tzinfo=UTC)


async def test_a_time_in_the_past_is_explained_to_the_model_and_nothing_is_stored(
    kit: Kit, fake_llm: FakeLLM
) -> None:
    result = await ask(kit, fake_llm, {"text": "call Ana", "at": "2026-03-01T08:00"})
    assert result.is_error
    assert "has already passed (it is now 2026-03-02 09:00" in result.content
    assert await kit.services.reminders.active("owner") == []


async def test_an_impossible_date_and_an_unsupported_repeat_store_nothing(
    kit: Kit, fake_llm: FakeLLM
) -> None:
    impossible = await ask(kit, fake_llm, {"text": "pay rent", "at": "2026-02-30T09:00"})
    monthly = await ask(kit, fake_llm, {"text": "pay rent", "repeat": "monthly", "time": "09:00"})
    assert "February 2026 has 28 days" in impossible.content
    assert "repeat must be one of none, daily, weekdays, weekly" in monthly.content
    assert "tell the owner" in monthly.content
    assert await kit.services.reminders.active("owner") == []


async def test_a_secret_in_the_text_is_refused_without_being_stored(
    kit: Kit, fake_llm: FakeLLM
) -> None:
    result = await ask(
        kit, fake_llm, {"text": "the door code is 4512, tell me at 9", "in_minutes": 30}
    )
    assert result.is_error and "does not keep secrets" in result.content
    assert await kit.services.reminders.store.every("owner") == []


async def test_the_per_user_cap_on_active_reminders_holds(kit: Kit, fake_llm: FakeLLM) -> None:
    reminders = kit.services.reminders
    for n in range(MAX_ACTIVE):
        fields = {"text": f"thing {n}", "in_minutes": n + 1}
        await reminders.schedule("owner", channel="terminal", conversation="t", fields=fields)
    result = await ask(kit, fake_llm, {"text": "one more", "in_minutes": 5})
    assert result.is_error and f"already has {MAX_ACTIVE} active reminders" in result.content
    assert len(await reminders.active("owner")) == MAX_ACTIVE


async def test_list_and_cancel_through_the_tools(kit: Kit, fake_llm: FakeLLM) -> None:
    await ask(kit, fake_llm, {"text": "stand-up", "repeat": "weekdays", "time": "09:15"})
    listing = await ask(kit, fake_llm, {}, tool="list_reminders")
    assert listing.content == (
        "#1 Mon 2026-03-02 09:15 (every weekday (Mon-Fri) at 09:15, reminder): stand-up"
    )
    cancelled = await ask(kit, fake_llm, {"id": 1}, tool="cancel_reminder")
    assert cancelled.content == "Cancelled reminder #1: stand-up"
    again = await ask(kit, fake_llm, {"id": 1}, tool="cancel_reminder")
    assert "already cancelled" in again.content
    missing = await ask(kit, fake_llm, {"id": 99}, tool="cancel_reminder")
    assert missing.is_error and "no reminder #99" in missing.content
    assert (await ask(kit, fake_llm, {}, tool="list_reminders")).content == (
        "The owner has no active reminders."
    )
