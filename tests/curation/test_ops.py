"""The operation schema: what the curator model may answer, and every way it can be wrong."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from jsonschema import Draft202012Validator

from kit.curator.ops import (
    MAX_OPERATIONS,
    Deactivate,
    Insert,
    InvalidOperations,
    Replace,
    Update,
    operations_from_reply,
    operations_tool,
    parse_operations,
)
from kit.llm.base import LLMReply, TextBlock, ToolUse, Usage

NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
BERLIN = ZoneInfo("Europe/Berlin")


def ins(**fields: Any) -> dict[str, Any]:
    """An INSERT citing message 1, with these fields."""
    return {"op": "INSERT", "sources": [1], **fields}


def rep(**fields: Any) -> dict[str, Any]:
    return {"op": "REPLACE", "sources": [1], **fields}


def parse(*ops: dict[str, Any]) -> list[Any]:
    return parse_operations({"operations": list(ops)}, now=NOW, tz=UTC)


def test_each_operation_parses_into_its_dataclass() -> None:
    ops = parse(
        {"op": "INSERT", "sources": [1], "content": "Ana is the owner's sister", "confidence": 0.9,
         "subject": "Ana", "expires_at": "2026-12-31"},
        {"op": "UPDATE", "fact_id": 3, "confidence": 0.5},
        {"op": "REPLACE", "sources": [1], "fact_ids": [4, 5], "content": "merged", "confidence": 1},
        {"op": "DEACTIVATE", "fact_id": 6, "reason": "the owner moved"},
    )  # fmt: skip
    assert ops == [
        Insert("Ana is the owner's sister", 0.9, "Ana", datetime(2027, 1, 1, tzinfo=UTC), "", (1,)),
        Update(3, confidence=0.5),
        Replace((4, 5), "merged", 1.0, sources=(1,)),
        Deactivate(6, "the owner moved"),
    ]


def test_a_date_expiry_holds_through_that_day_in_the_owners_zone() -> None:
    (op,) = parse_operations(
        {"operations": [{"op": "INSERT", "sources": [1], "content": "x", "confidence": 1,
                         "expires_at": "2026-03-10"}]},
        now=NOW,
        tz=BERLIN,
    )  # fmt: skip
    assert isinstance(op, Insert)
    assert op.expires_at == datetime(2026, 3, 11, tzinfo=BERLIN)


def test_update_with_null_expiry_clears_it_and_without_keeps_it() -> None:
    cleared, kept = parse(
        {"op": "UPDATE", "fact_id": 1, "expires_at": None},
        {"op": "UPDATE", "fact_id": 2, "content": "new text", "sources": [4]},
    )
    assert cleared == Update(1, clear_expiry=True)
    assert kept == Update(2, content="new text", sources=(4,))


def test_empty_operations_list_is_valid() -> None:
    assert parse() == []


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ([], "must be an object"),
        ({"ops": []}, "must be an object"),
        ({"operations": "INSERT"}, "must be a list"),
        ({"operations": [{"op": "MERGE"}]}, "unknown operation (a string of 5 characters, #"),
        ({"operations": [{"op": "DELETE", "fact_id": 1}]},
         "unknown operation (a string of 6 characters, #"),
        ({"operations": ["INSERT"]}, "must be an object"),
        ({"operations": [ins(content="x")]}, "missing ['confidence']"),
        ({"operations": [ins(content="x", confidence=2)]}, "from 0 to 1"),
        ({"operations": [ins(content="x", confidence="high")]}, "from 0 to 1"),
        ({"operations": [ins(content=" ", confidence=1)]}, "'content' is empty"),
        ({"operations": [ins(content="x", confidence=1, note="y")]},
         "1 unknown field(s) (a string of 4 characters, #"),
        ({"operations": [{"op": "UPDATE", "fact_id": "1", "content": "x"}]}, "positive integers"),
        ({"operations": [{"op": "UPDATE", "fact_id": True, "content": "x"}]}, "positive integers"),
        ({"operations": [{"op": "DEACTIVATE", "fact_id": 1}]}, "missing ['reason']"),
        ({"operations": [{"op": "DEACTIVATE", "fact_id": 1, "reason": ""}]}, "'reason' is empty"),
        ({"operations": [rep(fact_ids=[], content="x", confidence=1)]},
         "non-empty list"),
        ({"operations": [rep(fact_ids=[1, 1], content="x", confidence=1)]},
         "lists a fact twice"),
        ({"operations": [ins(content="x", confidence=1, expires_at="next week")]}, "not a date"),
        ({"operations": [ins(content="x", confidence=1, expires_at="2026-03-01")]}, "already past"),
        ({"operations": [{"op": "UPDATE", "fact_id": 1, "content": "x", "sources": [1]},
                         {"op": "DEACTIVATE", "fact_id": 1, "reason": "y"}]},
         "fact #1 appears in operations 1 and 2"),
        ({"operations": [{"op": "DEACTIVATE", "fact_id": 2, "reason": "y"},
                         rep(fact_ids=[1, 2], content="x", confidence=1)]},
         "fact #2 appears in operations 1 and 2"),
        ({"operations": [ins(content="x", confidence=1)] * (MAX_OPERATIONS + 1)},
         "more than"),
        ({"operations": [{"op": "INSERT", "content": "x", "confidence": 1}]},
         "missing ['sources']"),
        ({"operations": [ins(sources=[], content="x", confidence=1)]}, "'sources' is empty"),
        ({"operations": [{"op": "UPDATE", "fact_id": 1, "content": "x"}]}, "needs its 'sources'"),
        ({"operations": [{"op": "UPDATE", "fact_id": 1, "subject": "Ana", "sources": []}]},
         "needs its 'sources'"),
        ({"operations": [{"op": "REPLACE", "fact_ids": [1, 2], "content": "x", "confidence": 1}]},
         "missing ['sources']"),
        ({"operations": [ins(sources="12", content="x", confidence=1)]}, "must be a list"),
        ({"operations": [ins(sources=[12, "13"], content="x", confidence=1)]},
         "'sources' must hold message ids"),
        ({"operations": [ins(sources=[0], content="x", confidence=1)]}, "must hold message ids"),
        ({"operations": [ins(sources=[True], content="x", confidence=1)]}, "must hold message ids"),
        ({"operations": [ins(sources=list(range(1, 300)), content="x", confidence=1)]},
         "cites more than"),
    ],
)  # fmt: skip
def test_malformed_operations_are_rejected_with_a_reason(raw: Any, message: str) -> None:
    with pytest.raises(InvalidOperations) as caught:
        parse_operations(raw, now=NOW, tz=UTC)
    assert message in str(caught.value)


def reply(*blocks: Any, stop: str = "tool_use") -> LLMReply:
    return LLMReply(tuple(blocks), stop, Usage(1, 1), "m")


def test_reply_with_one_tool_call_is_read() -> None:
    ops = operations_from_reply(
        reply(
            TextBlock("Here are my changes."),
            ToolUse("t1", "apply_operations", {"operations": [{"op": "UPDATE", "fact_id": 1,
                                                                "confidence": 0.3}]}),
        ),
        now=NOW,
        tz=UTC,
    )  # fmt: skip
    assert ops == [Update(1, confidence=0.3)]


def test_reply_as_plain_json_text_is_accepted() -> None:
    text = '```json\n{"operations": [{"op": "DEACTIVATE", "fact_id": 2, "reason": "moved"}]}\n```'
    ops = operations_from_reply(reply(TextBlock(text), stop="end_turn"), now=NOW, tz=UTC)
    assert ops == [Deactivate(2, "moved")]


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (reply(TextBlock("I think Ana is the sister."), stop="end_turn"), "nor valid JSON"),
        (reply(TextBlock('{"operations": [{"op": "INSERT",'), stop="end_turn"), "nor valid JSON"),
        (reply(stop="end_turn"), "the answer was empty"),
        (reply(ToolUse("t1", "search_memory", {"query": "x"})), "expected one call"),
        (reply(ToolUse("t1", "apply_operations", {"operations": []}),
               ToolUse("t2", "apply_operations", {"operations": []})), "expected one call"),
        (reply(ToolUse("t1", "apply_operations", {"operations": []}), stop="max_tokens"),
         "cut off"),
    ],
)  # fmt: skip
def test_unusable_replies_are_rejected(bad: LLMReply, message: str) -> None:
    with pytest.raises(InvalidOperations) as caught:
        operations_from_reply(bad, now=NOW, tz=UTC)
    assert message in str(caught.value)


def test_tool_schema_is_the_same_for_every_category_and_lists_the_four_operations() -> None:
    spec = operations_tool()
    assert spec.name == "apply_operations"
    variants = spec.input_schema["properties"]["operations"]["items"]["anyOf"]
    assert [v["properties"]["op"]["enum"] for v in variants] == [
        ["INSERT"],
        ["UPDATE"],
        ["REPLACE"],
        ["DEACTIVATE"],
    ]
    assert all(v["additionalProperties"] is False for v in variants)
    assert operations_tool() == spec


VALIDATOR = Draft202012Validator(operations_tool().input_schema)
GOOD = [
    {"op": "INSERT", "content": "x", "confidence": 1, "sources": [15, 12]},
    {"op": "INSERT", "content": "x", "confidence": 0.7, "sources": [1], "subject": "Ana",
     "expires_at": "2026-05-01", "reason": "said so"},
    {"op": "UPDATE", "fact_id": 3, "confidence": 0.4},
    {"op": "UPDATE", "fact_id": 3, "expires_at": None},
    {"op": "UPDATE", "fact_id": 3, "content": "y", "sources": [2]},
    {"op": "REPLACE", "fact_ids": [4, 5], "content": "x and y", "confidence": 1, "sources": []},
    {"op": "DEACTIVATE", "fact_id": 6, "reason": "moved", "sources": [12]},
]  # fmt: skip


@pytest.mark.parametrize(
    "item",
    [
        {"op": "INSERT", "confidence": 1, "sources": [1]},
        {"op": "INSERT", "content": "", "confidence": 1, "sources": [1]},
        {"op": "INSERT", "content": "x", "sources": [1]},
        {"op": "INSERT", "content": "x", "confidence": 1, "sources": []},
        {"op": "INSERT", "content": "x", "confidence": 2, "sources": [1]},
        {"op": "INSERT", "content": "x", "confidence": 1, "sources": [1], "fact_id": 3},
        {"op": "INSERT", "content": 5, "confidence": 1, "sources": [1]},
        {"op": "UPDATE", "content": "x", "sources": [1]},
        {"op": "UPDATE", "fact_id": 1, "content": "x"},
        {"op": "REPLACE", "fact_ids": [], "content": "x", "confidence": 1, "sources": []},
        {"op": "REPLACE", "fact_ids": [1, 2], "confidence": 1, "sources": []},
        {"op": "DEACTIVATE", "fact_id": 1},
        {"op": "DEACTIVATE", "fact_id": 1, "reason": ""},
        {"op": "DEACTIVATE", "fact_id": 0, "reason": "x"},
        {"op": "DROP", "fact_id": 1},
    ],
    ids=[
        "INSERT without content", "INSERT with empty content", "INSERT without confidence",
        "INSERT citing nothing", "confidence 2", "INSERT with a fact id", "content a number",
        "UPDATE without fact id", "UPDATE content without sources",
        "REPLACE merging nothing", "REPLACE without content", "DEACTIVATE without reason",
        "DEACTIVATE with empty reason", "fact id 0", "unknown op",
    ],
)  # fmt: skip
def test_the_schema_the_model_sees_refuses_an_operation_missing_its_fields(
    item: dict[str, Any],
) -> None:
    """Validated per type before the answer is written (a model decoding against the schema
    cannot produce these), and still after: parse_operations refuses each of them too."""
    Draft202012Validator.check_schema(operations_tool().input_schema)
    assert VALIDATOR.is_valid({"operations": GOOD})
    assert not VALIDATOR.is_valid({"operations": [item]})
    with pytest.raises(InvalidOperations):
        parse_operations({"operations": [item]}, now=NOW, tz=UTC)


def test_an_update_changing_nothing_is_refused_by_the_schema_and_read_as_one_op() -> None:
    """The schema asks for a change; a model that sends none anyway loses that operation
    alone (kit/curator/apply.py drops it with its reason), not the pass."""
    item = {"op": "UPDATE", "fact_id": 1}
    assert not VALIDATOR.is_valid({"operations": [item]})
    assert parse_operations({"operations": [item]}, now=NOW, tz=UTC) == [Update(1)]


def test_expiry_one_minute_ahead_is_fine() -> None:
    soon = (NOW + timedelta(minutes=1)).isoformat()
    (op,) = parse(
        {"op": "INSERT", "sources": [1], "content": "x", "confidence": 1, "expires_at": soon}
    )
    assert isinstance(op, Insert) and op.expires_at == NOW + timedelta(minutes=1)


def test_sources_are_cited_per_operation_sorted_once_and_optional_where_nothing_is_learned() -> (
    None
):
    """Text-storing operations cite their messages; a confidence change, a retirement or a
    pure merge may cite none."""
    insert, confidence, merge, retire = parse(
        {"op": "INSERT", "content": "x", "confidence": 1, "sources": [15, 12, 15]},
        {"op": "UPDATE", "fact_id": 3, "confidence": 0.4},
        {"op": "REPLACE", "fact_ids": [4, 5], "content": "x and y", "confidence": 1,
         "sources": []},
        {"op": "DEACTIVATE", "fact_id": 6, "reason": "moved", "sources": [12]},
    )  # fmt: skip
    assert insert.sources == (12, 15) and confidence.sources == ()
    assert merge.sources == () and retire.sources == (12,)
    variants = operations_tool().input_schema["properties"]["operations"]["items"]["anyOf"]
    assert all(v["properties"]["sources"]["items"]["type"] == "integer" for v in variants)


@pytest.mark.parametrize(
    ("expires_at", "message"),
    [
        ("9999-12-31", "more than 10 years ahead"),
        ("9999-12-31T23:59:59-12:00", "more than 10 years ahead"),
        ("2036-03-03", "more than 10 years ahead"),
        ("0001-01-01", "already past"),
        ("0001-01-01T00:00:00+14:00", "already past"),
        (20260501, "must be a date"),
        ("x" * 5000, "not a date"),
    ],
)
def test_model_dates_out_of_range_are_rejected_never_clamped_or_crashing(
    expires_at: Any, message: str
) -> None:
    """`9999-12-31` raised OverflowError, which killed `kit curate` and every sweep."""
    for op in (
        ins(content="x", confidence=1, expires_at=expires_at),
        {"op": "UPDATE", "fact_id": 1, "expires_at": expires_at},
        rep(fact_ids=[1, 2], content="x", confidence=1, expires_at=expires_at),
    ):  # fmt: skip
        with pytest.raises(InvalidOperations) as caught:
            parse(op)
        assert message in str(caught.value)


def test_an_expiry_ten_years_ahead_is_still_fine() -> None:
    (op,) = parse(ins(content="x", confidence=1, expires_at="2036-03-01"))
    assert isinstance(op, Insert) and op.expires_at == datetime(2036, 3, 2, tzinfo=UTC)


@pytest.mark.parametrize(
    ("op", "message"),
    [
        ({"op": "UPDATE", "fact_id": 2**63, "content": "x", "sources": [1]}, "positive integers"),
        ({"op": "DEACTIVATE", "fact_id": 10**30, "reason": "x"}, "positive integers"),
        (rep(fact_ids=list(range(1, 30)), content="x", confidence=1), "at most 20 may be merged"),
        (ins(content="x", confidence=float("nan")), "from 0 to 1"),
        (ins(content="x", confidence=float("inf")), "from 0 to 1"),
        (ins(content="x" * 2001, confidence=1), "2001 characters"),
        (ins(content="x", subject="s" * 201, confidence=1), "'subject' has 201 characters"),
        (ins(content="x", confidence=1, sources=[2**63]), "message ids"),
        ({"op": "DEACTIVATE", "fact_id": 1, "reason": "r" * 501}, "'reason' has 501 characters"),
    ],
)  # fmt: skip
def test_numbers_ids_and_lengths_are_checked_at_the_edge(op: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidOperations) as caught:
        parse(op)
    assert message in str(caught.value)


SECRET = "hunter2-sk-ant-api03-abcdefghijklmnop"


@pytest.mark.parametrize(
    "raw",
    [
        {"operations": [{"op": SECRET}]},
        {"operations": [ins(content="x", confidence=1, **{SECRET: 1})]},
        {"operations": [ins(content="x", confidence=1, expires_at=SECRET)]},
        {"operations": [{"op": "DEACTIVATE", "fact_id": SECRET, "reason": "x"}]},
        {"operations": [ins(content=SECRET * 100, confidence=1)]},
        {"operations": [ins(content=["x"], subject=SECRET, confidence=1)]},
    ],
    ids=["op name", "field name", "date", "fact id", "long content", "wrong type"],
)
def test_a_rejection_never_quotes_what_the_model_sent(raw: Any) -> None:
    """The reason is logged and stored: it names the problem, a length and a short hash."""
    with pytest.raises(InvalidOperations) as caught:
        parse_operations(raw, now=NOW, tz=UTC)
    assert "hunter2" not in str(caught.value) and "sk-ant" not in str(caught.value)


def test_a_call_of_an_unknown_tool_is_rejected_without_its_name() -> None:
    bad = reply(ToolUse("t1", SECRET, {"x": 1}))
    with pytest.raises(InvalidOperations) as caught:
        operations_from_reply(bad, now=NOW, tz=UTC)
    assert "1 call(s) of other tools" in str(caught.value) and "hunter2" not in str(caught.value)
