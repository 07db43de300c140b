"""Scheduled jobs across workers: a run's lease is renewed while it goes on, taken over once
it expires unrenewed, and one fire time is run once whichever worker gets to it first."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from kit.api import Kit
from kit.clock import FakeClock, to_iso
from kit.jobs.runs import AlreadyDone, JobBusy, JobRuns

pytestmark = pytest.mark.stores

FIRE = datetime(2026, 3, 2, 3, 0, tzinfo=UTC)


def runs_of(
    kit: Kit, clock: FakeClock, ttl: timedelta = timedelta(seconds=60), *, owner: str
) -> JobRuns:
    """A worker's job runs; on another "machine", so only its lease's expiry frees it."""
    return JobRuns(kit.services.db, clock, UTC, lease_ttl=ttl, owner=owner)


async def statuses(kit: Kit) -> list[tuple[str, str]]:
    rows = await kit.services.db.fetchall("SELECT status, lease_owner FROM job_runs ORDER BY id")
    return [(str(r[0]), str(r[1])) for r in rows]


async def test_a_fire_time_one_worker_completed_is_not_run_again_by_another(
    kit: Kit, other: Kit, clock: FakeClock
) -> None:
    a, b = runs_of(kit, clock, owner="host-a:1"), runs_of(other, clock, owner="host-b:2")
    async with a.lease("rem", label="REM", scheduled_for=FIRE):
        pass
    with pytest.raises(AlreadyDone, match="done by another worker"):
        async with b.lease("rem", label="REM", scheduled_for=FIRE):
            raise AssertionError("ran a second time")
    async with b.lease("rem", label="REM", scheduled_for=FIRE + timedelta(days=1)):
        pass  # the next night's is b's to run
    assert [s for s, _ in await statuses(kit)] == ["ok", "ok"]


async def test_a_long_run_renews_its_lease_so_no_other_worker_takes_it(
    kit: Kit, other: Kit, clock: FakeClock
) -> None:
    ttl = timedelta(seconds=0.3)  # renewed every 0.1 s (real time); expiry by the clock
    a, b = runs_of(kit, clock, ttl, owner="host-a:1"), runs_of(other, clock, ttl, owner="host-b:2")
    async with a.lease("rem", label="REM", scheduled_for=FIRE):
        clock.advance(timedelta(seconds=10))  # far past the lease a took ...
        renewed = a.renewals
        async with asyncio.timeout(20):
            while True:  # ... until a renews it
                if a.renewals > renewed:
                    break
                await asyncio.sleep(0.02)
        with pytest.raises(JobBusy, match="already running"):
            async with b.lease("rem", label="REM", scheduled_for=FIRE):
                raise AssertionError("two runs at once")
    assert [s for s, _ in await statuses(kit)] == ["ok"]


async def test_a_run_whose_worker_stopped_renewing_is_taken_over_after_its_lease_expires(
    kit: Kit, other: Kit, clock: FakeClock
) -> None:
    """A worker on another machine died mid-run: only the expiry can tell."""
    now = clock.now()
    async with kit.services.db.transaction() as tx:
        await tx.insert(
            "INSERT INTO job_runs (job, scheduled_for, started_at, status, lease_owner,"
            " lease_expires_at) VALUES ('rem', ?, ?, 'running', 'elsewhere:77', ?)",
            (to_iso(FIRE), to_iso(now), to_iso(now + timedelta(seconds=60))),
        )
    b = runs_of(other, clock, owner="host-b:2")
    with pytest.raises(JobBusy, match="process 77"):
        async with b.lease("rem", label="REM", scheduled_for=FIRE):
            pass
    clock.advance(timedelta(seconds=61))
    async with b.lease("rem", label="REM", scheduled_for=FIRE):
        pass
    assert await statuses(kit) == [("abandoned", "elsewhere:77"), ("ok", "host-b:2")]


async def test_a_run_taken_over_keeps_its_abandoned_status_when_it_ends_late(
    kit: Kit, other: Kit, clock: FakeClock
) -> None:
    """A worker that only seemed dead (it hung past its lease) finishes after the takeover:
    the takeover's run is the one that counts for the fire time."""
    a, b = runs_of(kit, clock, owner="host-a:1"), runs_of(other, clock, owner="host-b:2")
    async with a.lease("rem", label="REM", scheduled_for=FIRE):
        clock.advance(timedelta(seconds=61))
        async with b.lease("rem", label="REM", scheduled_for=FIRE):
            pass
    assert [s for s, _ in await statuses(kit)] == ["abandoned", "ok"]
