"""`Follower`, the TUI's engine: when the daemon stops it notices at once, fails calls with one
clear reason, reconnects when a daemon answers again, and otherwise runs Kit here — only with
the data directory's lock, never as a second writer beside a daemon."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator

import pytest

from kit.clock import FakeClock
from kit.config import Settings
from kit.daemon.follow import Follower
from kit.daemon.lock import AlreadyRunning, DataDirLock
from kit.daemon.socket_client import DaemonUnavailable
from kit.embed.hashing import HashingEmbedder
from kit.llm.fake import FakeLLM
from tests.support.fake_daemon import FakeDaemon


@pytest.fixture
async def daemon(settings: Settings, clock: FakeClock) -> AsyncIterator[FakeDaemon]:
    running = FakeDaemon(settings, clock)
    await running.start()
    yield running
    if running._stack is not None:
        await running.stop()


def here(clock: FakeClock) -> dict[str, object]:
    """What Kit run in the test's process uses (a reply that says where it came from)."""
    return {"llm": FakeLLM(default="from here"), "embedder": HashingEmbedder(), "clock": clock}


async def test_a_stopped_daemon_is_noticed_without_a_call_and_calls_then_fail_at_once(
    daemon: FakeDaemon, settings: Settings, clock: FakeClock
) -> None:
    async with Follower.open(settings, background=False, **here(clock)) as follower:  # type: ignore[arg-type]
        assert follower.mode == "daemon"
        assert (await follower.send("hi")).reply == "from the daemon"
        watching = asyncio.create_task(follower.wait_lost())
        await asyncio.sleep(0)
        assert not watching.done()
        await daemon.stop()
        async with asyncio.timeout(10):
            await watching  # the daemon closed the idle connection held open for this
        assert follower.mode == "lost"
        with pytest.raises(DaemonUnavailable, match="waiting for it to come back"):
            await follower.days()


async def test_without_a_daemon_coming_back_kit_runs_here_holding_the_lock(
    daemon: FakeDaemon, settings: Settings, clock: FakeClock
) -> None:
    async with Follower.open(
        settings,
        background=False,
        fallback_after=0.2,
        **here(clock),  # type: ignore[arg-type]
    ) as follower:
        await daemon.stop()
        with pytest.raises(DaemonUnavailable):
            await follower.status()  # a call notices too
        assert follower.mode == "lost"
        async with asyncio.timeout(10):
            assert await follower.recover() == "standalone"
        assert (await follower.send("still there?")).reply == "from here"
        assert (await follower.status()).mode == "standalone"
        with pytest.raises(AlreadyRunning, match=f"standalone Kit.*pid {os.getpid()}"):
            DataDirLock(settings.data_dir).acquire("daemon")  # a daemon now is refused
    DataDirLock(settings.data_dir).acquire("daemon")  # ...until the front-end closes


async def test_a_daemon_back_within_the_grace_period_is_reconnected(
    daemon: FakeDaemon, settings: Settings, clock: FakeClock
) -> None:
    async with Follower.open(settings, background=False, fallback_after=60, **here(clock)) as f:  # type: ignore[arg-type]
        await daemon.stop()
        async with asyncio.timeout(10):
            await f.wait_lost()
        recovering = asyncio.create_task(f.recover())
        await daemon.start()
        async with asyncio.timeout(10):
            assert await recovering == "daemon"
        assert (await f.send("back?")).reply == "from the daemon"


async def test_no_second_writer_while_a_daemon_holds_the_data_dir_without_answering(
    daemon: FakeDaemon, settings: Settings, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A daemon that holds the lock but does not answer yet (loading its model): the follower
    waits for it past its grace period instead of opening Kit beside it."""
    tries: list[object] = []
    asked_thrice = asyncio.Event()
    real_try = DataDirLock.try_acquire

    def counted(lock: DataDirLock, role: str) -> object:
        holder = real_try(lock, role)  # type: ignore[arg-type]
        tries.append(holder)
        if len(tries) == 3:
            asked_thrice.set()
        return holder

    async with Follower.open(settings, background=False, fallback_after=0.05, **here(clock)) as f:  # type: ignore[arg-type]
        await daemon.stop()
        with pytest.raises(DaemonUnavailable):
            await f.status()
        loading = DataDirLock(settings.data_dir)
        loading.acquire("daemon")
        monkeypatch.setattr(DataDirLock, "try_acquire", counted)
        recovering = asyncio.create_task(f.recover())
        async with asyncio.timeout(10):
            await asked_thrice.wait()  # past its grace period, it asked for the lock 3 times
        assert all(holder is not None for holder in tries)  # ...and been refused each time
        assert not recovering.done() and f.mode == "lost"
        loading.release()  # that daemon gave up: now Kit may run here
        async with asyncio.timeout(10):
            assert await recovering == "standalone"
