"""Property: no line a client can send stops the daemon. Random and mutated protocol lines go
to a running control socket; each line gets exactly one answer (a result or a clear error,
never an internal one) and afterwards the daemon still answers `status`."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from datetime import date
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kit.api import Kit
from kit.clock import FakeClock
from kit.config import CATEGORIES
from kit.daemon.socket_server import ControlServer
from kit.operations import operations
from tests.support.sockets import Serving, converse, serve

EXAMPLES = 400  # per run; each example is one connection with one to three lines

# op -> the request fields it takes, from the declaration (kit/surface.py): every op is fuzzed
OPS = {op.name: tuple(arg.wire for arg in op.fields) for op in operations()}
ODD_TEXT = (
    "\ud800",
    "\udfff",
    "a\ud83dz",
    "\x00\x1b[31m",
    "2026-03-02",
    "9999-12-31",
    "0001-01-01",
    "２０２６-03-02",
    "owner",
    "people",
    "",
    " ",
    "NaN",
    "1" * 30,
)

texts = st.text(max_size=40) | st.sampled_from(ODD_TEXT)
scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats()  # NaN and the infinities included
    | texts
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=8,
)
days = st.dates().map(date.isoformat) | st.sampled_from(("today", "2026-03-02", "2026-13-01"))
FIELDS = {
    "user": st.sampled_from(("owner", "ana", "")) | texts,
    "text": st.text(min_size=1, max_size=80) | texts,
    "conversation": st.sampled_from(("terminal", "work")) | texts,
    "day": days,
    "date": days,
    "category": st.sampled_from(CATEGORIES) | texts,
    "include_inactive": st.booleans(),
    "fact_id": st.integers(min_value=-1, max_value=5),
    "pass_id": st.integers(min_value=-1, max_value=5),
    "reason": texts,
    "name": st.sampled_from(("jam", "Jam", "../jam", "a" * 65)) | texts,
    "content": st.text(min_size=1, max_size=80) | texts,
    "subject": texts,
    "pinned": st.booleans(),
    "expires": days,
    "since": days,
    "until": days,
    "clear_expiry": st.booleans(),
    "dry_run": st.booleans(),
    "k": st.integers(min_value=-5, max_value=60),
    "query": st.text(min_size=1, max_size=80) | texts,
    "fact": st.text(min_size=1, max_size=80) | texts,
    "limit": st.integers(min_value=-1, max_value=600),
    "reminder_id": st.integers(min_value=-1, max_value=5),
    "everything": st.booleans(),
    "question_id": st.integers(min_value=-1, max_value=5),
    "answer": st.sampled_from(("keep-old", "take-new", "keep-both", "KEEP-OLD", "maybe")) | texts,
    "receipt": st.sampled_from(("fr-aaaaaaaaaa", "FR-AAAAAAAAAA", "/etc/passwd", "../r.json"))
    | texts,
    "read_only": st.booleans(),
    "expires_days": st.integers(min_value=-1, max_value=4000),
    "token": st.sampled_from(("", "kit_000000000000_" + "a" * 43, "Bearer x", "k" * 201)) | texts,
    "call": texts,
    "peer": texts,
}
ids = st.integers(min_value=-(2**63), max_value=2**63 - 1) | st.text(max_size=10)
# Half the requests are what a client of that op would send (so the ops really run, with odd
# text, dates and ids inside); the other half put any JSON value anywhere.
well_formed = st.sampled_from(sorted(OPS)).flatmap(
    lambda op: st.fixed_dictionaries(
        {"id": ids, "op": st.just(op), **{name: FIELDS[name] for name in OPS[op]}},
        optional={"user": FIELDS["user"]},
    )
)
anything = st.fixed_dictionaries(
    {"id": ids | values, "op": st.sampled_from(sorted(OPS)) | texts},
    optional={name: kind | values for name, kind in FIELDS.items()},
)
requests = well_formed | anything
MUTATIONS = ("none",) * 8 + (
    "truncate",
    "insert",
    "flip",
    "cut",
    "nest",
    "digits",
    "repeat",
    "garbage",
)


@st.composite
def request_lines(draw: st.DrawFn) -> bytes:
    """One line: a request (well-formed or not), serialised one way or another, then maybe
    mutated the way broken or hostile clients mangle lines."""
    body = draw(requests)
    text = json.dumps(body, ensure_ascii=draw(st.booleans()), allow_nan=True)
    line = text.encode("utf-8", "surrogatepass")  # lone surrogates as invalid UTF-8 bytes
    mutation = draw(st.sampled_from(MUTATIONS))
    at = draw(st.integers(min_value=0, max_value=len(line)))
    if mutation == "truncate":
        line = line[:at]
    elif mutation == "insert":
        line = line[:at] + draw(st.binary(min_size=1, max_size=8)) + line[at:]
    elif mutation == "flip" and line:
        spot = min(at, len(line) - 1)
        line = line[:spot] + bytes([line[spot] ^ draw(st.integers(1, 255))]) + line[spot + 1 :]
    elif mutation == "cut":
        line = line[:at] + line[at + draw(st.integers(1, 20)) :]
    elif mutation == "nest":
        depth = draw(st.integers(min_value=1, max_value=5000))
        line = b"[" * depth + line + b"]" * draw(st.sampled_from((0, depth)))
    elif mutation == "digits":
        number = b"9" * draw(st.integers(min_value=19, max_value=6000))
        line = line.replace(b'"id": ', b'"id": ' + number + b", ", 1) if at % 2 else number
    elif mutation == "repeat":
        line = line * draw(st.integers(min_value=2, max_value=4))
    elif mutation == "garbage":
        line = draw(st.binary(max_size=64))
    return line


@pytest.fixture
async def serving(kit: Kit, clock: FakeClock, tmp_path: Path) -> AsyncIterator[Serving]:
    async for running in serve(ControlServer, kit, clock, tmp_path):
        yield running


def _segments(payload: bytes) -> int:
    """How many request lines the server reads from `payload` (a last one may lack its \\n)."""
    return payload.count(b"\n") + (0 if payload.endswith(b"\n") else 1)


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(lines=st.lists(request_lines(), min_size=1, max_size=3))
async def test_no_line_stops_the_daemon_and_each_gets_one_clear_answer(
    serving: Serving, lines: list[bytes]
) -> None:
    server, task = serving
    payload = b"".join(line + b"\n" for line in lines)
    async with asyncio.timeout(60):
        answers = await converse(server.path, payload)
    final = [a for a in answers if "event" not in a]
    assert len(final) == _segments(payload)
    for answer in final:
        assert answer["ok"] is True or (
            isinstance(answer["error"], str) and "internal error" not in answer["error"]
        ), answer
    async with asyncio.timeout(60):
        (status,) = await converse(server.path, b'{"id": 0, "op": "status"}\n')
    assert status["ok"] is True and not task.done()


def test_every_declared_field_has_a_strategy() -> None:
    """A new operation's fields are fuzzed as soon as it is declared (or this names the gap)."""
    assert {field for fields in OPS.values() for field in fields} <= set(FIELDS)
    assert "command" in OPS and "cancel_reminder" in OPS
