"""One engine per data directory: the flock, and `connect_to` choosing socket or in-process."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import pytest

from kit.api import Kit
from kit.client import LocalClient
from kit.clock import FakeClock
from kit.config import Settings
from kit.daemon.connect import connect_to
from kit.daemon.lock import AlreadyRunning, DataDirLock
from kit.daemon.paths import socket_path
from kit.daemon.socket_client import DaemonUnavailable, SocketClient
from kit.daemon.socket_server import ControlServer
from kit.embed.hashing import HashingEmbedder
from kit.errors import ConfigError
from kit.llm.fake import FakeLLM


def test_second_holder_is_refused_with_the_first_ones_pid(settings: Settings) -> None:
    first = DataDirLock(settings.data_dir)
    first.acquire("daemon")
    try:
        with pytest.raises(AlreadyRunning, match=f"a Kit daemon \\(pid {os.getpid()}\\)") as err:
            DataDirLock(settings.data_dir).acquire("daemon")
        assert err.value.holder.pid == os.getpid()
        assert f"kill {os.getpid()}" in str(err.value)
    finally:
        first.release()
    second = DataDirLock(settings.data_dir)
    second.acquire("daemon")  # released: free again
    second.release()
    assert not (settings.data_dir / "kit.pid").exists()


def test_data_dir_is_made_owner_only_and_an_existing_one_is_left_as_it_is(
    settings: Settings,
) -> None:
    lock = DataDirLock(settings.data_dir)
    lock.acquire("daemon")
    assert (settings.data_dir / "kit.pid").stat().st_mode & 0o777 == 0o600
    lock.release()
    assert settings.data_dir.stat().st_mode & 0o777 == 0o700
    settings.data_dir.chmod(0o755)  # the owner's choice: readable, not writable by others
    lock.acquire("daemon")
    lock.release()
    assert settings.data_dir.stat().st_mode & 0o777 == 0o755


def test_a_clean_release_leaves_no_pid_file(settings: Settings) -> None:
    lock = DataDirLock(settings.data_dir)
    lock.acquire("daemon")
    assert (settings.data_dir / "kit.pid").read_text() == f"{os.getpid()} daemon\n"
    lock.release()
    assert not (settings.data_dir / "kit.pid").exists()


def test_a_lock_taken_on_a_file_its_holder_removed_is_taken_again_on_the_new_one(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The race a removed lock file opens: B opens the file, A removes it and lets go, B locks
    the removed inode. B must notice and lock the path's new file, or a third process could
    lock that new file too and two engines would share the data directory."""
    first = DataDirLock(settings.data_dir)
    first.acquire("daemon")
    stale = os.open(settings.data_dir / "kit.pid", os.O_RDWR)  # B's open, before A lets go
    first.release()
    real_open = os.open
    opened: list[str] = []

    def stale_first(path: Any, flags: int, mode: int = 0o777) -> int:
        opened.append("stale" if not opened else "fresh")
        return os.dup(stale) if len(opened) == 1 else real_open(path, flags, mode)

    second = DataDirLock(settings.data_dir)
    try:
        with monkeypatch.context() as patched:
            patched.setattr(os, "open", stale_first)
            assert second.try_acquire("daemon") is None
        assert opened == ["stale", "fresh"]  # it noticed, and locked the path's new file
        assert DataDirLock(settings.data_dir).try_acquire("standalone") is not None
    finally:
        second.release()
        os.close(stale)


def test_a_socket_path_too_long_for_unix_is_a_config_error(tmp_path) -> None:
    with pytest.raises(ConfigError, match="shorter --data-dir"):
        socket_path(tmp_path / ("d" * 120))


def fakes(clock: FakeClock) -> dict[str, object]:
    return {"llm": FakeLLM(), "embedder": HashingEmbedder(), "clock": clock}


async def test_without_a_daemon_the_engine_runs_here_and_holds_the_lock(
    settings: Settings, clock: FakeClock
) -> None:
    async with connect_to(settings, background=False, **fakes(clock)) as client:
        assert isinstance(client, LocalClient)
        assert (await client.send("hello")).reply == "ok"
        with pytest.raises(AlreadyRunning, match="standalone Kit"):
            DataDirLock(settings.data_dir).acquire("daemon")  # `kit run` now is refused
    lock = DataDirLock(settings.data_dir)
    lock.acquire("daemon")  # ...and free again once the front-end closed
    lock.release()


async def test_a_second_standalone_front_end_is_told_to_close_the_first(
    settings: Settings, clock: FakeClock
) -> None:
    async with connect_to(settings, background=False, **fakes(clock)):
        with pytest.raises(AlreadyRunning, match="close it first, or run the daemon"):
            async with connect_to(settings, background=False, **fakes(clock)):
                pass


@pytest.fixture
async def fake_daemon(settings: Settings, clock: FakeClock) -> AsyncIterator[Kit]:
    """The daemon's two halves in this process: the lock (role daemon) and the socket."""
    lock = DataDirLock(settings.data_dir)
    lock.acquire("daemon")
    started = datetime(2026, 3, 2, 8, 0, tzinfo=UTC)
    async with Kit.open(settings=settings, background=False, **fakes(clock)) as kit:  # type: ignore[arg-type]
        server = ControlServer(
            socket_path(settings.data_dir),
            lambda user: LocalClient(kit, started, user=user, mode="daemon"),
            log_file=settings.data_dir / "kit.log",
        )
        task = asyncio.create_task(server.run())
        await server.listening.wait()
        yield kit
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
    lock.release()


async def test_with_a_daemon_front_ends_go_through_its_socket(
    fake_daemon: Kit, settings: Settings
) -> None:
    async with connect_to(settings) as client:
        assert isinstance(client, SocketClient)
        status = await client.status()
    assert status.mode == "daemon" and status.uptime_seconds == 3600.0


async def test_a_daemon_that_holds_the_lock_but_never_answers_is_reported(
    settings: Settings,
) -> None:
    lock = DataDirLock(settings.data_dir)
    lock.acquire("daemon")
    try:
        with pytest.raises(DaemonUnavailable, match=f"pid {os.getpid()}.*has not answered"):
            async with connect_to(settings, ready_timeout=0.3):
                pass
    finally:
        lock.release()
