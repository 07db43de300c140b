"""Reminders on several workers: a fire is taken for sending by one worker, so a live
channel gets it once and a scheduled task asks the model once, whichever workers run."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from kit.api import Kit
from kit.clock import FakeClock
from tests.support.reminders import RecordingChannel

pytestmark = pytest.mark.stores


async def test_two_workers_firing_at_once_send_a_reminder_once(
    kit: Kit, other: Kit, clock: FakeClock
) -> None:
    """Both workers claim and deliver at the same moment: one claim lands, one send goes."""
    telegram = [RecordingChannel(), RecordingChannel()]
    for name, worker, channel in (("a", kit, telegram[0]), ("b", other, telegram[1])):
        dispatcher = worker.services.reminders.dispatcher
        dispatcher.worker = f"host-{name}:1"
        dispatcher.register("telegram", channel.send)
    await kit.services.reminders.schedule(
        "owner", channel="telegram", conversation="42", fields={"text": "call Ana", "in_minutes": 5}
    )
    clock.advance(timedelta(minutes=6))
    reports = await asyncio.gather(
        kit.services.reminders.dispatcher.run_due(), other.services.reminders.dispatcher.run_due()
    )
    assert sum(r.claimed for r in reports) == 1
    assert telegram[0].sent + telegram[1].sent == [("42", "Reminder: call Ana")]


async def test_a_fire_another_live_worker_took_is_not_sent_again_until_its_time_runs_out(
    kit: Kit, other: Kit, clock: FakeClock
) -> None:
    a, b = kit.services.reminders, other.services.reminders
    a.dispatcher.worker, b.dispatcher.worker = "host-a:1", "host-b:1"
    channel = RecordingChannel()
    b.dispatcher.register("telegram", channel.send)
    await a.schedule(
        "owner", channel="telegram", conversation="42", fields={"text": "call Ana", "in_minutes": 5}
    )
    clock.advance(timedelta(minutes=6))
    reminder = (await a.store.due_now(clock.now(), ("telegram",)))[0]
    assert await a.store.claim([(reminder, None)], clock.now(), timedelta(minutes=2)) == 1
    (pending,) = await a.store.pending(clock.now(), ("telegram",))
    # Worker a took it for sending, and died (on another machine: only time tells).
    assert await a.store.take_for_sending(
        pending.id, "host-a:1", clock.now() + timedelta(minutes=10), lambda who: False
    )
    await b.dispatcher.run_due()
    assert channel.sent == []
    clock.advance(timedelta(minutes=11))
    await b.dispatcher.run_due()
    assert [text for _, text in channel.sent] == [
        "Reminder (late: it was due Mon 02 Mar 09:05): call Ana"
    ]
