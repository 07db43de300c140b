"""Leases: one worker at a time does a thing for all workers on one database.

Several `kit run` workers may share a PostgreSQL database (docs/daemon.md: Several workers). A lease
row in `leases` names what one of them does for everyone (Telegram polling, the curation
sweep) and until when: its owner renews it every third of its length while it works, and any
worker takes it over once it has expired unrenewed (its owner died, hung or lost the
database), or at once when its owner was a process on this machine that is gone. Taking,
renewing and letting go are each one transaction under the store's writer lock, so two
workers never both believe they hold a lease. Times come from the injected clock.

`handled_updates` is the other half of "each thing done once": an incoming update (a Telegram
update id; a Matrix event id in `handled_events`) is claimed by one insert; whoever's insert
lands answers it, nobody else ever does, even after a takeover.

On SQLite there is one worker per file (kit/daemon/lock.py), so a lease is always free; the
same code runs there, which keeps both stores' behaviour one.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta

from kit.clock import Clock, from_iso, to_iso
from kit.jobs.runs import JobBusy, holder_gone, this_process
from kit.store.db import Database

log = logging.getLogger(__name__)

UPDATES_KEPT = 10_000  # handled update ids kept per channel (Telegram's ids only grow)
EVENTS_KEPT = timedelta(days=30)  # handled event ids kept (Matrix's: not ordered, so by age)


@dataclass(frozen=True)
class LeaseHolder:
    name: str
    owner: str
    acquired_at: datetime
    expires_at: datetime


class LeaseBusy(JobBusy):
    """Another worker holds the lease (a scheduled job skips this turn; it runs there)."""


class LeaseLost(Exception):
    """The lease could not be renewed: another worker may have it now, so stop."""


class Leases:
    def __init__(
        self, db: Database, clock: Clock, *, ttl: timedelta, owner: str | None = None
    ) -> None:
        if ttl <= timedelta(0):
            raise ValueError("a lease must last a positive time")
        self._db = db
        self._clock = clock
        self.ttl = ttl
        self.owner = owner or this_process()  # tests give two "workers" in one process names

    @property
    def renew_every(self) -> float:
        """Seconds between renewals: a third of the lease, so two can fail before it lapses."""
        return self.ttl.total_seconds() / 3

    async def take(self, name: str) -> bool:
        """Take `name` if it is free, expired or its holder's process is gone (a restart after
        kill -9 on this machine need not wait), or renew it if ours; True when we hold it."""
        now = self._clock.now()
        async with self._db.transaction() as tx:
            row = await tx.fetchone("SELECT owner, expires_at FROM leases WHERE name = ?", (name,))
            if row is not None and row[0] != self.owner:
                if from_iso(row[1]) > now and not holder_gone(str(row[0])):
                    return False
                log.info("lease %s: taken over from %s", name, row[0])
            await tx.execute(
                "INSERT INTO leases (name, owner, acquired_at, expires_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (name) DO UPDATE SET owner = excluded.owner,"
                " acquired_at = CASE WHEN leases.owner = excluded.owner"
                "  THEN leases.acquired_at ELSE excluded.acquired_at END,"
                " expires_at = excluded.expires_at",
                (name, self.owner, to_iso(now), to_iso(now + self.ttl)),
            )
        return True

    async def renew(self, name: str) -> bool:
        """Extend our lease; False when it is no longer ours (taken over after it expired)."""
        expires = self._clock.now() + self.ttl
        async with self._db.transaction() as tx:
            changed = await tx.execute_rowcount(
                "UPDATE leases SET expires_at = ? WHERE name = ? AND owner = ?",
                (to_iso(expires), name, self.owner),
            )
        return changed == 1

    async def release(self, name: str) -> None:
        """Let go at once (a clean stop), so another worker need not wait for the expiry."""
        async with self._db.transaction() as tx:
            await tx.execute("DELETE FROM leases WHERE name = ? AND owner = ?", (name, self.owner))

    async def holder(self, name: str) -> LeaseHolder | None:
        row = await self._db.fetchone(
            "SELECT name, owner, acquired_at, expires_at FROM leases WHERE name = ?", (name,)
        )
        if row is None:
            return None
        return LeaseHolder(str(row[0]), str(row[1]), from_iso(row[2]), from_iso(row[3]))

    async def keep(self, name: str) -> None:
        """Renew `name` every `renew_every` seconds until cancelled; raises LeaseLost when a
        renewal fails (the lease is someone else's now, or the database is unreachable: in
        both cases the work it covers must stop)."""
        while True:
            await asyncio.sleep(self.renew_every)
            try:
                renewed = await self.renew(name)
            except Exception as exc:
                raise LeaseLost(
                    f"{name}: renewing the lease failed ({type(exc).__name__})"
                ) from exc
            if not renewed:
                raise LeaseLost(f"{name}: the lease was taken over by another worker")

    @asynccontextmanager
    async def holding(self, name: str, *, label: str) -> AsyncIterator[None]:
        """Hold `name` for the block (renewed meanwhile), or raise LeaseBusy at once. Losing
        it midway only logs: what the block does lands transaction by transaction."""
        if not await self.take(name):
            raise LeaseBusy(f"{label} is running in another worker; it is not run here too")
        keeper = asyncio.create_task(self.keep(name), name=f"lease-{name}")
        try:
            yield
        finally:
            keeper.cancel()
            await asyncio.gather(keeper, return_exceptions=True)
            if keeper.cancelled():
                await self._let_go(name)
            else:
                log.warning("%s (the work went on to its end)", keeper.exception())

    async def serve(self, name: str, work: Callable[[], Awaitable[None]]) -> None:
        """Until cancelled: wait for `name`, run `work` while holding it, and start over if the
        lease is lost (`work` is cancelled then). A clean stop lets the lease go."""
        while True:
            while True:
                if await self._try_take(name):
                    break
                await asyncio.sleep(self.renew_every)  # a dead holder's lease runs out
            log.info("lease %s: taken by %s", name, self.owner)
            keeper = asyncio.create_task(self.keep(name), name=f"lease-{name}")
            worker = asyncio.create_task(_run(work), name=name)
            try:
                await asyncio.wait({keeper, worker}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for task in (keeper, worker):
                    task.cancel()
                await asyncio.gather(keeper, worker, return_exceptions=True)
                if keeper.cancelled():  # still ours: hand it on at once
                    await self._let_go(name)
            lost = None if keeper.cancelled() else keeper.exception()
            if lost is not None and not isinstance(lost, LeaseLost):
                raise lost
            failed = None if worker.cancelled() else worker.exception()
            if failed is not None:
                raise failed
            if lost is not None:
                log.warning("%s; stopped, waiting to take it again", lost)
                continue
            return

    async def _try_take(self, name: str) -> bool:
        try:
            return await self.take(name)
        except Exception:  # the database is away: keep waiting, the daemon carries on
            log.warning("lease %s: could not be taken (database unavailable?)", name)
            return False

    async def _let_go(self, name: str) -> None:
        try:
            async with asyncio.timeout(5):
                await asyncio.shield(self.release(name))
        except (Exception, asyncio.CancelledError):
            log.info("lease %s: not released; it expires by itself", name)

    # ---- updates answered once -------------------------------------------------------------

    async def claim_update(self, channel: str, update_id: int) -> bool:
        """True for the one worker that may handle this update (its claim landed first)."""
        async with self._db.transaction() as tx:
            claimed = await tx.execute_rowcount(
                "INSERT INTO handled_updates (channel, update_id, worker, handled_at)"
                " VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (channel, update_id, self.owner, to_iso(self._clock.now())),
            )
            if claimed and update_id % 1000 == 0:  # now and then: keep the table small
                await tx.execute(
                    "DELETE FROM handled_updates WHERE channel = ? AND update_id < ?",
                    (channel, update_id - UPDATES_KEPT),
                )
        return claimed == 1

    async def claim_event(self, channel: str, event_id: str) -> bool:
        """`claim_update` for a channel whose updates are named by strings (Matrix's event ids);
        claims older than `EVENTS_KEPT` are let go now and then (a sync never goes back that
        far)."""
        now = self._clock.now()
        async with self._db.transaction() as tx:
            claimed = await tx.execute_rowcount(
                "INSERT INTO handled_events (channel, event_id, worker, handled_at)"
                " VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (channel, event_id, self.owner, to_iso(now)),
            )
            if claimed and event_id.endswith("A"):  # now and then (1 in 64): keep it small
                await tx.execute(
                    "DELETE FROM handled_events WHERE channel = ? AND handled_at < ?",
                    (channel, to_iso(now - EVENTS_KEPT)),
                )
        return claimed == 1


async def _run(work: Callable[[], Awaitable[None]]) -> None:
    await work()
