"""`kit mcp` as a real subprocess, fed raw bytes and driven by the SDK's stdio client: every
malformed line gets its JSON-RPC error, every call gets an answer (a lone surrogate in it
too, calls still running when the client closes stdin too), and `--read-only` writes
nothing, not even embeddings of what waits to be embedded."""

from __future__ import annotations

import asyncio
import hashlib
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kit.mcp.server import INDEX_URI
from tests.mcp.test_mcp_process import SESSION_TIMEOUT, call, kit_mcp
from tests.servers.anthropic_api import FakeAnthropicServer
from tests.support.daemon_process import REPO, DaemonProcess, write_config
from tests.support.shared_model import require_model

pytestmark = pytest.mark.integration

INIT = [
    {"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "raw", "version": "1"}}},
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
]  # fmt: skip


def _call(rid: int, tool: str, **args: Any) -> bytes:
    body = {"jsonrpc": "2.0", "id": rid, "method": "tools/call"}
    return json.dumps({**body, "params": {"name": tool, "arguments": args}}).encode()


@pytest.fixture(scope="module")
def anthropic() -> Iterator[FakeAnthropicServer]:
    with FakeAnthropicServer() as server:
        yield server


@pytest.fixture
def process(tmp_path: Path, anthropic: FakeAnthropicServer) -> Iterator[DaemonProcess]:
    """A config and data directory; no daemon is started (kit mcp runs Kit itself)."""
    made = DaemonProcess(tmp_path, write_config(tmp_path / "config.toml", anthropic))
    yield made
    made.close()


async def _raw(process: DaemonProcess, lines: list[bytes]) -> tuple[list[dict[str, Any]], str]:
    """Write every line at once, close stdin, and read every answer until kit mcp exits."""
    proc = await asyncio.create_subprocess_exec(
        *process.kit("mcp"),
        env=process.env,
        cwd=REPO,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    async with asyncio.timeout(SESSION_TIMEOUT):
        out, err = await proc.communicate(b"\n".join(lines) + b"\n")
    assert proc.returncode == 0, err.decode()
    return [json.loads(line) for line in out.decode().splitlines()], err.decode()


async def test_every_malformed_line_gets_its_json_rpc_error_and_every_call_an_answer(
    process: DaemonProcess,
) -> None:
    lines = [json.dumps(m).encode() for m in INIT] + [
        b"{not json",
        b"\xff\xfe not UTF-8",
        b"[1, 2, 3]",
        b'"just a string"',
        b'{"jsonrpc": "2.0", "id": 5}',
        b'{"jsonrpc": "1.0", "id": 6, "method": "tools/list"}',
        b'{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "search_memory",'
        b' "arguments": {"query": "figs \\ud800 and dates"}}}',
        _call(8, "remember", fact="Ana likes \udc00 figs"),
        _call(9, "search_memory", query="figs"),
        _call(10, "get_context", message="what does Ana like?"),
        _call(11, "get_day_history", date="9999-12-31"),
    ]
    answers, _ = await _raw(process, lines)
    errors = [a for a in answers if "error" in a]
    assert sorted(str(a["id"]) for a in answers) == sorted(
        ["init", "None", "None", "None", "None", "5", "6", "7", "8", "9", "10", "11"]
    )
    codes = {(a["id"], a["error"]["code"]) for a in errors}
    assert (None, -32700) in codes and (5, -32600) in codes and (6, -32600) in codes
    assert [a["error"]["code"] for a in errors if a["id"] is None].count(-32700) == 2
    results = {a["id"]: a["result"] for a in answers if "result" in a}
    assert results[7]["isError"] is False  # the lone surrogate is served, not dropped
    assert results[8]["content"][0]["text"].startswith("Stored as fact #")
    assert results[11]["isError"] is True and "outside the years" in json.dumps(results[11])


async def test_calls_still_running_when_stdin_closes_are_answered_before_it_exits(
    process: DaemonProcess,
) -> None:
    """The client writes its calls and closes stdin at once: each is answered, none is cut
    off with 'Connection closed'."""
    calls = [_call(100 + n, "get_context", message=f"question {n} about figs") for n in range(8)]
    answers, _ = await _raw(process, [json.dumps(m).encode() for m in INIT] + calls)
    by_id = {a["id"]: a for a in answers}
    for n in range(8):
        answer = by_id[100 + n]
        assert "result" in answer and answer["result"]["isError"] is False, answer


def _state(data_dir: Path) -> tuple[str, dict[str, int]]:
    database = data_dir / "kit.db"
    conn = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        counts = {t: conn.execute(f'SELECT COUNT(*) FROM "{t}"').fetchone()[0] for t in tables}
    finally:
        conn.close()
    return hashlib.sha256(database.read_bytes()).hexdigest(), counts


async def test_read_only_without_a_daemon_writes_nothing_not_even_embeddings(
    process: DaemonProcess, tmp_path: Path
) -> None:
    require_model()  # with the model, pending messages are what a background pass would embed
    rows = [{"role": "user", "text": f"figs and dates, note {i}", "at": "2026-03-01T10:00:00Z"}
            for i in range(20)]  # fmt: skip
    (tmp_path / "chat.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    imported = await asyncio.create_subprocess_exec(
        *process.kit("import", "--no-embed", str(tmp_path / "chat.jsonl")),
        env=process.env,
        cwd=REPO,
        stdout=asyncio.subprocess.DEVNULL,
    )
    assert await imported.wait() == 0
    before = _state(process.data_dir)
    assert before[1]["embeddings"] == 0
    async with asyncio.timeout(SESSION_TIMEOUT), kit_mcp(process, "--read-only") as session:
        failed, found = await call(session, "search_memory", query="figs")
        assert not failed and "figs and dates" in found
        failed, _ = await call(session, "get_context", message="what about figs?")
        assert not failed
        failed, _ = await call(session, "list_facts")
        assert not failed
        await session.read_resource(INDEX_URI)  # type: ignore[arg-type]
    assert _state(process.data_dir) == before
    wal = process.data_dir / "kit.db-wal"
    assert not wal.exists() or wal.stat().st_size == 0, wal.stat().st_size  # no frame written
