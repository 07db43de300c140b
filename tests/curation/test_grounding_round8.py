"""The grounding guard's round-eight readings (kit/curator/grounding.py): a day and month said
without a year hold up a fact dated in the year the message was said, whatever year the words
around it made the date module guess. Messages written here, on the day each was said."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from kit.curator.grounding import Grounding
from kit.curator.ops import Insert
from kit.memory.messages import Message


def status(fact: str, said: str, day: date) -> str:
    at = datetime(day.year, day.month, day.day, 10, tzinfo=UTC)
    message = Message(1, "o", 1, "user", "", said, at, day, None, "chat")
    return Grounding([message], [1], "").check(Insert(fact, 0.9, "", sources=(1,)), {}).status


@pytest.mark.parametrize(
    ("fact", "said", "day"),
    [
        (  # "by Daniel Dennett" reads as a deadline: the date module guesses 2025
            "The owner started reading Elbow Room by Daniel Dennett on 13 March 2024.",
            'I started reading "Elbow Room" by Daniel Dennett on March 13, can you help me?',
            date(2024, 3, 15),
        ),
        (  # "my next steps" and "I'm thinking" read as the future: 2025 again
            "The owner started as senior producer on 15 June 2024.",
            "I'm thinking about my next steps as senior producer, I started on June 15.",
            date(2024, 7, 20),
        ),
    ],
)
def test_a_date_said_without_a_year_holds_in_the_year_it_was_said(
    fact: str, said: str, day: date
) -> None:
    assert status(fact, said, day) == "supported"


def test_another_year_or_another_day_is_still_not_said() -> None:
    said = 'I started reading "Elbow Room" by Daniel Dennett on March 13, can you help me?'
    day = date(2024, 3, 15)
    assert status("The owner started reading Elbow Room on 13 March 2023.", said, day) != (
        "supported"
    )
    assert status("The owner started reading Elbow Room on 14 March 2024.", said, day) != (
        "supported"
    )
