"""The daemon's scheduler fires reminders on a lane of its own: missed ones at start, new ones
at their time, and never behind a long-running job."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from apscheduler.triggers.interval import IntervalTrigger

from kit.api import Kit
from kit.clock import FakeClock
from kit.reminders.store import Notice
from scheduler import KitScheduler
from scheduler.jobs import JobSpec
from scheduler.reminders import CHECK_JOB
from tests.support.reminders import schedule_local


async def notices(kit: Kit) -> list[Notice]:
    """Wait (bounded) until a terminal notice is there; return them."""
    async with asyncio.timeout(10):
        while True:
            found = await kit.services.reminders.take_notices("owner")
            if found:
                return found
            await asyncio.sleep(0.01)


async def test_a_reminder_missed_while_stopped_is_delivered_at_start_marked_late(
    kit: Kit, clock: FakeClock
) -> None:
    await schedule_local(kit, "stretch", 5)
    clock.advance(timedelta(hours=3))
    scheduler = KitScheduler(kit.services, jobs=())
    await scheduler.start()
    try:
        (notice,) = await notices(kit)
    finally:
        await scheduler.shutdown()
    assert notice.late and notice.text.startswith("Reminder (late: it was due")


async def test_a_new_reminder_plans_a_wake_up_at_its_fire_time(kit: Kit, clock: FakeClock) -> None:
    scheduler = KitScheduler(kit.services, jobs=())
    await scheduler.start()
    try:
        async with asyncio.timeout(10):
            await scheduler.reminders.ran_after(0)  # the start-up run
            runs = scheduler.reminders.runs
            await schedule_local(kit, "tea", 20)
            await scheduler.reminders.ran_after(runs)
        assert scheduler.reminders.planned == clock.now() + timedelta(minutes=20)
        assert CHECK_JOB in scheduler.next_run_times()
        clock.advance(timedelta(minutes=20))
        scheduler.reminders.wake()  # what the date job does at that instant
        (notice,) = await notices(kit)
    finally:
        await scheduler.shutdown()
    assert notice.text == "Reminder: tea" and not notice.late


async def test_reminders_do_not_wait_behind_a_long_job(kit: Kit, clock: FakeClock) -> None:
    release = asyncio.Event()

    async def long_job(*_: object) -> str:
        await release.wait()
        return "done"

    slow = JobSpec("slow", IntervalTrigger(hours=1), long_job, False)
    scheduler = KitScheduler(kit.services, jobs=(slow,))
    await scheduler.start()  # the start-up pass runs `slow`, which holds the job queue
    try:
        await schedule_local(kit, "stretch", 1)
        clock.advance(timedelta(minutes=1))
        scheduler.reminders.wake()
        (notice,) = await notices(kit)
        assert notice.text == "Reminder: stretch"
    finally:
        release.set()
        await scheduler.shutdown()
