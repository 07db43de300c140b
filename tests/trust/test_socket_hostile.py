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
from kit.operations import Operation
from tests.support.sockets import Serving, converse, serve


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


def _op(op: str, **args: Any) -> bytes:
    return json.dumps({"id": 1, "op": op, **args}).encode() + b"\n"


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
        (_send(42), "'text' must be a string"),
        (b'{"id": 1, "op": "facts", "category": "secrets"}\n', "unknown fact category"),
        (b'{"id": 1, "op": "day", "day": "99999-01-01"}\n', "day must be YYYY-MM-DD"),
        (b'{"id": 1, "op": "day", "day": "0001-01-01"}\n', "between 1000 and 8999"),
        (b'{"id": 1, "op": "rem", "date": "9999-12-31"}\n', "between 1000 and 8999"),
        (b'{"id": 1, "op": "fact_history", "fact_id": true}\n', "'fact_id' must be an integer"),
        (b'{"id": 1, "op": "deactivate_fact", "fact_id": 99, "reason": "x"}\n', "does not exist"),
        (_op("pin_fact", fact_id=-1), "'fact_id' must be a positive integer id"),
        (_op("unpin_fact", fact_id=0), "'fact_id' must be a positive integer id"),
        (_op("edit_fact", fact_id=2**63 - 1, content="x"), "does not exist"),
        (_op("undo_pass", pass_id=-5), "'pass_id' must be a positive integer id"),
        (_op("pin_fact", fact_id="1"), "'fact_id' must be an integer"),
        (_op("add_fact"), "request needs 'content'"),
        (_op("add_fact", content=""), "the fact is empty"),
        (_op("add_fact", content="\u0000\u001b"), "the fact is empty"),
        (_op("add_fact", content="x" * 2001), "'content' has 2,001 characters, more than 2,000"),
        (_op("add_fact", content="x" * 1_000_000), "'content' has 1,000,000 characters"),
        (_op("add_fact", content="Tea", subject="s" * 201), "'subject' has 201 characters"),
        (_op("add_fact", content="Tea", category="pets"), "unknown fact category 'pets'"),
        (_op("add_fact", content="Tea", pinned="yes"), "'pinned' must be true or false"),
        (_op("add_fact", content="Tea", expires="2026-02-30"), "expires must be YYYY-MM-DD"),
        (_op("add_fact", content="Tea", expires="x" * 5000), "expires must be YYYY-MM-DD"),
        (_op("add_fact", content="Tea", expires="1999-01-01"), "1999-01-01 is already past"),
        (_op("add_fact", content="Tea", expires="9999-12-31"), "between 1000 and 8999"),
        (_op("add_fact", content="Tea", expires="2099-01-01"), "more than 10 years ahead"),
        (_op("add_fact", content="PIN is 4921, my bank card"), "never keeps secrets"),
        (_op("edit_fact", fact_id=1, content="x", clear_expiry=1), "must be true or false"),
        (_op("deactivate_fact", fact_id=1, reason="r" * 501), "'reason' has 501 characters"),
    ],
)
async def test_a_bad_request_line_gets_a_clear_error_and_the_daemon_keeps_serving(
    server: ControlServer, kit: Kit, line: bytes, error: str
) -> None:
    answer = await _exchange(server.path, line)
    assert answer["ok"] is False and error in answer["error"]
    assert "Traceback" not in answer["error"]
    assert await kit.services.db.scalar("SELECT COUNT(*) FROM messages") == 0
    assert await kit.services.db.scalar("SELECT COUNT(*) FROM facts") == 0
    assert await kit.services.db.scalar("SELECT COUNT(*) FROM passes") == 0
    assert "4921" not in answer["error"]  # a refusal never echoes the secret
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


async def _still_serving(server: ControlServer, serving: asyncio.Task[None]) -> None:
    answer = await _exchange(server.path, b'{"id": "after", "op": "status"}\n')
    assert answer == {"id": "after", "ok": True, "result": answer["result"]}
    assert not serving.done()


@pytest.fixture
async def serving(kit: Kit, clock: FakeClock, tmp_path: Path) -> AsyncIterator[Serving]:
    async for running in serve(ControlServer, kit, clock, tmp_path):
        yield running


NESTED = [
    (b"[" * 1000 + b"]" * 1000, "nested too deeply"),  # about 2 KB: used to end the daemon
    (b'{"a":' * 1000 + b"1" + b"}" * 1000, "nested too deeply"),
    (b"[" * 200_000, "nested too deeply"),
    (b'{"id": 1, "op": "status", "user": ' + b"[" * 50 + b"]" * 50 + b"}", "got a list"),
    (b'{"id": 1, "op": "facts", "category": {"a": 1}}', "got a nested object"),
]
NUMBERS = [
    (b'{"id": 1, "op": "fact_history", "fact_id": NaN}', "NaN is not a number"),
    (b'{"id": 1, "op": "fact_history", "fact_id": -Infinity}', "-Infinity is not a number"),
    (b'{"id": 1, "op": "fact_history", "fact_id": 1e999}', "out of range"),
    (b'{"id": 1, "op": "fact_history", "fact_id": 99999999999999999999}', "fit in 64 bits"),
    (b'{"id": 1, "op": "undo_pass", "pass_id": ' + b"9" * 5000 + b"}", "5,000 digits"),
    (b'{"id": ' + b"7" * 4301 + b', "op": "status"}', "4,301 digits"),
    (b'{"id": 1.5, "op": "status"}', "'id' must be an integer or a string"),
    (b'{"id": "' + b"x" * 201 + b'", "op": "status"}', "'id' must be an integer or a string"),
]


@pytest.mark.parametrize(("line", "error"), NESTED + NUMBERS, ids=lambda v: str(v)[:32])
async def test_nesting_nan_and_huge_numbers_get_a_clear_error_and_the_daemon_lives(
    serving: Serving, line: bytes, error: str
) -> None:
    server, task = serving
    answers = await converse(server.path, line + b"\n")
    assert len(answers) == 1 and answers[0]["ok"] is False
    assert error in answers[0]["error"] and answers[0]["kind"] == "InputError"
    await _still_serving(server, task)


async def test_an_op_name_of_a_megabyte_is_not_echoed_back_whole(
    serving: Serving,
) -> None:
    server, task = serving
    line = json.dumps({"id": 1, "op": "x" * 1_000_000}).encode() + b"\n"
    (answer,) = await converse(server.path, line)
    assert "unknown op" in answer["error"] and "1,000,000 characters" in answer["error"]
    assert len(answer["error"]) < 800  # its length and the known ops, not the megabyte
    await _still_serving(server, task)


@pytest.mark.parametrize(
    "fields",
    [
        {"op": "status", "user": "\ud800"},
        {"op": "facts", "category": "\udfff"},
        {"op": "day", "day": "\ud800"},
        {"op": "deactivate_fact", "fact_id": 1, "reason": "\ud800"},
        {"op": "\ud800"},
        {"op": "send", "text": "hi", "conversation": "\ud800\u0000"},
    ],
)
async def test_lone_surrogates_in_any_field_get_an_answer_with_the_same_id(
    serving: Serving, fields: dict[str, Any]
) -> None:
    server, task = serving
    line = json.dumps({"id": "\ud800", **fields}).encode() + b"\n"
    answers = await converse(server.path, line)
    assert answers and all(a["id"] == "\ud800" for a in answers)
    assert "internal error" not in str(answers[-1].get("error"))
    await _still_serving(server, task)


class _BrokenServer(ControlServer):
    """A daemon with a bug in serving a request (the safety net's own test)."""

    async def _run(self, op: Operation, request: Any) -> Any:
        if op.name != "day":
            return await super()._run(op, request)
        day = request.body["day"]
        if day == "unencodable":
            return {"value": float("nan")}  # a result JSON cannot carry
        if day == "deep":
            result: list[Any] = []
            for _ in range(100_000):
                result = [result]
            return result  # encoding it overflows the stack
        raise AssertionError("a bug below the connection handler")

    async def _handle(self, line: bytes, writer: asyncio.StreamWriter) -> None:
        if line.startswith(b"crash"):
            raise RuntimeError("a bug in the connection handler itself")
        await super()._handle(line, writer)


@pytest.fixture
async def broken(kit: Kit, clock: FakeClock, tmp_path: Path) -> AsyncIterator[Serving]:
    async for running in serve(_BrokenServer, kit, clock, tmp_path):
        yield running


@pytest.mark.parametrize("day", ["unencodable", "deep", "bug"])
async def test_a_result_that_cannot_be_sent_is_an_error_answer_and_the_connection_goes_on(
    broken: Serving, day: str
) -> None:
    server, task = broken
    line = json.dumps({"id": 3, "op": "day", "day": day}).encode() + b"\n"
    answers = await converse(server.path, line + b'{"id": 4, "op": "status"}\n')
    assert [a["id"] for a in answers] == [3, 4]
    assert answers[0]["ok"] is False and "internal error" in answers[0]["error"]
    assert answers[1]["ok"] is True
    await _still_serving(server, task)


async def test_a_bug_in_the_connection_handler_ends_that_connection_not_the_daemon(
    broken: Serving,
) -> None:
    server, task = broken
    answers = await converse(server.path, b'crash\n{"id": 2, "op": "status"}\n')
    assert len(answers) == 1  # the connection ended: the status line was not read
    assert answers[0]["id"] is None and "internal error" in answers[0]["error"]
    await _still_serving(server, task)
