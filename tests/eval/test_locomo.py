"""Reading LoCoMo-format files: evidence normalised, unscorable questions left out, bad input
named precisely."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from kit.errors import InputError
from kit.eval.locomo import load, normalise_evidence, parse, parse_session_time
from tests.eval.tiny import tiny


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("D1:3", ("D1:3",)),
        ("D8:6; D9:17", ("D8:6", "D9:17")),
        ("D:11:26", ("D11:26",)),
        ("D30:05", ("D30:5",)),
        (" d 4 : 2 ", ("D4:2",)),
        ("D1:1,D1:2", ("D1:1", "D1:2")),
        ("nonsense", ()),
    ],
)
def test_evidence_strings_are_normalised(raw: str, expected: tuple[str, ...]) -> None:
    assert normalise_evidence(raw) == expected


def test_session_times_parse_as_utc() -> None:
    assert parse_session_time("1:56 pm on 8 May, 2023", "x") == datetime(
        2023, 5, 8, 13, 56, tzinfo=UTC
    )
    assert parse_session_time("12:09 am on 13 Sept., 2023".replace("Sept.", "Sep"), "x").month == 9
    with pytest.raises(InputError, match="x: 'yesterday' is not a session time"):
        parse_session_time("yesterday", "x")


def test_the_tiny_dataset_reads_as_expected() -> None:
    first, second = parse(tiny(), "tiny.json")
    assert first.sample_id == "tiny-1" and first.speakers == ("Ana", "Ben")
    assert [t.ref for t in first.turns] == ["D1:1", "D1:2", "D1:3", "D2:1", "D2:2", "D2:3"]
    assert [q.text for q in first.questions] == ["What greyhound?", "Which orchestra?"]
    assert first.skipped == 3  # adversarial, no evidence, evidence naming no turn
    assert (
        first.turns[2].text
        == "Three, and lazy. [shares a photo: a photo of a dog asleep on a sofa]"
    )
    # turns keep their order inside a session; the conversation ends with its last turn
    assert first.turns[0].at == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    assert first.turns[0].at < first.turns[1].at < first.turns[2].at < first.turns[3].at
    assert first.end == first.turns[-1].at
    (question,) = second.questions
    assert question.evidence == ("D1:1", "D1:2") and question.category_name == "temporal"
    assert second.repaired == 1
    (plain, _) = parse(tiny(), "tiny.json", captions=False)
    assert plain.turns[2].text == "Three, and lazy."


def broken(change: Any) -> list[dict[str, Any]]:
    data = tiny()
    change(data)
    return data


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.clear(), "expected a non-empty JSON list"),
        (lambda d: d[0].pop("conversation"), r"tiny\.json\[0\] \(tiny-1\): 'conversation' must be"),
        (
            lambda d: d[0]["conversation"].pop("session_2_date_time"),
            r"session_2_date_time: missing",
        ),
        (
            lambda d: d[0]["conversation"].update(session_1_date_time="soon"),
            "'soon' is not a session time",
        ),
        (
            lambda d: d[0]["conversation"]["session_1"][0].update(dia_id="first"),
            r"session_1\[0\]: 'dia_id' must look like 'D1:1'",
        ),
        (lambda d: d[0]["qa"][0].update(category="4"), r"qa\[0\]: 'category' must be an integer"),
        (lambda d: d[0]["qa"][0].update(evidence="D1:1"), r"qa\[0\]: 'evidence' must be a list"),
        (lambda d: d[1].update(sample_id="tiny-1"), "sample_id values must be unique"),
        (
            lambda d: (
                d[0]["conversation"].update(
                    {k: v for k, v in d[0]["conversation"].items() if k.startswith("x")}
                )
                or [d[0]["conversation"].pop(k) for k in ("session_1", "session_2")]
            ),
            "no session_N turn lists found",
        ),
    ],
)
def test_bad_input_is_named_precisely(change: Any, message: str) -> None:
    with pytest.raises(InputError, match=message):
        parse(broken(change), "tiny.json")


def test_unreadable_files_are_input_errors(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="cannot read the file"):
        load(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(InputError, match="not valid JSON"):
        load(bad)
    good = tmp_path / "good.json"
    good.write_text(json.dumps(tiny()), encoding="utf-8")
    assert [s.sample_id for s in load(good)] == ["tiny-1", "tiny-2"]
