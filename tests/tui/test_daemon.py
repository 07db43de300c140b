"""The TUI on a real daemon: `kit run` as a subprocess (real anthropic SDK against the local
Messages API server), the app connected over the control socket, then the daemon stopped."""

from __future__ import annotations

import asyncio
import os
import socket
import sys
from collections.abc import AsyncIterator
from datetime import UTC
from pathlib import Path

import pytest

from kit.config import load_settings
from kit.daemon.connect import connect_to
from kit.daemon.socket_client import SocketClient
from tests.servers.anthropic_api import FakeAnthropicServer
from tui.app import KitApp
from tui.chat import Reply
from tui.status import StatusLine

from .conftest import notes, settle

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
async def ready_socket(tmp_path: Path) -> AsyncIterator[socket.socket]:
    """A $NOTIFY_SOCKET: the daemon says READY=1 on it once its control socket listens."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(tmp_path / "notify.sock"))
    sock.setblocking(False)
    try:
        yield sock
    finally:
        sock.close()


async def wait_ready(sock: socket.socket, daemon: asyncio.subprocess.Process) -> None:
    loop = asyncio.get_running_loop()
    async with asyncio.timeout(60):
        while (await loop.sock_recv(sock, 256)) != b"READY=1":
            assert daemon.returncode is None, "the daemon exited before it was ready"


@pytest.mark.integration
async def test_the_app_talks_to_a_running_daemon_and_says_when_it_is_gone(
    tmp_path: Path, ready_socket: socket.socket
) -> None:
    with FakeAnthropicServer() as server:
        server.queue_text("Hello from the daemon, over the socket.")
        config = tmp_path / "kit.toml"
        config.write_text(
            f'[llm]\nbase_url = "{server.url}"\nmax_retries = 0\n'
            # No model folder: the daemon runs on lexical search alone, without a download.
            f'[embedding]\nmodel_path = "{tmp_path / "no-model"}"\n'
            '[schedule]\ntimezone = "UTC"\n'
        )
        data = tmp_path / "data"
        env = {
            **os.environ,
            "ANTHROPIC_API_KEY": "sk-test",
            "NOTIFY_SOCKET": ready_socket.getsockname(),
            "TELEGRAM_BOT_TOKEN": "",
        }
        daemon = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "kit.cli", "--config", str(config), "--data-dir", str(data),
            "run", env=env, cwd=REPO,
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
        )  # fmt: skip
        try:
            await wait_ready(ready_socket, daemon)
            async with connect_to(load_settings(config, data)) as client:
                assert isinstance(client, SocketClient)
                app = KitApp(client, tz=UTC)
                async with app.run_test(size=(80, 24)) as pilot:
                    await settle(pilot)
                    status = app.query_one(StatusLine).status
                    assert status is not None and status.mode == "daemon"
                    assert status.embedding_model is None  # lexical only, as configured

                    await pilot.press(*"hello", "enter")
                    await settle(pilot)
                    reply = app.query_one(Reply)
                    assert reply.body.source == "Hello from the daemon, over the socket."
                    assert not reply.has_class("failed")
                    assert server.requests[-1].json["stream"] is True

                    daemon.terminate()
                    assert await daemon.wait() == 0
                    await pilot.press("ctrl+r")
                    await settle(pilot)
                    severity, message = notes(app)[-1]
                    assert severity == "error"
                    assert "cannot reach the Kit daemon" in message and "kit run" in message
                    assert app.is_running
        finally:
            if daemon.returncode is None:
                daemon.kill()
                await daemon.wait()
