"""The grounding guard's round 24B (issue 29): a word of the fact its message says another
way. A month the message names by its name alone ("starts June", "my July-September
budget") says that month, never a day of it; a hyphenated word of the fact is said by its
parts ("six-week": "a 6-week course"), a number part as that number. Messages and facts
written here; each case naming no word was dropped or asked about by main's guard and is
stored; each case naming a word is not stored."""

from __future__ import annotations

import pytest

from tests.support.grounding import stored_or_named

# Each case by what it pins: the fact, the message it cites, the word named when not stored
CASES = {
    "a-month-named-alone": (
        "The owner's pottery class starts in June 2024.",
        "My pottery class starts June, I can't wait to get my hands dirty.",
        "",
    ),
    "a-month-in-a-hyphened-range": (
        "The owner has a $250 grocery budget for July to September 2024.",
        "I set my July-September grocery budget at $250, wish me luck.",
        "",
    ),
    "a-month-says-no-day": (
        "The owner's pottery class starts on 12 June 2024.",
        "My pottery class starts June, I can't wait to get my hands dirty.",
        "12 June 2024",
    ),
    "a-month-says-no-other-month": (
        "The owner's pottery class starts in July 2024.",
        "My pottery class starts June, I can't wait to get my hands dirty.",
        "in July 2024",
    ),
    "a-number-word-part": (
        "The owner signed up for a six-week pottery course.",
        "I signed up for a 6-week pottery course at the community centre.",
        "",
    ),
    "parts-said-apart": (
        "The owner cut their eating-out costs to $120 in April 2024.",
        "I cut my eating out costs to $120 in April, pretty proud of that.",
        "",
    ),
    "another-number-part": (
        "The owner signed up for an eight-week pottery course.",
        "I signed up for a 6-week pottery course at the community centre.",
        "eight-week",
    ),
}


@pytest.mark.parametrize(("fact", "said", "named"), list(CASES.values()), ids=list(CASES))
def test_said_another_way(fact: str, said: str, named: str) -> None:
    """A month named alone and a hyphenated word's parts say what they say, and no more."""
    stored_or_named(fact, said, named)


def test_a_month_named_alone_at_the_calendars_ends() -> None:
    """A message said in the first or last year the calendar holds still reads its month by
    name (the year after 9999 or before 1 does not exist: no error, the nearer month only)."""
    from datetime import date

    from kit.curator.said_days import bare_months

    (late,) = bare_months("starting June", date(9999, 12, 30), [])
    assert late[0].start == date(9999, 6, 1)
    (early,) = bare_months("starting June", date(1, 1, 2), [])
    assert early[0].start == date(1, 6, 1)
