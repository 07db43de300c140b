"""A daemon's two halves in the test's own process: the lock (role daemon) and the control
socket on a Kit of its own, started and stopped at will (the follower's and the TUI's tests)."""

from __future__ import annotations

import asyncio
from contextlib import AsyncExitStack
from datetime import UTC, datetime

from kit.api import Kit
from kit.client import LocalClient
from kit.clock import FakeClock
from kit.config import Settings
from kit.daemon.lock import DataDirLock
from kit.daemon.paths import socket_path
from kit.daemon.socket_server import ControlServer
from kit.embed.hashing import HashingEmbedder
from kit.llm.fake import FakeLLM


class FakeDaemon:
    """The daemon's two halves in this process (the lock, role daemon, and the control socket
    on a Kit of its own), started and stopped at will."""

    def __init__(self, settings: Settings, clock: FakeClock) -> None:
        self.settings = settings
        self.clock = clock
        self._stack: AsyncExitStack | None = None

    async def start(self) -> None:
        stack = AsyncExitStack()
        lock = DataDirLock(self.settings.data_dir)
        lock.acquire("daemon")
        stack.callback(lock.release)
        kit = await stack.enter_async_context(
            Kit.open(
                settings=self.settings,
                llm=FakeLLM(default="from the daemon"),
                embedder=HashingEmbedder(),
                clock=self.clock,
                background=False,
            )
        )
        started = datetime(2026, 3, 2, 8, 0, tzinfo=UTC)
        server = ControlServer(
            socket_path(self.settings.data_dir),
            lambda user: LocalClient(kit, started, user=user, mode="daemon"),
            log_file=self.settings.data_dir / "kit.log",
        )
        task = asyncio.create_task(server.run())

        async def stop_serving() -> None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)

        stack.push_async_callback(stop_serving)
        await server.listening.wait()
        self._stack = stack

    async def stop(self) -> None:
        assert self._stack is not None
        stack, self._stack = self._stack, None
        await stack.aclose()
