"""A daemon's scheduler runs its queued jobs (the start-up catch-up) only once the daemon has
warmed up (kit/daemon/warm.py): the first turn after a start does not share the two cores
with seven curation passes, REM and the day summaries."""

from __future__ import annotations

import asyncio
from datetime import datetime

from apscheduler.triggers.interval import IntervalTrigger

from kit.api import Kit
from kit.app import Services
from scheduler import KitScheduler
from scheduler.jobs import JobSpec


async def test_queued_runs_wait_for_the_warm_up(kit: Kit) -> None:
    ran = asyncio.Event()

    async def sweep(services: Services, now: datetime, scheduled_for: datetime | None) -> str:
        ran.set()
        return "0 curation pass(es)"

    kit.services.warmed_up.clear()  # as kit/daemon/runner.py does before it is ready
    spec = JobSpec("curation_sweep", IntervalTrigger(minutes=5), sweep, False)
    async with KitScheduler(kit.services, jobs=[spec]) as scheduler:  # queues a start-up run
        for _ in range(20):
            await asyncio.sleep(0)  # the worker has every chance to take the queued run
        assert not ran.is_set()
        kit.services.warmed_up.set()
        await scheduler.idle()
        assert ran.is_set()


async def test_outside_a_daemon_nothing_waits(kit: Kit) -> None:
    assert kit.services.warmed_up.is_set()
