"""Failed attempts at background work: backoff, hold after three, release, and what is stored."""

from __future__ import annotations

from datetime import timedelta

import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.jobs.attempts import (
    DAILY_SUMMARY,
    MAX_ATTEMPTS,
    WINDOW_SUMMARY,
    retry_delay,
    safe_reason,
)
from kit.llm.fake import FakeLLM
from tests.core.test_window import add_notes

pytestmark = pytest.mark.stores


async def test_a_failed_item_waits_out_a_growing_backoff_then_is_held(
    kit: Kit, clock: FakeClock
) -> None:
    attempts = kit.services.attempts
    first = await attempts.failed(DAILY_SUMMARY, "owner", "2026-03-01", "came back empty")
    assert first.attempts == 1 and not first.held
    assert await attempts.blocked(DAILY_SUMMARY, "owner") == {"2026-03-01"}
    assert await attempts.blocked(DAILY_SUMMARY, "ana") == set()  # per user

    clock.advance(retry_delay(1))
    assert await attempts.blocked(DAILY_SUMMARY, "owner") == set()
    await attempts.failed(DAILY_SUMMARY, "owner", "2026-03-01", "was a refusal")
    clock.advance(retry_delay(2) - timedelta(seconds=1))
    assert await attempts.blocked(DAILY_SUMMARY, "owner") == {"2026-03-01"}
    clock.advance(timedelta(seconds=1))
    third = await attempts.failed(DAILY_SUMMARY, "owner", "2026-03-01", "no bullets")

    assert third.attempts == MAX_ATTEMPTS and third.held
    clock.advance(timedelta(days=30))
    assert await attempts.blocked(DAILY_SUMMARY, "owner") == {"2026-03-01"}  # until retried
    assert [a.item for a in await attempts.held()] == ["2026-03-01"]

    await attempts.succeeded(DAILY_SUMMARY, "owner", ["2026-03-01"])
    assert await attempts.held() == []


async def test_a_held_window_fold_is_released_the_next_day_and_counts_afresh(
    kit: Kit, clock: FakeClock
) -> None:
    attempts = kit.services.attempts
    for _ in range(MAX_ATTEMPTS):
        held = await attempts.failed(WINDOW_SUMMARY, "owner", "4", "came back empty")
    assert held.held
    clock.advance(timedelta(hours=23))
    assert await attempts.blocked(WINDOW_SUMMARY, "owner") == {"4"}
    clock.advance(timedelta(hours=1))
    assert await attempts.blocked(WINDOW_SUMMARY, "owner") == set()
    assert await attempts.held() == []
    again = await attempts.failed(WINDOW_SUMMARY, "owner", "4", "came back empty")
    assert again.attempts == 1 and not again.held


def test_stored_reasons_never_quote_what_the_model_said() -> None:
    """Our messages put the model's words in parentheses or quotes; that part is cut."""
    assert safe_reason("the summary of 2026-03-01 was a refusal ('I can't, my key is sk-1')") == (
        "the summary of 2026-03-01 was a refusal"
    )
    assert safe_reason('has no bullet points ("password: hunter2")') == "has no bullet points"
    assert safe_reason("'quoted from the start'") == "unusable answer"
    assert len(safe_reason("x" * 1000)) == 200


async def test_an_unusable_window_fold_is_retried_with_backoff_not_on_every_turn(
    kit: Kit, fake_llm: FakeLLM, clock: FakeClock
) -> None:
    conv = await kit.services.messages.conversation("owner", "local", "default")
    await add_notes(kit, conv, 0, 52, clock)
    fake_llm.default = lambda r: "   "  # empty, every time

    async def turn() -> None:
        kit.services.background.notify(conv.id)
        await kit.settle()

    for _ in range(20):  # twenty turns in a few minutes
        await turn()
        clock.advance(timedelta(seconds=20))
    assert len(fake_llm.requests_for("window_summary")) == 1
    clock.advance(retry_delay(1))
    await turn()
    clock.advance(retry_delay(2))
    await turn()
    assert len(fake_llm.requests_for("window_summary")) == MAX_ATTEMPTS
    clock.advance(timedelta(hours=12))
    await turn()  # held for the rest of the day
    assert len(fake_llm.requests_for("window_summary")) == MAX_ATTEMPTS

    clock.advance(timedelta(hours=12))
    fake_llm.default = lambda r: "- the first notes"
    await turn()
    stored = await kit.services.messages.get_conversation(conv.id)
    assert stored.window_summary == "- the first notes"
    assert await kit.services.attempts.held() == []
