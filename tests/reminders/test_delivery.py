"""Firing and delivering reminders: on the channel they were asked on, stored as scheduled
output (never learned from), late after a stop, and never twice in Kit's record."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.curator.progress import CURATED_SOURCES
from kit.llm.base import ToolResult, ToolUse
from kit.llm.fake import FakeLLM
from kit.reminders.delivery import MAX_ATTEMPTS
from kit.reminders.store import ReminderStore
from tests.support.reminders import RecordingChannel

pytestmark = pytest.mark.stores


async def schedule(kit: Kit, fields: dict[str, object], **where: str) -> int:
    done = await kit.services.reminders.schedule(
        "owner",
        channel=where.get("channel", "telegram"),
        conversation=where.get("conversation", "42"),
        fields=fields,
    )
    return done.reminder.id


async def messages_of(kit: Kit, channel: str, conversation: str) -> list[tuple[str, str, str]]:
    rows = await kit.services.db.fetchall(
        "SELECT m.role, m.source, m.text FROM messages m JOIN conversations c"
        " ON c.id = m.conversation_id WHERE c.channel = ? AND c.external_id = ? ORDER BY m.id",
        (channel, conversation),
    )
    return [(str(r[0]), str(r[1]), str(r[2])) for r in rows]


async def test_a_due_reminder_is_sent_on_its_channel_and_stored_as_scheduled_output(
    kit: Kit, clock: FakeClock
) -> None:
    telegram = RecordingChannel()
    dispatcher = kit.services.reminders.dispatcher
    dispatcher.register("telegram", telegram.send)
    await schedule(kit, {"text": "call Ana", "in_minutes": 20})
    assert (await dispatcher.run_due()).claimed == 0
    clock.advance(timedelta(minutes=20))
    report = await dispatcher.run_due()
    assert (report.claimed, report.sent) == (1, 1)
    assert telegram.sent == [("42", "Reminder: call Ana")]
    stored = await messages_of(kit, "telegram", "42")
    assert stored == [("assistant", "job", "Reminder: call Ana")]
    assert "job" not in CURATED_SOURCES  # the curator never reads it
    assert await kit.services.reminders.active("owner") == []  # a one-off is done


async def test_a_reminder_is_never_fired_twice_by_repeated_runs(kit: Kit, clock: FakeClock) -> None:
    telegram = RecordingChannel()
    dispatcher = kit.services.reminders.dispatcher
    dispatcher.register("telegram", telegram.send)
    await schedule(kit, {"text": "water the plants", "in_minutes": 1})
    clock.advance(timedelta(minutes=5))
    for _ in range(3):
        await dispatcher.run_due()
    assert len(telegram.sent) == 1


async def test_a_daily_reminder_moves_to_its_next_day(kit: Kit, clock: FakeClock) -> None:
    telegram = RecordingChannel()
    dispatcher = kit.services.reminders.dispatcher
    dispatcher.register("telegram", telegram.send)
    rid = await schedule(kit, {"text": "pills", "repeat": "daily", "time": "09:30"})
    clock.set(datetime(2026, 3, 2, 9, 30, tzinfo=UTC))
    await dispatcher.run_due()
    reminder = await kit.services.reminders.store.get("owner", rid)
    assert reminder.next_fire == datetime(2026, 3, 3, 9, 30, tzinfo=UTC)
    assert telegram.sent == [("42", "Reminder: pills")]


async def test_fires_missed_while_kit_was_stopped_are_delivered_once_and_marked_late(
    kit: Kit, clock: FakeClock
) -> None:
    telegram = RecordingChannel()
    dispatcher = kit.services.reminders.dispatcher
    rid = await schedule(kit, {"text": "pills", "repeat": "daily", "time": "09:30"})
    clock.set(datetime(2026, 3, 5, 12, 0, tzinfo=UTC))  # four fire times went by, Kit off
    dispatcher.register("telegram", telegram.send)  # Kit (and Telegram) back
    await dispatcher.run_due()
    assert telegram.sent == [("42", "Reminder (late: it was due Mon 02 Mar 09:30): pills")]
    reminder = await kit.services.reminders.store.get("owner", rid)
    assert reminder.next_fire == datetime(2026, 3, 6, 9, 30, tzinfo=UTC)


async def test_a_reminder_waits_while_its_channel_is_down(kit: Kit, clock: FakeClock) -> None:
    dispatcher = kit.services.reminders.dispatcher
    await schedule(kit, {"text": "call Ana", "in_minutes": 1})
    clock.advance(timedelta(minutes=4))
    assert (await dispatcher.run_due()).claimed == 0  # Telegram is not up: not claimed
    telegram = RecordingChannel()
    dispatcher.register("telegram", telegram.send)
    await dispatcher.run_due()
    assert telegram.sent == [("42", "Reminder (late: it was due Mon 02 Mar 09:01): call Ana")]


async def test_a_failing_send_is_retried_with_backoff_then_given_up(
    kit: Kit, clock: FakeClock
) -> None:
    telegram = RecordingChannel(fail=2)
    dispatcher = kit.services.reminders.dispatcher
    dispatcher.register("telegram", telegram.send)
    await schedule(kit, {"text": "call Ana", "in_minutes": 1})
    clock.advance(timedelta(minutes=1))
    assert (await dispatcher.run_due()).failed == 1
    assert (await dispatcher.run_due()).failed == 0  # not yet: backoff
    clock.advance(timedelta(seconds=30))
    assert (await dispatcher.run_due()).failed == 1
    clock.advance(timedelta(minutes=1))
    assert (await dispatcher.run_due()).sent == 1
    assert telegram.sent == [("42", "Reminder: call Ana")]  # within LATE_AFTER: not "late"
    broken = RecordingChannel(fail=10**6)
    dispatcher.register("telegram", broken.send)
    await schedule(kit, {"text": "never arrives", "in_minutes": 1})
    for _ in range(MAX_ATTEMPTS + 2):
        clock.advance(timedelta(hours=1))
        await dispatcher.run_due()
    rows = await kit.services.db.fetchall("SELECT status, attempts FROM reminder_deliveries")
    assert sorted(tuple(r) for r in rows) == [("failed", MAX_ATTEMPTS), ("sent", 2)]


async def test_local_reminders_are_stored_and_shown_once_to_the_next_front_end(
    kit: Kit, clock: FakeClock
) -> None:
    reminders = kit.services.reminders
    await schedule(kit, {"text": "stretch", "in_minutes": 5}, channel="terminal", conversation="t")
    clock.advance(timedelta(minutes=5))
    await reminders.dispatcher.run_due()
    (notice,) = await reminders.take_notices("owner", "t")
    assert notice.text == "Reminder: stretch" and not notice.late
    assert await reminders.take_notices("owner", "t") == []
    assert await messages_of(kit, "terminal", "t") == [("assistant", "job", "Reminder: stretch")]


async def test_a_task_runs_a_turn_marked_as_scheduled_and_its_answer_is_delivered(
    kit: Kit, clock: FakeClock, fake_llm: FakeLLM
) -> None:
    telegram = RecordingChannel()
    dispatcher = kit.services.reminders.dispatcher
    dispatcher.register("telegram", telegram.send)
    await schedule(kit, {"text": "list my open items", "kind": "task", "in_minutes": 10})
    clock.advance(timedelta(minutes=10))
    fake_llm.queue("1. the tax form\n2. call the plumber")
    await dispatcher.run_due()
    assert telegram.sent == [
        ("42", "Scheduled: list my open items\n\n1. the tax form\n2. call the plumber")
    ]
    prompt = fake_llm.requests[-1].messages[-1].content[0]
    assert "Task: list my open items" in getattr(prompt, "text", "")
    stored = await messages_of(kit, "telegram", "42")
    assert [(role, source) for role, source, _ in stored] == [("user", "job"), ("assistant", "job")]


async def test_a_scheduled_task_cannot_schedule_more(
    kit: Kit, clock: FakeClock, fake_llm: FakeLLM
) -> None:
    telegram = RecordingChannel()
    dispatcher = kit.services.reminders.dispatcher
    dispatcher.register("telegram", telegram.send)
    await schedule(kit, {"text": "remind me again", "kind": "task", "in_minutes": 10})
    clock.advance(timedelta(minutes=10))
    fake_llm.queue(ToolUse("c", "schedule_reminder", {"text": "again", "in_minutes": 5}), "ok")
    await dispatcher.run_due()
    shown = fake_llm.requests[-1].messages[-1].content
    (result,) = [b for b in shown if isinstance(b, ToolResult)]
    assert result.is_error and "cannot schedule" in result.content
    assert await kit.services.reminders.active("owner") == []


async def test_a_scheduled_task_cannot_remember_as_the_owner(
    kit: Kit, clock: FakeClock, fake_llm: FakeLLM
) -> None:
    """A task's turn is Kit's own, not the owner speaking: a fact stored from it as "the owner
    asked" would be a false record (and could feed the next run). It is refused, as
    scheduling is; the task's answer still reaches the owner."""
    telegram = RecordingChannel()
    dispatcher = kit.services.reminders.dispatcher
    dispatcher.register("telegram", telegram.send)
    await schedule(kit, {"text": "note my mood", "kind": "task", "in_minutes": 10})
    clock.advance(timedelta(minutes=10))
    fake_llm.queue(ToolUse("c", "remember", {"fact": "The owner is in a great mood."}), "ok")
    await dispatcher.run_due()
    shown = fake_llm.requests[-1].messages[-1].content
    (result,) = [b for b in shown if isinstance(b, ToolResult)]
    assert result.is_error and "a scheduled task cannot store facts" in result.content
    assert await kit.services.facts.live("owner", clock.now()) == []
    assert telegram.sent == [("42", "Scheduled: note my mood\n\nok")]


class _KilledBeforeMarking(BaseException):
    """Stands for the process dying between the channel's send and Kit's commit."""


async def test_killed_between_send_and_mark_the_fire_is_resent_once_and_recorded_once(
    kit: Kit, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    telegram = RecordingChannel()
    dispatcher = kit.services.reminders.dispatcher
    dispatcher.register("telegram", telegram.send)
    await schedule(kit, {"text": "call Ana", "in_minutes": 1})
    clock.advance(timedelta(minutes=1))

    async def dies(*args: object, **kwargs: object) -> None:
        raise _KilledBeforeMarking

    real = ReminderStore.mark_sent
    monkeypatch.setattr(ReminderStore, "mark_sent", dies)
    with pytest.raises(BaseExceptionGroup):
        await dispatcher.run_due()
    monkeypatch.setattr(ReminderStore, "mark_sent", real)
    clock.advance(timedelta(minutes=5))  # "restart"
    await dispatcher.run_due()
    await dispatcher.run_due()
    assert [text for _, text in telegram.sent] == [
        "Reminder: call Ana",  # the send before the "kill"
        "Reminder (late: it was due Mon 02 Mar 09:01): call Ana",  # at-least-once
    ]
    assert await messages_of(kit, "telegram", "42") == [
        ("assistant", "job", "Reminder (late: it was due Mon 02 Mar 09:01): call Ana")
    ]
