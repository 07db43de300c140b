"""`kit mcp --http` as a real process beside a running daemon: one more client of its control
socket, checking each token through it (the audit log is the daemon's), driven by the official
SDK's client; with debug logging on, its log never shows a token; SIGTERM stops it."""

from __future__ import annotations

import asyncio
import signal
import socket
import sys
from pathlib import Path

import httpx
import pytest

from kit.clock import FakeClock
from kit.config import Settings
from kit.daemon.socket_client import SocketClient
from kit.llm.fake import FakeLLM
from tests.mcp.http_support import mcp_client
from tests.support.inprocess_daemon import running_daemon

pytestmark = pytest.mark.slow
PROCESS_BOUND = 180.0  # a safety net for the process's start and stop on two shared cores


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def listening(proc: asyncio.subprocess.Process, said: list[str]) -> None:
    """Until the process logs that it serves (its stderr, read line by line)."""
    assert proc.stderr is not None
    while line := (await proc.stderr.readline()).decode("utf-8", "replace"):
        said.append(line)
        if "MCP over HTTP at http://" in line:
            return
    raise AssertionError("kit mcp --http exited before it listened:\n" + "".join(said))


async def test_kit_mcp_http_beside_a_daemon_checks_tokens_through_it(
    settings: Settings, clock: FakeClock, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    config = tmp_path / "config.toml"  # the daemon's settings as a file: its data, its store
    config.write_text(f'[storage]\nurl = "{settings.storage.url}"\n')
    async with running_daemon(settings, clock, FakeLLM(), monkeypatch) as data_dir:
        owner = SocketClient(data_dir / "kit.sock")  # type: ignore[abstract]
        await owner.remember("Ana's boat is called Gaivota", category="people")
        made = await owner.create_access_token("laptop")
        port = free_port()
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "kit.cli", "-v", "--data-dir", str(data_dir),
            "--config", str(config),
            "mcp", "--http", "--port", str(port),
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        said: list[str] = []
        try:
            async with asyncio.timeout(PROCESS_BOUND):
                await listening(proc, said)
            url = f"http://127.0.0.1:{port}/mcp"
            async with mcp_client(url, made.token) as laptop:
                found = await laptop.call_tool("list_facts", {})
            async with httpx.AsyncClient(timeout=60.0) as http:
                refused = await http.post(url, json={}, headers={"Authorization": "Bearer nope"})
            log = await owner.access_log()
        finally:
            if proc.returncode is None:
                proc.send_signal(signal.SIGTERM)
            async with asyncio.timeout(PROCESS_BOUND):
                rest, _ = await asyncio.gather(proc.stderr.read(), proc.wait())  # type: ignore[union-attr]
    said.append(rest.decode("utf-8", "replace"))
    assert proc.returncode == 0, "".join(said)
    assert "Gaivota" in str(found.content)
    assert refused.status_code == 401
    assert log[0].outcome == "not a Kit token"
    assert any(u.call == "tools/call list_facts" and u.outcome == "allowed" for u in log)
    secret = made.token.split("_", 2)[2]
    assert secret not in "".join(said)
