"""The scheduler as a daemon component (kit/daemon/runner.py runs it beside the core)."""

from __future__ import annotations

import asyncio

from kit.app import Services
from kit.daemon.grace import STEP_TIMEOUT
from scheduler import KitScheduler


class ScheduledJobs:
    """The scheduler as a daemon component: started in the daemon's TaskGroup, shut down
    (bounded) when the daemon cancels it."""

    name = "scheduler"

    def __init__(self, services: Services) -> None:
        self._scheduler = KitScheduler(services)

    async def run(self) -> None:
        try:
            await self._scheduler.start()
            await asyncio.Event().wait()  # until cancelled; APScheduler fires meanwhile
        finally:
            await self._scheduler.shutdown(grace_seconds=STEP_TIMEOUT)
