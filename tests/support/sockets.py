"""Helpers for tests that throw lines at a running control socket."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from kit.api import Kit
from kit.client import LocalClient
from kit.clock import FakeClock
from kit.daemon.socket_server import ControlServer

Serving = tuple[ControlServer, asyncio.Task[None]]


async def serve(
    kind: type[ControlServer],
    kit: Kit,
    clock: FakeClock,
    tmp_path: Path,
    *,
    up_for: timedelta = timedelta(0),
) -> AsyncIterator[Serving]:
    """The server as the daemon runs it, its task visible: a crash would end that task. Its
    daemon has been up for `up_for` (what `status` says)."""
    started = clock.now() - up_for
    control = kind(
        tmp_path / "kit.sock",
        lambda user: LocalClient(kit, started, user=user, mode="daemon"),
        log_file=tmp_path / "kit.log",
    )
    task = asyncio.create_task(control.run())
    await control.listening.wait()
    yield control, task
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


async def converse(path: Path, payload: bytes) -> list[dict[str, Any]]:
    """Send `payload` on one connection, then read every line the daemon writes back until it
    closes the connection (it does once it has answered the last line)."""
    reader, writer = await asyncio.open_unix_connection(path)
    try:
        writer.write(payload)
        writer.write_eof()
        await writer.drain()
        return [json.loads(line) async for line in reader]
    finally:
        writer.close()
        await writer.wait_closed()
