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
) -> AsyncIterator[Path]:
    """Yields the daemon's data directory while it runs."""
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

        async def ready() -> None:
            while b"READY=1" not in await loop.sock_recv(notify, 4096):
                pass

        said = asyncio.create_task(ready())
        try:
            await asyncio.wait({task, said}, return_when=asyncio.FIRST_COMPLETED)
            if task.done():
                task.result()  # it failed to start: its error
            yield settings.data_dir
        finally:
            said.cancel()
            signals.received(signal.SIGTERM)
            await task
