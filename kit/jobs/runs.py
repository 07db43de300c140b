"""Runs of Kit's scheduled jobs (daily summary, REM): when each last ran, and the lease that keeps
two runs of one job apart.

A run holds an in-process asyncio lock and a 'running' row in `job_runs` (a partial unique
index allows one per job), so a manual `kit rem` in another process during the nightly REM is
refused with a message saying who holds it. The row is a lease: its holder renews it every
third of `lease_ttl` while the run goes on, and a lease whose process is gone (crash, kill -9,
seen at once on the same machine) or whose time ran out unrenewed (a worker on another machine
died) is marked 'abandoned' and taken over; nothing waits forever. A scheduled run is taken
once per fire time across all workers: a fire time another worker completed is refused
(`AlreadyDone`), checked in the transaction that takes the lease.

A run stopped because the background budget is spent (`BudgetSpent`) is recorded 'failed'
with `paused_until` set: the scheduler resumes it then, and does not count it as a failure of
its fire time (`FireTimeRuns`), which bounds how often a failing run is retried.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta, tzinfo
from typing import Any, Literal

from kit.clock import Clock, from_iso, to_iso
from kit.errors import BudgetSpent, KitError
from kit.store.db import Database, Transaction

log = logging.getLogger(__name__)

RunStatus = Literal["running", "ok", "failed", "abandoned"]

DEFAULT_LEASE = timedelta(seconds=60)  # renewed every third of it while the run goes on
FAILURES_KEPT = 20  # an interval job's failed runs kept (the latest success is always kept)


class JobBusy(KitError):
    """Another run of the same job holds the lease."""


class AlreadyDone(JobBusy):
    """Another worker completed this fire time's run while this one was about to start."""


@dataclass(frozen=True)
class JobRun:
    id: int
    job: str
    user_id: str | None
    scheduled_for: datetime | None  # the cron fire time a scheduled run covers; None: manual
    started_at: datetime
    finished_at: datetime | None
    status: RunStatus
    lease_owner: str
    detail: str


@dataclass(frozen=True)
class FireTimeRuns:
    """The unfinished runs of one scheduled fire time."""

    failures: int  # failed, abandoned or left running; budget pauses not counted
    last_started_at: datetime | None
    paused_until: datetime | None  # when the latest one was stopped by the spent budget


_COLUMNS = (
    "id, job, user_id, scheduled_for, started_at, finished_at, status, lease_owner,"
    " lease_expires_at, detail"
)


def _run(row: Sequence[Any]) -> JobRun:
    return JobRun(
        id=row[0],
        job=row[1],
        user_id=row[2],
        scheduled_for=None if row[3] is None else from_iso(row[3]),
        started_at=from_iso(row[4]),
        finished_at=None if row[5] is None else from_iso(row[5]),
        status=row[6],
        lease_owner=row[7],
        detail=row[9],
    )


@dataclass(frozen=True)
class JobTrouble:
    """A job whose runs since its last success failed, or never finished."""

    job: str
    failures: int  # failed, abandoned or crashed runs since the last success
    last_success: datetime | None
    latest: JobRun  # the newest of them

    @property
    def crashed(self) -> bool:
        """Its newest run never finished (its process died) or was taken over."""
        return self.latest.status in ("running", "abandoned")


def this_process() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def holder_gone(owner: str) -> bool:
    """True when the lease owner is a process on this machine that no longer exists."""
    host, _, pid_text = owner.rpartition(":")
    if host != socket.gethostname() or not pid_text.isdigit():
        return False  # another machine: only the lease's expiry can free it
    pid = int(pid_text)
    if pid == os.getpid():
        # Our own process, but its in-process lock is free: a run that never recorded its end.
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False  # alive, owned by someone else
    return False


class JobRuns:
    def __init__(
        self,
        db: Database,
        clock: Clock,
        tz: tzinfo,
        *,
        lease_ttl: timedelta = DEFAULT_LEASE,
        owner: str | None = None,  # host:pid; tests name two "workers" in one process
    ) -> None:
        self._db = db
        self._clock = clock
        self._tz = tz
        self._lease_ttl = lease_ttl
        self._owner = owner or this_process()
        self._locks: dict[str, asyncio.Lock] = {}
        self.renewals = 0  # leases renewed (for those who wait on one: tests)

    def running_here(self, job: str) -> bool:
        lock = self._locks.get(job)
        return lock is not None and lock.locked()

    @asynccontextmanager
    async def lease(
        self,
        job: str,
        *,
        label: str,
        scheduled_for: datetime | None = None,
        user_id: str | None = None,
    ) -> AsyncIterator[JobRun]:
        """Hold `job` for the duration of the block, or raise `JobBusy` at once.

        The run is recorded 'ok' when the block ends normally and 'failed' (with the error) when
        it raises; `label` names the job in the busy message ("REM", "the daily summary").
        """
        lock = self._locks.setdefault(job, asyncio.Lock())
        if lock.locked():
            raise JobBusy(f"{label} is already running in this process; try again when it ends")
        async with lock:
            run = await self._acquire(job, label, scheduled_for, user_id)
            keeper = asyncio.create_task(self._keep(run.id), name=f"lease-{job}")
            try:
                yield run
            except BaseException as exc:
                await _stop(keeper)
                paused = exc.resumes_at if isinstance(exc, BudgetSpent) else None
                await self._finish(run.id, "failed", _describe(exc), paused_until=paused)
                raise
            await _stop(keeper)
            await self._finish(run.id, "ok", "")

    async def _keep(self, run_id: int) -> None:
        """Renew the run's lease every third of its length until cancelled. A run whose lease
        was taken over (its worker seemed dead) is not stopped: each of its steps lands whole,
        and a renewal that finds the row gone only says so."""
        while True:
            await asyncio.sleep(self._lease_ttl.total_seconds() / 3)
            expires = to_iso(self._clock.now() + self._lease_ttl)
            try:
                async with self._db.transaction() as tx:
                    kept = await tx.execute_rowcount(
                        "UPDATE job_runs SET lease_expires_at = ?"
                        " WHERE id = ? AND status = 'running'",
                        (expires, run_id),
                    )
            except Exception:
                log.warning("job run %d: could not renew its lease; trying again", run_id)
                continue
            if kept != 1:
                log.warning("job run %d: its lease was taken over by another worker", run_id)
                return
            self.renewals += 1

    async def _acquire(
        self, job: str, label: str, scheduled_for: datetime | None, user_id: str | None
    ) -> JobRun:
        now = self._clock.now()
        async with self._db.transaction() as tx:
            held = await tx.fetchone(
                f"SELECT {_COLUMNS} FROM job_runs WHERE job = ? AND status = 'running'", (job,)
            )
            if held is not None:
                await self._break_or_refuse(tx, held, label, now)
            if scheduled_for is not None and await tx.fetchone(
                "SELECT 1 FROM job_runs WHERE job = ? AND scheduled_for = ? AND status = 'ok'",
                (job, to_iso(scheduled_for)),
            ):
                raise AlreadyDone(f"{label} for this fire time was done by another worker")
            run_id = await tx.insert(
                "INSERT INTO job_runs (job, user_id, scheduled_for, started_at, status,"
                " lease_owner, lease_expires_at) VALUES (?, ?, ?, ?, 'running', ?, ?)",
                (
                    job,
                    user_id,
                    None if scheduled_for is None else to_iso(scheduled_for),
                    to_iso(now),
                    self._owner,
                    to_iso(now + self._lease_ttl),
                ),
            )
        return JobRun(run_id, job, user_id, scheduled_for, now, None, "running", self._owner, "")

    async def _break_or_refuse(
        self, tx: Transaction, held: Sequence[Any], label: str, now: datetime
    ) -> None:
        run = _run(held)
        expired = from_iso(held[8]) <= now
        if not (expired or holder_gone(run.lease_owner)):
            since = run.started_at.astimezone(self._tz).strftime("%Y-%m-%d %H:%M")
            pid = run.lease_owner.rpartition(":")[2]
            raise JobBusy(
                f"{label} is already running (since {since}, process {pid}); "
                "try again when it finishes"
            )
        why = "its lease expired" if expired else "its process is gone"
        await tx.execute(
            "UPDATE job_runs SET status = 'abandoned', finished_at = ?, detail = ? WHERE id = ?",
            (to_iso(now), f"taken over by {self._owner}: {why}", run.id),
        )

    async def _finish(
        self, run_id: int, status: RunStatus, detail: str, *, paused_until: datetime | None = None
    ) -> None:
        async with self._db.transaction() as tx:
            await tx.execute(
                # A run taken over meanwhile ('abandoned') keeps that status: the takeover's
                # run is the one that counts for its fire time.
                "UPDATE job_runs SET status = ?, finished_at = ?, detail = ?, paused_until = ?"
                " WHERE id = ? AND status = 'running'",
                (
                    status,
                    to_iso(self._clock.now()),
                    detail,
                    None if paused_until is None else to_iso(paused_until),
                    run_id,
                ),
            )

    async def fire_time_runs(self, job: str, scheduled_for: datetime) -> FireTimeRuns:
        """How the runs for one fire time of `job` that did not finish went."""
        rows = await self._db.fetchall(
            "SELECT started_at, paused_until FROM job_runs"
            " WHERE job = ? AND scheduled_for = ? AND status != 'ok' ORDER BY id",
            (job, to_iso(scheduled_for)),
        )
        if not rows:
            return FireTimeRuns(0, None, None)
        last_started, last_paused = rows[-1]
        return FireTimeRuns(
            failures=sum(1 for r in rows if r[1] is None),
            last_started_at=from_iso(last_started),
            paused_until=None if last_paused is None else from_iso(last_paused),
        )

    async def record_interval(self, job: str, started_at: datetime, error: str | None) -> None:
        """Record one run of an interval job (the curation sweep, the embedding backfill: they
        hold no lease). Only what `kit doctor` needs is kept: the latest success and up to
        FAILURES_KEPT failures since, so a job every few minutes does not grow the table."""
        now = to_iso(self._clock.now())
        async with self._db.transaction() as tx:
            if error is None:
                await tx.execute(
                    "DELETE FROM job_runs WHERE job = ? AND status != 'running'", (job,)
                )
            await tx.execute(
                "INSERT INTO job_runs (job, started_at, finished_at, status, lease_owner,"
                " lease_expires_at, detail) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    job,
                    to_iso(started_at),
                    now,
                    "ok" if error is None else "failed",
                    self._owner,
                    now,
                    error or "",
                ),
            )
            if error is not None:
                await tx.execute(
                    "DELETE FROM job_runs WHERE job = ? AND status = 'failed' AND id NOT IN"
                    " (SELECT id FROM job_runs WHERE job = ? AND status = 'failed'"
                    "  ORDER BY id DESC LIMIT ?)",
                    (job, job, FAILURES_KEPT),
                )

    async def troubles(self) -> list[JobTrouble]:
        """Every job whose runs since its last success (manual or scheduled) failed, were
        abandoned, or never finished because their process died."""
        rows = await self._db.fetchall(
            # A run stopped by the spent budget (paused_until set) is not trouble: it resumes.
            f"SELECT {_COLUMNS} FROM job_runs r WHERE r.status != 'ok' AND r.paused_until IS NULL"
            " AND r.id >"
            " COALESCE((SELECT MAX(id) FROM job_runs o WHERE o.job = r.job AND o.status = 'ok'),"
            " 0) ORDER BY r.id"
        )
        now = self._clock.now()
        by_job: dict[str, list[JobRun]] = {}
        for row in rows:
            run = _run(row)
            if run.status == "running" and not (
                from_iso(row[8]) <= now or holder_gone(run.lease_owner)
            ):
                continue  # running right now
            by_job.setdefault(run.job, []).append(run)
        troubles = []
        for job, runs in sorted(by_job.items()):
            last_ok = await self._db.scalar(
                "SELECT MAX(finished_at) FROM job_runs WHERE job = ? AND status = 'ok'", (job,)
            )
            when = None if last_ok is None else from_iso(last_ok)
            troubles.append(JobTrouble(job, len(runs), when, runs[-1]))
        return troubles

    async def last_scheduled_success(self, job: str) -> datetime | None:
        """The latest fire time a scheduled run of `job` completed for (manual runs excluded)."""
        value = await self._db.scalar(
            "SELECT MAX(scheduled_for) FROM job_runs"
            " WHERE job = ? AND status = 'ok' AND scheduled_for IS NOT NULL",
            (job,),
        )
        return None if value is None else from_iso(value)

    async def held_fire_times(
        self, since: datetime, failures: int
    ) -> list[tuple[str, datetime, int]]:
        """(job, fire time, failed runs) of fire times since `since` that failed `failures`
        times (budget pauses not counted) and never completed: the scheduler holds them."""
        rows = await self._db.fetchall(
            "SELECT job, scheduled_for, COUNT(*) FROM job_runs r WHERE scheduled_for >= ?"
            " AND status != 'ok' AND paused_until IS NULL AND NOT EXISTS (SELECT 1 FROM"
            " job_runs k WHERE k.job = r.job AND k.scheduled_for = r.scheduled_for"
            " AND k.status = 'ok') GROUP BY job, scheduled_for HAVING COUNT(*) >= ?"
            " ORDER BY scheduled_for",
            (to_iso(since), failures),
        )
        return [(str(r[0]), from_iso(r[1]), int(r[2])) for r in rows]

    async def recent(self, job: str, limit: int = 10) -> list[JobRun]:
        rows = await self._db.fetchall(
            f"SELECT {_COLUMNS} FROM job_runs WHERE job = ? ORDER BY id DESC LIMIT ?", (job, limit)
        )
        return [_run(r) for r in rows]


async def _stop(task: asyncio.Task[None]) -> None:
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)


def _describe(exc: BaseException) -> str:
    if isinstance(exc, asyncio.CancelledError):
        return "cancelled (shutdown)"
    if isinstance(exc, KitError):
        return str(exc)
    return f"{type(exc).__name__} (see the log)"


async def known_users(db: Database) -> list[str]:
    """Every memory namespace with something in it: the users scheduled jobs work for."""
    rows = await db.fetchall(
        "SELECT user_id FROM messages UNION SELECT user_id FROM facts"
        " UNION SELECT user_id FROM days ORDER BY 1"
    )
    return [str(r[0]) for r in rows]
