"""`KitScheduler`: APScheduler 3 (`AsyncIOScheduler`) in the daemon's event loop, firing Kit's jobs
on cron and interval triggers in the configured zone.

APScheduler only decides *when*. Each firing puts the job's name on a queue (coalesced: a job
already waiting is not queued twice) and one worker task owned by this object runs the queue in
order, so jobs never overlap in this process and a slow REM delays, never doubles, the rest.
Across processes, the daily jobs hold a lease row in `job_runs` (see kit/jobs/runs.py).

At start, every daily job whose latest fire time has no successful run (by local date) is
caught up, after one pass of the interval jobs. While Kit runs, a fire time slept through
(laptop lid closed) is picked up at the next scheduler wake-up, at most a few minutes after
resume, because the interval jobs keep the scheduler waking.

No night is re-processed in a loop: a fire time whose run failed (or was cut short by a crash
or shutdown) is retried at the next start or interval tick, the next time 10 minutes later,
and after three failures it is held until the job's next fire time, so a daemon restarting in
a loop cannot re-run a night's work over and over. A run stopped by the spent background
budget is resumed after midnight and does not count as a failure (see `due`).

    scheduler = KitScheduler(services)
    caught_up = await scheduler.start()      # inside the running loop
    ...
    await scheduler.shutdown()               # bounded; a running job is cancelled
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.interval import IntervalTrigger

from kit import heap
from kit.app import Services
from kit.errors import BudgetSpent, KitError
from kit.jobs.attempts import MAX_ATTEMPTS, retry_delay
from kit.jobs.runs import JobBusy
from scheduler.fire_times import owed
from scheduler.jobs import JobSpec, kit_jobs
from scheduler.reminders import ReminderTimer

log = logging.getLogger(__name__)

TAKEOVER_JOB = "takeover_check"

Status = Literal["done", "not due", "busy", "paused", "failed"]


@dataclass(frozen=True)
class JobResult:
    name: str
    status: Status
    detail: str = ""
    scheduled_for: datetime | None = None


class KitScheduler:
    def __init__(self, services: Services, jobs: Sequence[JobSpec] | None = None) -> None:
        self._services = services
        self._jobs = {spec.name: spec for spec in (jobs or kit_jobs(services))}
        self._locks = {name: asyncio.Lock() for name in self._jobs}
        self._queue: asyncio.Queue[str] = asyncio.Queue()
        self._queued: set[str] = set()
        self._aps: AsyncIOScheduler | None = None
        self._worker: asyncio.Task[None] | None = None
        self.reminders = ReminderTimer(services)  # on a lane of its own (scheduler/reminders.py)
        self._reminder_worker: asyncio.Task[None] | None = None
        self.results: list[JobResult] = []  # the latest run of each job, newest last

    @property
    def jobs(self) -> tuple[str, ...]:
        return tuple(self._jobs)

    async def __aenter__(self) -> KitScheduler:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.shutdown()

    async def start(self) -> list[str]:
        """Start firing jobs. Queues a start-up pass at once: every interval job, then each daily
        job that missed its latest run. Returns the names of the daily jobs being caught up."""
        if self._aps is not None:
            raise RuntimeError("the scheduler is already started")
        missed = [
            spec.name for spec in self._jobs.values() if spec.daily and await self.due(spec.name)
        ]
        self._worker = asyncio.create_task(self._work(), name="kit-scheduler")
        aps = AsyncIOScheduler(
            timezone=self._services.tz,
            job_defaults={"coalesce": True, "max_instances": 1, "misfire_grace_time": None},
        )
        for spec in self._jobs.values():
            aps.add_job(self._fire, spec.trigger, args=(spec.name,), id=spec.name, name=spec.name)
        # Another worker's run that died mid-way is taken over within about a lease's length.
        lease = self._services.settings.workers.lease_seconds
        aps.add_job(self._takeover_check, IntervalTrigger(seconds=lease), id=TAKEOVER_JOB)
        self.reminders.attach(aps)
        self._reminder_worker = asyncio.create_task(self.reminders.run(), name="kit-reminders")
        aps.start()
        self._aps = aps
        for spec in self._jobs.values():
            if not spec.daily or spec.name in missed:
                self.request(spec.name)
        if missed:
            log.info("catching up missed runs: %s", ", ".join(missed))
        return missed

    def next_run_times(self) -> dict[str, datetime | None]:
        """When APScheduler fires each job next (in the configured zone); empty before start."""
        if self._aps is None:
            return {}
        return {job.id: job.next_run_time for job in self._aps.get_jobs()}

    def request(self, name: str) -> None:
        """Queue a run of `name` unless one is already waiting."""
        if name not in self._jobs:
            raise KeyError(f"unknown job {name!r}; jobs: {', '.join(self._jobs)}")
        if name not in self._queued:
            self._queued.add(name)
            self._queue.put_nowait(name)

    async def idle(self) -> None:
        """Wait until every queued run has finished (the start-up pass, for instance)."""
        await self._queue.join()

    async def shutdown(self, grace_seconds: float = 10.0) -> None:
        """Stop firing; cancel the worker (a running job is interrupted: every step it takes
        lands whole or not at all, and an unfinished daily run is caught up at the next start)."""
        if self._aps is not None:
            self.reminders.detach()
            self._aps.shutdown(wait=False)
            self._aps = None
            await asyncio.sleep(0)  # APScheduler finishes its shutdown on the loop
        workers = [w for w in (self._worker, self._reminder_worker) if w is not None]
        for worker in workers:
            worker.cancel()
        if workers:
            try:
                async with asyncio.timeout(grace_seconds):
                    await asyncio.gather(*workers, return_exceptions=True)
            except TimeoutError:
                log.error("a scheduled job did not stop within %.0f s of shutdown", grace_seconds)
            self._worker = self._reminder_worker = None

    async def _takeover_check(self) -> None:
        """Queue the daily runs owed now: one whose worker died has its lease taken over."""
        try:
            await self.retry_due()
        except Exception:
            log.exception("the scheduler could not look for runs to take over")

    async def _fire(self, name: str) -> None:
        """APScheduler's entry: hand over and return at once (the worker runs the job)."""
        self.request(name)

    async def _work(self) -> None:
        # A daemon's catch-up waits for its warm-up: the first turn after a start comes first.
        await self._services.warmed_up.wait()
        while True:
            name = await self._queue.get()
            self._queued.discard(name)
            try:
                await self.run_now(name)
                if not self._jobs[name].daily:  # the interval jobs' ticks pick up retries
                    await self.retry_due()
            except Exception:
                log.exception("the scheduler could not look for runs to retry")
            finally:
                self._queue.task_done()
            if self._queue.empty():
                heap.trim()  # a job's reads and prompts freed: handed back (kit/heap.py)

    async def owed(self, name: str) -> datetime | None:
        """For a daily job: the fire time a run is owed for, or None if it is done."""
        spec = self._jobs[name]
        last = await self._services.job_runs.last_scheduled_success(name)
        return owed(spec.cron, self._services.clock.now(), last, self._services.tz)

    async def due(self, name: str) -> datetime | None:
        """For a daily job: the owed fire time if a run may start now, else None. Not while
        its budget pause lasts, nor sooner than `retry_delay` after the previous failure
        (the first retry is immediate), nor after `MAX_ATTEMPTS` failures (held)."""
        fire = await self.owed(name)
        if fire is None:
            return None
        runs = await self._services.job_runs.fire_time_runs(name, fire)
        now = self._services.clock.now()
        if runs.failures >= MAX_ATTEMPTS:
            return None
        if runs.paused_until is not None:
            return fire if now >= runs.paused_until else None
        if runs.last_started_at is not None:
            if now < runs.last_started_at + retry_delay(runs.failures - 1):
                return None
        return fire

    async def retry_due(self) -> list[str]:
        """Queue the daily jobs whose owed run may start now (see `due`); returns their names."""
        names = [
            spec.name
            for spec in self._jobs.values()
            if spec.daily and spec.name not in self._queued and await self.due(spec.name)
        ]
        for name in names:
            self.request(name)
        return names

    async def run_now(self, name: str) -> JobResult:
        """Run one job as if it fired now (by the injected clock). A daily job whose latest run is
        done does nothing. Errors are logged and returned, never raised: the schedule goes on."""
        spec = self._jobs[name]
        async with self._locks[name]:
            now = self._services.clock.now()
            scheduled_for = None
            if spec.daily:
                scheduled_for = await self.owed(name)
                if scheduled_for is None:
                    return self._record(JobResult(name, "not due"))
            try:
                detail = await spec.run(self._services, now, scheduled_for)
            except JobBusy as exc:
                log.info("job %s skipped: %s", name, exc)
                return self._record(JobResult(name, "busy", str(exc), scheduled_for))
            except BudgetSpent as exc:
                log.info("job %s paused until midnight: %s", name, exc)
                return self._record(JobResult(name, "paused", str(exc), scheduled_for))
            except KitError as exc:
                log.warning("job %s failed, it is retried (at most 3 runs): %s", name, exc)
                result = JobResult(name, "failed", str(exc), scheduled_for)
            except Exception as exc:
                log.exception("job %s crashed", name)
                detail = f"{type(exc).__name__} (see the log)"
                result = JobResult(name, "failed", detail, scheduled_for)
            else:
                log.info("job %s: %s", name, detail)
                result = JobResult(name, "done", detail, scheduled_for)
            if not spec.daily:  # daily jobs record their runs in their lease
                await self._record_interval(name, now, result)
            return self._record(result)

    async def _record_interval(self, name: str, started_at: datetime, result: JobResult) -> None:
        """Keep an interval job's outcome in `job_runs`, where `kit doctor` looks."""
        error = None if result.status == "done" else result.detail
        try:
            await self._services.job_runs.record_interval(name, started_at, error)
        except Exception:  # the schedule goes on even when the record cannot be written
            log.exception("could not record the run of job %s", name)

    def _record(self, result: JobResult) -> JobResult:
        self.results = [r for r in self.results if r.name != result.name] + [result]
        return result
