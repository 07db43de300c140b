"""Leases: one worker at a time does a thing for all, and a worker that stops renewing is
taken over once its lease expires. Two Kits on one store stand for two workers."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.jobs.leases import LeaseBusy, Leases

pytestmark = pytest.mark.stores

TTL = timedelta(seconds=60)


def workers(kit: Kit, other: Kit, clock: FakeClock, ttl: timedelta = TTL) -> tuple[Leases, Leases]:
    return (
        Leases(kit.services.db, clock, ttl=ttl, owner="host-a:1"),
        Leases(other.services.db, clock, ttl=ttl, owner="host-b:2"),
    )


async def test_a_lease_has_one_holder_until_it_expires_unrenewed_then_another_takes_it(
    kit: Kit, other: Kit, clock: FakeClock
) -> None:
    a, b = workers(kit, other, clock)
    assert await a.take("telegram")
    assert not await b.take("telegram")
    clock.advance(TTL - timedelta(seconds=1))
    assert not await b.take("telegram")
    clock.advance(timedelta(seconds=2))
    assert await b.take("telegram")
    assert not await a.renew("telegram")  # a finds out it lost it
    holder = await a.holder("telegram")
    assert holder is not None and holder.owner == "host-b:2"


async def test_a_renewed_lease_is_not_taken_over(kit: Kit, other: Kit, clock: FakeClock) -> None:
    a, b = workers(kit, other, clock)
    assert await a.take("telegram")
    clock.advance(TTL - timedelta(seconds=1))
    assert await a.renew("telegram")
    clock.advance(timedelta(seconds=2))
    assert not await b.take("telegram")


async def test_a_released_lease_is_free_at_once(kit: Kit, other: Kit, clock: FakeClock) -> None:
    a, b = workers(kit, other, clock)
    assert await a.take("telegram")
    await b.release("telegram")  # not b's to release: nothing happens
    assert not await b.take("telegram")
    await a.release("telegram")
    assert await b.take("telegram")


async def test_holding_refuses_a_second_worker_with_a_busy_error(
    kit: Kit, other: Kit, clock: FakeClock
) -> None:
    a, b = workers(kit, other, clock)
    async with a.holding("curation_sweep", label="the curation sweep"):
        with pytest.raises(LeaseBusy, match="another worker"):
            async with b.holding("curation_sweep", label="the curation sweep"):
                pass
    async with b.holding("curation_sweep", label="the curation sweep"):
        pass


async def test_an_update_is_claimed_by_exactly_one_worker(
    kit: Kit, other: Kit, clock: FakeClock
) -> None:
    a, b = workers(kit, other, clock)
    claims = await asyncio.gather(
        *(w.claim_update("telegram", 7) for w in (a, b, a, b)),
    )
    assert sorted(claims) == [False, False, False, True]
    assert await b.claim_update("telegram", 8)


async def test_a_serving_worker_that_loses_its_lease_stops_its_work_and_waits_again(
    kit: Kit, other: Kit, clock: FakeClock
) -> None:
    """The lease is taken over while its holder seems dead (its expiry passed unrenewed): its
    work is cancelled at its next renewal, so two workers never poll at once for long."""
    a, b = workers(kit, other, clock, ttl=timedelta(seconds=0.3))
    started, stopped = asyncio.Event(), asyncio.Event()

    async def poll() -> None:
        started.set()
        try:
            await asyncio.Event().wait()
        finally:
            stopped.set()

    serving = asyncio.create_task(a.serve("telegram", poll))
    try:
        await asyncio.wait_for(started.wait(), 10)
        clock.advance(timedelta(seconds=1))  # a's lease is past its time ...
        assert await b.take("telegram")  # ... and b takes it over
        await asyncio.wait_for(stopped.wait(), 10)  # a notices at its next renewal
        assert not serving.done()  # a waits to take it again
        holder = await a.holder("telegram")
        assert holder is not None and holder.owner == "host-b:2"
    finally:
        serving.cancel()
        await asyncio.gather(serving, return_exceptions=True)


async def test_serve_lets_the_lease_go_when_its_worker_stops_cleanly(
    kit: Kit, other: Kit, clock: FakeClock
) -> None:
    a, b = workers(kit, other, clock)
    started = asyncio.Event()

    async def poll() -> None:
        started.set()
        await asyncio.Event().wait()

    serving = asyncio.create_task(a.serve("telegram", poll))
    await asyncio.wait_for(started.wait(), 10)
    assert not await b.take("telegram")
    serving.cancel()
    await asyncio.gather(serving, return_exceptions=True)
    assert await b.take("telegram")  # at once, not after the 60 s
