"""`kit run` in the test's own process and event loop (`run_daemon` with a FakeLLM and the
hashing embedder), ready once it says READY=1 on a NOTIFY_SOCKET of the test's, stopped as
SIGTERM stops it."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from kit.clock import FakeClock
from kit.config import Settings
from kit.daemon.runner import ComponentFactory, ShutdownSignals, run_daemon
from kit.embed.hashing import HashingEmbedder
from kit.llm.fake import FakeLLM
from tests.support.daemon_process import notify_socket


@asynccontextmanager
async def running_daemon(
    settings: Settings,
    clock: FakeClock,
    llm: FakeLLM,
    monkeypatch: pytest.MonkeyPatch,
    *,
    components: Sequence[ComponentFactory] = (),
    said: str | None = None,
) -> AsyncIterator[Path]:
    """Yields the daemon's data directory while it runs: once it is ready, and once it has
    also said `said` on the NOTIFY_SOCKET when given (e.g. scheduler.component.CAUGHT_UP)."""
    signals = ShutdownSignals()
    loop = asyncio.get_running_loop()
    with notify_socket(settings.data_dir.parent / "notify.sock") as notify:
        monkeypatch.setenv("NOTIFY_SOCKET", notify.getsockname())
        task = asyncio.create_task(
            run_daemon(
                settings,
                components=components,
                llm=llm,
                embedder=HashingEmbedder(),
                clock=clock,
                signals=signals,
            )
        )

        states = ("READY=1", *([said] if said else []))

        async def ready() -> None:
            for state in states:
                while state.encode() not in await loop.sock_recv(notify, 4096):
                    pass

        heard = asyncio.create_task(ready())
        try:
            await asyncio.wait({task, heard}, return_when=asyncio.FIRST_COMPLETED)
            if task.done():
                task.result()  # it failed to start: its error
            heard.result()
            yield settings.data_dir
        finally:
            heard.cancel()
            signals.received(signal.SIGTERM)
            await task
