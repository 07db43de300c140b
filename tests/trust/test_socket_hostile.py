"""Hostile or broken input over the control socket: each line gets a clear error (or is
handled) and the daemon keeps serving; nothing half-written, nothing crashes."""

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


@pytest.fixture
async def server(kit: Kit, clock: FakeClock, tmp_path: Path) -> AsyncIterator[ControlServer]:
    started = clock.now() - timedelta(minutes=1)

    def client_for(user: str | None) -> LocalClient:
        return LocalClient(kit, started, user=user, mode="daemon")

    control = ControlServer(tmp_path / "kit.sock", client_for, log_file=tmp_path / "kit.log")
    async with asyncio.TaskGroup() as group:
        task = group.create_task(control.run())
        await control.listening.wait()
        yield control
        task.cancel()


async def _exchange(path: Path, line: bytes) -> dict[str, Any]:
    reader, writer = await asyncio.open_unix_connection(path)
    try:
        writer.write(line)
        await writer.drain()
        while True:  # skip streamed text events; the last line answers
            answer: dict[str, Any] = json.loads(await reader.readline())
            if "event" not in answer:
                return answer
    finally:
        writer.close()
        await writer.wait_closed()


def _send(text: Any) -> bytes:
    return json.dumps({"id": 1, "op": "send", "text": text}).encode() + b"\n"


@pytest.mark.parametrize(
    ("line", "error"),
    [
        (b"\xff\xfe not utf-8 at all\n", "each line must be one JSON object"),
        (b"[1, 2, 3]\n", "each line must be one JSON object"),
        (b'{"id": 1, "op": "drop_tables"}\n', "unknown op 'drop_tables'"),
        (_send(""), "the message is empty"),
        (_send("\u0000\u001b\u0007"), "the message is empty"),
        (_send("x" * 1_000_001), "too long (1,000,001 characters"),
        (_send(42), "'text' must be a str"),
        (b'{"id": 1, "op": "facts", "category": "secrets"}\n', "unknown fact category"),
        (b'{"id": 1, "op": "day", "day": "99999-01-01"}\n', "day must be YYYY-MM-DD"),
        (b'{"id": 1, "op": "fact_history", "fact_id": true}\n', "'fact_id' must be a int"),
        (b'{"id": 1, "op": "deactivate_fact", "fact_id": 99, "reason": "x"}\n', "does not exist"),
    ],
)
async def test_a_bad_request_line_gets_a_clear_error_and_the_daemon_keeps_serving(
    server: ControlServer, kit: Kit, line: bytes, error: str
) -> None:
    answer = await _exchange(server.path, line)
    assert answer["ok"] is False and error in answer["error"]
    assert "Traceback" not in answer["error"]
    assert await kit.services.db.scalar("SELECT COUNT(*) FROM messages") == 0
    ok = await _exchange(server.path, _send("still there?"))
    assert ok["ok"] is True and ok["result"]["reply"] == "ok"


async def test_invalid_unicode_and_controls_in_a_message_are_cleaned_and_answered(
    server: ControlServer, kit: Kit
) -> None:
    line = b'{"id": 7, "op": "send", "text": "caf\\ud800e \\u001b[31mred\\u0000"}\n'
    answer = await _exchange(server.path, line)
    assert answer["ok"] is True and answer["id"] == 7
    stored = await kit.services.db.scalar("SELECT text FROM messages ORDER BY id LIMIT 1")
    assert stored == "caf\ufffde [31mred"


async def test_many_bad_lines_on_one_connection_each_get_an_answer(server: ControlServer) -> None:
    reader, writer = await asyncio.open_unix_connection(server.path)
    try:
        for n in range(50):
            writer.write(b"garbage %d\n" % n)
        writer.write(b'{"id": "last", "op": "status"}\n')
        await writer.drain()
        answers = [json.loads(await reader.readline()) for _ in range(51)]
    finally:
        writer.close()
        await writer.wait_closed()
    assert all(a["ok"] is False for a in answers[:50])
    assert answers[-1]["id"] == "last" and answers[-1]["ok"] is True
