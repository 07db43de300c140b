"""Every argument the chat model gives a tool is checked at the edge: a bad value is that
tool's "Not done: ..." answer and the turn goes on; no single tool call can fail a turn; and a
turn that does fail is not sent to the model again with the next message."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

import pytest

from kit.api import Kit
from kit.llm.base import ToolResult, ToolUse
from kit.llm.fake import FakeLLM
from kit.tools import TOOL_SPECS
from kit.turn import TurnResult
from tests.support.crash import crash_on_insert

pytestmark = pytest.mark.stores


async def call(
    kit: Kit, llm: FakeLLM, tool: str, args: Mapping[str, Any], said: str = "please do it"
) -> tuple[ToolResult, TurnResult]:
    """One owner turn (`said`) in which the model calls `tool` with `args`, then answers
    "Done."."""
    llm.queue(ToolUse("call-1", tool, dict(args)), "Done.")
    turn = await kit.send(said)
    shown = llm.requests[-1].messages[-1].content
    (result,) = [b for b in shown if isinstance(b, ToolResult)]
    return result, turn


async def not_done(kit: Kit, llm: FakeLLM, tool: str, args: Mapping[str, Any]) -> str:
    """The tool's refusal; the turn itself carried on to the model's answer."""
    result, turn = await call(kit, llm, tool, args)
    assert result.is_error and result.content.startswith("Not done: "), (tool, args, result)
    assert turn.reply == "Done." and not turn.failed
    assert "Traceback" not in result.content
    return result.content


@pytest.mark.parametrize(
    "at",
    [
        "9999-12-31T23:59-12:00",  # one minute later in UTC is the year 10000
        "0001-01-01T00:00+14:00",  # the year 0 in UTC
        "9999-12-31T23:59:59.999999-23:59",
        "0001-01-01T00:00",
        "9999-12-31T23:59",
    ],
)
async def test_a_reminder_time_at_a_calendar_edge_is_not_done_and_stores_nothing(
    kit: Kit, fake_llm: FakeLLM, at: str
) -> None:
    await not_done(kit, fake_llm, "schedule_reminder", {"text": "call Ana", "at": at})
    assert await kit.services.reminders.store.every("owner") == []


@pytest.mark.parametrize("value", [2**70, -(2**70), 2**63, -1, 0, True, 1.5, "abc", [1], {"id": 1}])
async def test_cancel_reminder_with_an_id_out_of_range_or_of_the_wrong_type_is_not_done(
    kit: Kit, fake_llm: FakeLLM, value: Any
) -> None:
    text = await not_done(kit, fake_llm, "cancel_reminder", {"id": value})
    assert "id" in text


@pytest.mark.parametrize("text", [["call", "Ana"], {"what": "call Ana"}, 42, 4.5, True])
async def test_a_reminder_text_that_is_not_a_string_is_refused_not_stored_as_its_repr(
    kit: Kit, fake_llm: FakeLLM, text: Any
) -> None:
    refused = await not_done(kit, fake_llm, "schedule_reminder", {"text": text, "in_minutes": 5})
    assert "text must be" in refused
    assert await kit.services.reminders.store.every("owner") == []


@pytest.mark.parametrize(
    ("tool", "args", "says"),
    [
        ("remember", {"fact": ["Ana", "likes jazz"]}, "fact must be"),
        ("remember", {"fact": "Ana likes jazz", "subject": {"name": "Ana"}}, "subject must be"),
        ("remember", {"fact": "Ana likes jazz", "category": "gossip"}, "category must be one of"),
        ("remember", {"fact": None}, "needs fact"),
        ("search_memory", {"query": 123}, "query must be"),
        ("search_memory", {"query": "x" * 1_000_000}, "at most"),
        ("get_day_history", {"date": ["today"]}, "date must be"),
        ("get_day_history", {"date": "9999-12-31"}, "9999-12-31"),
        ("get_day_history", {"date": "0001-01-01"}, "0001-01-01"),
        ("schedule_reminder", {"text": "tea", "in_minutes": "soon"}, "in_minutes must be"),
        ("schedule_reminder", {"text": "tea", "in_minutes": 10**400}, "in_minutes must be"),
        ("schedule_reminder", {"text": "tea", "in_minutes": float("nan")}, "in_minutes must be"),
        ("schedule_reminder", {"text": "tea", "repeat": "daily", "time": 9}, "time must be"),
        ("schedule_reminder", {"text": "tea", "repeat": 7, "time": "09:00"}, "repeat must be"),
        ("schedule_reminder", {"text": "tea", "at": "2026-03-03T09:00", "when": 1}, "when"),
        ("read_note", {"name": "recipes", "start_line": 2**70}, "start_line must be"),
        ("read_note", {"name": "recipes", "count": "lots"}, "count must be"),
        ("read_note", {"name": 7}, "name must be"),
        ("grep_notes", {"pattern": 5}, "pattern must be"),
        ("grep_notes", {"pattern": "x" * 1_000_000}, "at most"),
    ],
)
async def test_wrong_types_and_huge_values_are_not_done(
    kit: Kit, fake_llm: FakeLLM, tool: str, args: Mapping[str, Any], says: str
) -> None:
    text = await not_done(kit, fake_llm, tool, args)
    assert says in text, text
    assert await kit.services.facts.live("owner", kit.services.clock.now()) == []


async def test_a_string_with_a_lone_surrogate_is_cleaned_before_it_is_stored(
    kit: Kit, fake_llm: FakeLLM
) -> None:
    said = "remember that Ana likes jazz"
    result, _ = await call(kit, fake_llm, "remember", {"fact": "Ana likes \ud800 jazz"}, said)
    assert not result.is_error, result.content
    (fact,) = await kit.services.facts.live("owner", kit.services.clock.now())
    assert fact.content == "Ana likes \ufffd jazz"


async def test_an_unexpected_error_inside_one_tool_is_a_not_done_answer_logged_with_traceback(
    kit: Kit, fake_llm: FakeLLM, caplog: pytest.LogCaptureFixture
) -> None:
    await crash_on_insert(kit.services.db, "facts", "a bug in Kit")
    fake_llm.queue(
        ToolUse("call-1", "remember", {"fact": "Ana likes jazz"}),
        ToolUse("call-2", "search_memory", {"query": "Ana"}),
        "Done.",
    )
    with caplog.at_level(logging.ERROR, logger="kit.tools"):
        turn = await kit.send("remember that Ana likes jazz")
    assert turn.reply == "Done." and not turn.failed
    first = fake_llm.requests[1].messages[-1].content
    (result,) = [b for b in first if isinstance(b, ToolResult)]
    assert result.is_error and result.content.startswith("Not done: ")
    assert "a bug in Kit" not in result.content  # a raw error never reaches the model
    (record,) = [r for r in caplog.records if "remember" in r.getMessage()]
    assert record.exc_info is not None  # the traceback is in the log
    assert len(fake_llm.requests) == 3  # the next tool call and the answer still happened


def test_every_tool_schema_uses_only_what_the_edge_checks() -> None:
    from kit.tool_input import check_schema

    for spec in TOOL_SPECS:
        check_schema(spec)


async def test_a_failed_turn_is_not_sent_to_the_model_again_with_the_next_message(
    kit: Kit, fake_llm: FakeLLM
) -> None:
    fake_llm.queue("first answer")
    await kit.send("first")
    fake_llm.queue(RuntimeError("a bug somewhere in the turn"))
    with pytest.raises(RuntimeError):
        await kit.send("the message that broke the turn")
    for n in range(2):
        fake_llm.queue(f"answer {n}")
        turn = await kit.send(f"next {n}")
        assert turn.reply == f"answer {n}"
        sent = str(fake_llm.requests[-1].messages)
        assert "the message that broke the turn" not in sent
        assert "first" in sent  # the rest of the window is there
    messages = await kit.services.messages.window(turn.conversation_id)
    broke = [m for m in messages if m.text == "the message that broke the turn"]
    assert len(broke) == 1  # kept, not re-sent
    after = messages[messages.index(broke[0]) + 1]
    assert after.role == "assistant" and after.source == "failed"


@pytest.mark.parametrize(
    ("at", "zone"),
    [("0001-01-01T00:00", "Asia/Tokyo"), ("9999-12-31T23:59", "America/Adak")],
)
def test_a_local_time_at_a_calendar_edge_in_any_zone_is_an_input_error(at: str, zone: str) -> None:
    from zoneinfo import ZoneInfo

    from kit.errors import InputError
    from kit.reminders.rules import parse_local

    with pytest.raises(InputError, match="outside the times"):
        parse_local(at, ZoneInfo(zone))


async def test_a_turn_stopped_by_the_machine_not_a_bug_is_answered_with_the_next_message(
    kit: Kit, fake_llm: FakeLLM
) -> None:
    """A full disk or a held lock (a KitError) is not the message's fault: it is not marked,
    and goes to the model with the next message, like one the model was down for."""
    from kit.errors import StorageError

    fake_llm.queue(StorageError("the disk is full; free some space and try again"))
    with pytest.raises(StorageError):
        await kit.send("a message the disk was full for")
    fake_llm.queue("answered both")
    turn = await kit.send("and this one")
    assert turn.reply == "answered both"
    assert "a message the disk was full for" in str(fake_llm.requests[-1].messages)
