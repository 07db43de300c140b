"""Firing reminders from the daemon's scheduler, on a lane of their own.

Reminders do not wait in the job queue behind a long REM or curation run: they have their own
worker task. It runs `Dispatcher.run_due()` when woken, and is woken
- at the next fire time (an APScheduler date job, re-planned after every run and whenever a
  reminder is added or cancelled or a channel comes up),
- every CHECK_SECONDS as a safety net (a laptop resumed from sleep, a retry falling due), and
- once at start, which delivers what was missed while Kit was stopped (marked late).
DST needs nothing here: fire times are absolute instants worked out in the owner's zone
(kit/reminders/rules.py), so a date job fires once, at that instant.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime

from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.date import DateTrigger
from apscheduler.triggers.interval import IntervalTrigger

from kit.app import Services
from kit.reminders.delivery import DispatchReport

log = logging.getLogger(__name__)

CHECK_SECONDS = 30
CHECK_JOB = "reminders"
WAKE_JOB = "reminders_wake"


class ReminderTimer:
    def __init__(self, services: Services) -> None:
        self._dispatcher = services.reminders.dispatcher
        self._wanted = asyncio.Event()
        self._aps: AsyncIOScheduler | None = None
        self.planned: datetime | None = None  # the next wake-up at a fire time
        self.last: DispatchReport | None = None
        self.runs = 0  # finished runs, for those who wait on one (tests, benchmarks)
        self._ran = asyncio.Event()

    def attach(self, aps: AsyncIOScheduler) -> None:
        """Add the safety-net check to `aps` and take over the dispatcher's change hook."""
        self._aps = aps
        aps.add_job(self._tick, IntervalTrigger(seconds=CHECK_SECONDS), id=CHECK_JOB)
        self._dispatcher.on_change = self.wake
        self.wake()  # the start-up run: catch up what was missed

    def detach(self) -> None:
        self._dispatcher.on_change = lambda: None
        self._aps = None

    def wake(self) -> None:
        self._wanted.set()

    async def _tick(self) -> None:  # APScheduler runs coroutine jobs in the loop
        self.wake()

    async def run(self) -> None:
        """Until cancelled: run what is due each time something wakes it."""
        while True:
            await self._wanted.wait()
            self._wanted.clear()
            try:
                self.last = await self._dispatcher.run_due()
                if self.last.claimed or self.last.sent or self.last.failed:
                    log.info(
                        "reminders: %d fired, %d delivered, %d failed (retried later)",
                        self.last.claimed,
                        self.last.sent,
                        self.last.failed,
                    )
                await self._plan()
            except Exception:  # the next wake-up tries again; the daemon carries on
                log.exception("reminders: firing due reminders failed")
            self.runs += 1
            self._ran.set()

    async def ran_after(self, runs: int) -> None:
        """Until more than `runs` runs have finished."""
        while self.runs <= runs:
            self._ran.clear()
            await self._ran.wait()

    async def _plan(self) -> None:
        """A date job at the next fire (or retry) time, replacing the previous one."""
        aps = self._aps
        if aps is None:
            return
        upcoming = await self._dispatcher.next_due()
        self.planned = upcoming
        if upcoming is None:
            if aps.get_job(WAKE_JOB) is not None:
                aps.remove_job(WAKE_JOB)
            return
        aps.add_job(self._tick, DateTrigger(run_date=upcoming), id=WAKE_JOB, replace_existing=True)
