"""Reading a small model's curation answer: the schema a grammar compiler can take (no length
limits; Kit checks lengths itself), and JSON as small models get it wrong."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from kit.curator.ops import (
    MAX_CONTENT_CHARS,
    Insert,
    InvalidOperations,
    operations_from_reply,
    operations_tool,
)
from kit.llm.base import LLMReply, TextBlock, Usage
from kit.llm.json_repair import Unreadable, loads_lenient

NOW = datetime(2026, 3, 2, 9, tzinfo=UTC)
OP = {"op": "INSERT", "content": "Ana lives in Porto", "confidence": 0.9, "sources": [3]}


def _text(text: str) -> LLMReply:
    return LLMReply((TextBlock(text),), "end_turn", Usage(1, 1), "m")


def test_the_operation_schema_holds_no_length_limit_a_grammar_cannot_compile() -> None:
    schema = json.dumps(operations_tool().input_schema)
    assert "maxLength" not in schema and "maxItems" not in schema


def test_lengths_are_still_checked_when_the_answer_is_read() -> None:
    long = {**OP, "content": "x" * (MAX_CONTENT_CHARS + 1)}
    with pytest.raises(InvalidOperations, match="characters, more than"):
        operations_from_reply(_text(json.dumps({"operations": [long]})), now=NOW, tz=UTC)


@pytest.mark.parametrize(
    "answer",
    [
        "Here you go:\n```json\n" + json.dumps({"operations": [OP]}) + "\n```",
        json.dumps({"operations": [OP]})[:-2] + ",]}",  # trailing comma
        json.dumps([OP]),  # the list alone
        json.dumps(OP),  # one operation alone
        "Sure! " + json.dumps({"operations": [OP]}) + " Let me know.",
        json.dumps({"operations": [OP]}).replace("0.9", "0.9").replace('"', "'"),  # single quotes
    ],
)
def test_json_small_models_get_wrong_is_read(answer: str) -> None:
    (op,) = operations_from_reply(_text(answer), now=NOW, tz=UTC)
    assert op == Insert("Ana lives in Porto", 0.9, sources=(3,))


def test_text_without_json_is_unreadable_and_says_so() -> None:
    with pytest.raises(InvalidOperations, match="nor valid JSON") as raised:
        operations_from_reply(_text("I would store that Ana lives in Porto."), now=NOW, tz=UTC)
    assert raised.value.unreadable


def test_a_wrong_answer_that_was_read_is_not_unreadable() -> None:
    with pytest.raises(InvalidOperations) as raised:
        operations_from_reply(_text('{"operations": [{"op": "FORGET"}]}'), now=NOW, tz=UTC)
    assert not raised.value.unreadable


def test_python_literals_and_smart_quotes_are_read() -> None:
    assert loads_lenient("{“a”: True, “b”: None}") == {"a": True, "b": None}
    with pytest.raises(Unreadable):
        loads_lenient('{"a": ')
