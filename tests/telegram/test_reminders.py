"""Reminders over Telegram with the real PTB Application against the local Bot API server:
asked for in a message, sent to the same chat when due, listed and cancelled with /reminders."""

from __future__ import annotations

from datetime import timedelta

from kit.api import Kit
from kit.clock import FakeClock
from kit.llm.base import ToolUse
from kit.llm.fake import FakeLLM
from tests.servers.telegram_api import FakeTelegramServer
from tests.telegram.conftest import OWNER_TG, ChannelFactory, running, wait_until


async def test_a_reminder_asked_for_in_telegram_arrives_in_that_chat(
    kit: Kit,
    clock: FakeClock,
    fake_llm: FakeLLM,
    tg: FakeTelegramServer,
    make_channel: ChannelFactory,
) -> None:
    dispatcher = kit.services.reminders.dispatcher
    fake_llm.queue(
        ToolUse("c1", "schedule_reminder", {"text": "take the cake out", "in_minutes": 20}),
        "I'll remind you in 20 minutes.",
    )
    async with running(make_channel()):
        tg.push_text(OWNER_TG, "remind me in 20 minutes to take the cake out")
        await tg.async_wait_for_sent(1)
        await wait_until(lambda: "telegram" in dispatcher.channels)
        clock.advance(timedelta(minutes=20))
        report = await dispatcher.run_due()
        sent = await tg.async_wait_for_sent(2)
    assert report.sent == 1
    assert sent[1]["chat_id"] == OWNER_TG
    assert sent[1]["text"] == "Reminder: take the cake out"
    assert "telegram" not in dispatcher.channels  # the channel stopped: nothing sends there


async def test_reminders_command_lists_and_cancels(
    kit: Kit, tg: FakeTelegramServer, make_channel: ChannelFactory
) -> None:
    await kit.services.reminders.schedule(
        "owner",
        channel="telegram",
        conversation=str(OWNER_TG),
        fields={"text": "stand-up", "repeat": "weekdays", "time": "09:15"},
    )
    async with running(make_channel()):
        for n, text in enumerate(
            ["/reminders", "/reminders cancel 1", "/reminders cancel 1", "/reminders"], 1
        ):
            tg.push_text(OWNER_TG, text)
            await tg.async_wait_for_sent(n)
    replies = [s["text"] for s in tg.sent]
    assert replies[0].startswith("#1 Mon 2026-03-02 09:15 (every weekday (Mon-Fri) at 09:15")
    assert replies[1] == "Cancelled reminder #1: stand-up"
    assert replies[2] == "Reminder #1 is already cancelled; nothing to cancel"
    assert replies[3].startswith("No reminders.")
