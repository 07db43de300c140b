"""`kit mcp` as a real subprocess, driven by the MCP SDK's own stdio client: standalone (Kit in
its own process) and against a real `kit run` daemon, which it must use instead of opening the
data directory itself. No tool calls the model; the daemon's model is the real anthropic SDK
against the local Messages API server."""

from __future__ import annotations

import asyncio
import json
import subprocess
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.types import TextContent

from kit.daemon.lock import DataDirLock
from kit.daemon.socket_client import SocketClient
from kit.mcp.server import INDEX_URI
from kit.untrusted.neutralise import MEMORY_NOTE
from tests.servers.anthropic_api import FakeAnthropicServer
from tests.support.daemon_process import REPO, DaemonProcess, write_config

pytestmark = pytest.mark.integration

SESSION_TIMEOUT = 180.0  # a bound for a whole session: two shared cores, a model to load
ALL_TOOLS = {
    "search_memory",
    "get_day_history",
    "get_context",
    "list_facts",
    "list_notes",
    "read_note",
    "remember",
}


@pytest.fixture(scope="module")
def anthropic() -> Iterator[FakeAnthropicServer]:
    with FakeAnthropicServer() as server:
        yield server


@pytest.fixture
def daemon(tmp_path: Path, anthropic: FakeAnthropicServer) -> Iterator[DaemonProcess]:
    """A config, data directory and environment; the daemon runs only when a test starts it."""
    process = DaemonProcess(tmp_path, write_config(tmp_path / "config.toml", anthropic))
    yield process
    process.close()


@asynccontextmanager
async def kit_mcp(process: DaemonProcess, *args: str) -> AsyncIterator[ClientSession]:
    """`kit mcp ARGS` on `process`'s config and data directory, initialised; its stderr goes
    to a file beside the daemon's."""
    command = process.kit("mcp", *args)
    params = StdioServerParameters(
        command=command[0], args=command[1:], env=process.env, cwd=str(REPO)
    )
    with (process.workdir / "mcp-stderr.log").open("a", encoding="utf-8") as errlog:
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            yield session


async def call(session: ClientSession, tool: str, **args: Any) -> tuple[bool, str]:
    """(is_error, text) of one tool call."""
    result = await session.call_tool(tool, args)
    (block,) = result.content
    assert isinstance(block, TextContent)
    return result.is_error, block.text


async def test_standalone_serves_every_tool_and_holds_the_data_directory(
    daemon: DaemonProcess,  # never started
) -> None:
    """No daemon runs: `kit mcp` runs Kit itself and, like `kit chat`, holds the data directory,
    so no second engine (a daemon, another `kit mcp`) can open it beside it."""
    async with asyncio.timeout(SESSION_TIMEOUT), kit_mcp(daemon) as session:
        assert {t.name for t in (await session.list_tools()).tools} == ALL_TOOLS
        holder = DataDirLock(daemon.data_dir).holder()
        assert holder.role == "standalone" and holder.pid is not None

        failed, stored = await call(
            session, "remember", fact="Ana's birthday is on 3 May", category="people", subject="Ana"
        )
        assert not failed and stored.startswith("Stored as fact #")
        failed, found = await call(session, "search_memory", query="Ana birthday", k=5)
        assert not failed and MEMORY_NOTE in found and "Ana's birthday is on 3 May" in found
        failed, listed = await call(session, "list_facts", category="people")
        assert not failed and "Ana's birthday is on 3 May" in listed
        failed, day = await call(session, "get_day_history", date="today")
        assert not failed and day.startswith("Nothing is recorded for ")
        failed, notes = await call(session, "list_notes")
        assert not failed and notes == "The owner has no notes."
        failed, context = await call(session, "get_context", message="When is Ana's birthday?")
        assert not failed and "Context for: When is Ana's birthday?" in context
        (index,) = (await session.read_resource(INDEX_URI)).contents
        assert "## Memory index" in getattr(index, "text", "")

        for tool, args in [
            ("get_day_history", {"date": "2026-02-30"}),
            ("search_memory", {"query": ""}),
            ("search_memory", {"query": "Ana", "k": 99}),
            ("list_facts", {"category": "pets"}),
            ("read_note", {"name": "recipes"}),
        ]:
            failed, message = await call(session, tool, **args)
            assert failed and "Traceback" not in message, (tool, message)

        second = await asyncio.to_thread(
            subprocess.run,
            daemon.kit("mcp"),
            env=daemon.env,
            cwd=REPO,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert second.returncode == 2 and second.stdout == ""
        assert "a standalone Kit (kit chat / kit tui / kit mcp)" in second.stderr
        assert "Traceback" not in second.stderr
    assert DataDirLock(daemon.data_dir).holder().pid is None  # released on the way out


async def test_against_a_daemon_it_goes_through_the_socket_and_survives_a_restart(
    daemon: DaemonProcess,
) -> None:
    """With `kit run` up, `kit mcp` is a client of it: what it remembers, the daemon stored.
    When the daemon stops, the next call is a tool error saying so; once it is back, the same
    session works again."""
    await asyncio.to_thread(daemon.start)
    socket = SocketClient(daemon.socket)
    async with asyncio.timeout(SESSION_TIMEOUT), kit_mcp(daemon) as session:
        failed, _ = await call(session, "remember", fact="Ana keeps bees", category="people")
        assert not failed
        assert [f.content for f in await socket.facts()] == ["Ana keeps bees"]
        assert DataDirLock(daemon.data_dir).holder().pid == daemon.pid
        failed, found = await call(session, "search_memory", query="bees")
        assert not failed and "Ana keeps bees" in found

        assert await asyncio.to_thread(daemon.stop) == 0
        failed, message = await call(session, "search_memory", query="bees")
        assert failed and "Kit's daemon is not answering" in message and "kit run" in message

        await asyncio.to_thread(daemon.start)
        failed, found = await call(session, "search_memory", query="bees")
        assert not failed and "Ana keeps bees" in found

    async with (
        asyncio.timeout(SESSION_TIMEOUT),
        kit_mcp(daemon, "--user", "sam", "--read-only") as sam,
    ):
        assert {t.name for t in (await sam.list_tools()).tools} == ALL_TOOLS - {"remember"}
        failed, found = await call(sam, "search_memory", query="bees")
        assert not failed and found == "Nothing found in memory for that query."
    assert await asyncio.to_thread(daemon.stop) == 0


async def test_stdout_carries_only_the_protocol_even_with_debug_logging(
    daemon: DaemonProcess,
) -> None:
    """Everything else `kit mcp` says (here: -v, debug logs from Kit and the SDK) goes to stderr:
    each stdout line is one JSON-RPC answer."""
    requests = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "test", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
         "params": {"name": "search_memory", "arguments": {"query": "figs"}}},
    ]  # fmt: skip
    proc = await asyncio.create_subprocess_exec(
        *daemon.kit("-v", "mcp"),
        env=daemon.env,
        cwd=REPO,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    assert proc.stdin is not None and proc.stdout is not None
    async with asyncio.timeout(SESSION_TIMEOUT):
        proc.stdin.write("".join(json.dumps(r) + "\n" for r in requests).encode())
        answers = [json.loads(await proc.stdout.readline()) for _ in range(2)]
        proc.stdin.close()  # the client leaves: kit mcp ends
        rest, stderr = await proc.communicate()
    assert proc.returncode == 0 and rest == b"", stderr.decode()
    assert [a["id"] for a in answers] == [1, 2]
    assert answers[1]["result"]["content"][0]["text"] == "Nothing found in memory for that query."
    assert b"DEBUG" in stderr
