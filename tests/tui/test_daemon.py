"""The TUI on a real daemon: `kit run` as a subprocess (real anthropic SDK against the local
Messages API server), the app connected over the control socket, then the daemon stopped; and
on a daemon in this process, stopped and started again."""

from __future__ import annotations

import asyncio
import os
import socket
import sys
from collections.abc import AsyncIterator
from datetime import UTC
from pathlib import Path

import pytest

from kit.clock import FakeClock
from kit.config import Settings, load_settings
from kit.daemon.follow import Follower
from kit.daemon.lock import DataDirLock, Holder
from tests.servers.anthropic_api import FakeAnthropicServer
from tests.support.fake_daemon import FakeDaemon
from tests.tui.scenes import wait_until
from tui.app import KitApp
from tui.chat import Reply
from tui.status import StatusLine

from .conftest import notes, record_notes, settle

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
async def test_when_the_daemon_stops_the_app_says_so_once_and_runs_kit_itself(
    tmp_path: Path, ready_socket: socket.socket, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The daemon goes under a running TUI: the status line says so at once (no key pressed),
    one warning and no pile of errors however often the owner reloads, then, as the daemon
    does not come back, Kit runs in the TUI's own process, holding the data directory."""
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test")  # Kit run here talks to the same server
    with FakeAnthropicServer() as server:
        server.queue_text("Hello from the daemon, over the socket.")
        config = tmp_path / "kit.toml"
        config.write_text(
            f'[llm]\nbase_url = "{server.url}"\nmax_retries = 0\n'
            # No model folder: Kit runs on lexical search alone, without a download.
            f'[embedding]\nmodel_path = "{tmp_path / "no-model"}"\n'
            '[schedule]\ntimezone = "UTC"\n'
        )
        data = tmp_path / "data"
        env = {
            **os.environ,
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
            settings = load_settings(config, data)
            async with Follower.open(settings, fallback_after=3.0) as client:
                assert client.mode == "daemon"
                app = KitApp(client, tz=UTC)
                record_notes(app)  # one shown long ago may have expired on a loaded machine
                async with app.run_test(size=(80, 24)) as pilot:
                    await settle(pilot)
                    status = app.query_one(StatusLine)
                    assert status.status is not None and status.status.mode == "daemon"

                    await pilot.press(*"hello", "enter")
                    await settle(pilot)
                    reply = app.query_one(Reply)
                    assert reply.body.source == "Hello from the daemon, over the socket."

                    # What the status line said when the daemon went, however briefly: on a
                    # loaded machine the daemon's own exit outlasts the 3 s fallback, and Kit
                    # already runs here (the line says so) by the time the test looks.
                    said: list[str] = []
                    show_lost = status.show_lost

                    def recorded(what: str) -> None:
                        said.append(what)
                        show_lost(what)

                    status.show_lost = recorded  # type: ignore[method-assign]
                    daemon.terminate()
                    assert await daemon.wait() == 0
                    async with asyncio.timeout(60):  # no key pressed: it notices by itself
                        while not said:
                            await pilot.pause(0.02)
                    assert said[0].startswith("daemon stopped")
                    for _ in range(3):
                        await pilot.press("ctrl+r")  # every pane fails; nothing piles up

                    await wait_until(pilot, lambda: client.mode == "standalone", "Kit runs here")
                    await wait_until(
                        pilot,
                        lambda: status.status is not None and status.status.mode == "standalone",
                        "the status line says so",
                    )
                    shown = notes(app)
                    assert [s for s, _ in shown].count("error") == 0, shown
                    stopped = [m for _, m in shown if m.startswith("Waiting for it to come back")]
                    assert len(stopped) == 1
                    assert any(m.startswith("Kit now runs inside this TUI") for _, m in shown)
                    assert DataDirLock(data).holder() == Holder(os.getpid(), "standalone")

                    server.queue_text("Still here, in your terminal.")
                    await pilot.press(*"still there?", "enter")
                    await settle(pilot)
                    assert app.query(Reply).last().body.source == "Still here, in your terminal."
                    assert app.is_running
            assert not (data / "kit.pid").exists()  # let go when the TUI closed
        finally:
            if daemon.returncode is None:
                daemon.kill()
                await daemon.wait()


async def test_a_daemon_that_comes_back_is_reconnected_and_the_status_line_follows(
    settings: Settings, clock: FakeClock
) -> None:
    """The daemon stops under the TUI and starts again: one warning, the status line says
    so, then the daemon again (its reconnection said, its answers shown). What ends the wait
    is the daemon's return, never a clock: under load the test outlived the notices' 5 s on
    screen (it looked at `[]`), and the fallback's time must not run out first."""
    daemon = FakeDaemon(settings, clock)
    await daemon.start()
    try:
        # An hour: longer than pytest's bound on a test, so Kit never starts here instead.
        async with Follower.open(settings, background=False, fallback_after=3600) as client:
            app = KitApp(client, tz=UTC)
            record_notes(app)  # every notification, the expired ones too
            async with app.run_test(size=(80, 24)) as pilot:
                await settle(pilot)
                status = app.query_one(StatusLine)
                assert str(status.render()).startswith("● daemon")
                await daemon.stop()
                await wait_until(pilot, lambda: status.lost is not None, "the loss is shown")
                await daemon.start()
                await wait_until(
                    pilot, lambda: str(status.render()).startswith("● daemon"), "back again"
                )
                messages = [m for _, m in notes(app)]
                assert messages[-1] == "Connected to the Kit daemon again."
                assert len([m for m in messages if m.startswith("Waiting for it")]) == 1
                await pilot.press(*"hi", "enter")
                await settle(pilot)
                assert app.query(Reply).last().body.source == "from the daemon"
    finally:
        await daemon.stop()
