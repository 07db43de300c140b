"""The grounding guard and a day written after its month with a preposition before it
(issue 29, bench/data/grounding-fresh3.json g3-124): "by November 15" was read as the whole
month and a number, so a fact dating the same day "15 November" was dropped as a date its
cited message does not say."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from kit.curator.grounding import Grounding
from kit.curator.ops import Insert
from kit.memory.messages import Message

SAID = (
    "I'm feeling a bit overwhelmed with the post-production schedule, especially since it's "
    "95% completed by November 15 and the final sound mix is scheduled for November 22, so "
    "can you help me prioritize my tasks to meet the deadline?"
)


def status(fact: str, said: str = SAID, day: date = date(2024, 11, 20)) -> str:
    at = datetime(day.year, day.month, day.day, 10, tzinfo=UTC)
    message = Message(1, "o", 1, "user", "", said, at, day, None, "chat")
    return Grounding([message], [1], "").check(Insert(fact, 0.9, "", sources=(1,)), {}).status


@pytest.mark.parametrize(
    "fact",
    [
        "The owner's post-production was 95% complete by 15 November, with the final sound "
        "mix set for 22 November.",
        "The owner's post-production was 95% complete by November 15.",
    ],
)
def test_a_day_said_after_by_and_its_month_holds_the_fact(fact: str) -> None:
    assert status(fact) == "supported"


def test_another_day_of_that_month_is_still_not_said() -> None:
    fact = "The owner's post-production was 95% complete by 16 November."
    assert status(fact) != "supported"
