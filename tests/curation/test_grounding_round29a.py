"""The grounding guard's round 29A (issue 29): short supported facts still dropped.
(1) A clause that goes on with the one before it ("Watching your pupils learn | and thrive
...") is about whom that one says: a friend's `your pupils ... and thrive` holds up the
owner's `pupils are thriving`, as the first clause's `learn` already did. Messages and facts
written here, in our own words; the rules alone (no weighing)."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from kit.curator.grounding import Grounding, Verdict
from kit.curator.ops import Insert
from kit.memory.messages import Message
from tests.support.grounding import rules_only


def _said_by(speaker: str, text: str) -> Message:
    at = datetime(2024, 5, 6, 10, tzinfo=UTC)
    return Message(1, "o", 1, "user", speaker, text, at, date(2024, 5, 6), None, "chat")


def _checked(fact: str, speaker: str, text: str) -> Verdict:
    grounding = Grounding([_said_by(speaker, text)], [1], "Ada")
    return grounding.check(Insert(fact, 0.9, "", sources=(1,)), {})


@pytest.mark.parametrize(
    ("fact", "text"),
    [
        (
            "Ada's pupils are learning and thriving.",
            "Lovely news, Ada! Watching your pupils learn and thrive must feel wonderful.",
        ),
        (
            "Ada's sons are swimming and diving.",
            "Great photos, Ada. Seeing your sons swim and dive like that is such a treat.",
        ),
    ],
)
def test_a_clause_going_on_with_your_is_about_the_listener(
    fact: str, text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules_only(monkeypatch)
    verdict = _checked(fact, "Bo", text)
    assert verdict.status == "supported", verdict.reason


def test_a_clause_going_on_with_the_speakers_own_is_not_the_listeners(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rules_only(monkeypatch)
    verdict = _checked(
        "Ada's pupils are learning and thriving.",
        "Bo",
        "Lovely news, Ada! Watching my pupils learn and thrive feels wonderful too.",
    )
    assert verdict.status != "supported"
