"""The scheduler as a daemon component (kit/daemon/runner.py runs it beside the core)."""

from __future__ import annotations

import asyncio
import logging

from kit.app import Services
from kit.daemon.grace import STEP_TIMEOUT
from kit.daemon.notify import sd_notify
from scheduler import KitScheduler

log = logging.getLogger(__name__)

# systemd's status once the start-up pass is over: the interval jobs ran once and every daily
# job a missed fire time was owed to was caught up (REM after the day summaries), so what the
# day summaries wrote at start is condensed. An event to wait on (the crash soak's clean start).
CAUGHT_UP = "STATUS=the start-up jobs are done"


class ScheduledJobs:
    """The scheduler as a daemon component: started in the daemon's TaskGroup, shut down
    (bounded) when the daemon cancels it."""

    name = "scheduler"

    def __init__(self, services: Services) -> None:
        self._scheduler = KitScheduler(services)

    async def run(self) -> None:
        try:
            missed = await self._scheduler.start()
            await self._scheduler.idle()  # the start-up pass (after the daemon's warm-up)
            log.info(
                "the start-up jobs are done (missed runs caught up: %s)",
                ", ".join(missed) or "none",
            )
            sd_notify(CAUGHT_UP)
            await asyncio.Event().wait()  # until cancelled; APScheduler fires meanwhile
        finally:
            await self._scheduler.shutdown(grace_seconds=STEP_TIMEOUT)
