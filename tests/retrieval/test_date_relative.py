"""Relative days ("yesterday", "last Friday", "two weeks ago", "the week before 9 June")
become the days they name, resolved against the reference day: a question's today, a
message's own day."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kit.dates.text import DateSpan, said_spans
from tests.support.dates import day, spans


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # WEDNESDAY is 16 August 2023
        ("yesterday", ("2023-08-15", "2023-08-15")),
        ("last night", ("2023-08-15", "2023-08-15")),
        ("the day before yesterday", ("2023-08-14", "2023-08-14")),
        ("tomorrow", ("2023-08-17", "2023-08-17")),
        ("the day after tomorrow", ("2023-08-18", "2023-08-18")),
        ("this morning", ("2023-08-16", "2023-08-16")),
        ("last Friday", ("2023-08-11", "2023-08-11")),
        ("last Fri", ("2023-08-11", "2023-08-11")),
        ("last Tues", ("2023-08-15", "2023-08-15")),
        ("last Wednesday", ("2023-08-09", "2023-08-09")),  # not today
        ("this Friday", ("2023-08-18", "2023-08-18")),
        ("this coming Friday", ("2023-08-18", "2023-08-25")),
        ("next Monday", ("2023-08-21", "2023-08-21")),
        # said early in a week, "next Friday" may be this week's or the next one
        ("next Friday", ("2023-08-18", "2023-08-25")),
        ("the Friday before last", ("2023-08-04", "2023-08-04")),
        ("two weeks ago", ("2023-07-26", "2023-08-09")),
        ("a couple of days ago", ("2023-08-13", "2023-08-15")),
        ("a few weeks ago", ("2023-07-19", "2023-08-02")),
        ("about five years ago", ("2017-08-17", "2019-08-17")),
        ("ten years back", ("2012-08-18", "2014-08-18")),
        ("in 3 days", ("2023-08-18", "2023-08-20")),
        ("two weeks from now", ("2023-08-23", "2023-09-06")),
        ("the last two weeks", ("2023-08-02", "2023-08-16")),
        ("the next few days", ("2023-08-16", "2023-08-19")),
        ("the past week", ("2023-08-09", "2023-08-16")),
        ("last week", ("2023-08-07", "2023-08-13")),
        ("this week", ("2023-08-14", "2023-08-20")),
        ("next week", ("2023-08-21", "2023-08-27")),
        ("the week before last", ("2023-07-31", "2023-08-06")),
        ("last weekend", ("2023-08-12", "2023-08-13")),
        ("this past weekend", ("2023-08-12", "2023-08-13")),
        ("this weekend", ("2023-08-19", "2023-08-20")),
        ("next weekend", ("2023-08-26", "2023-08-27")),
        ("the weekend before last", ("2023-08-05", "2023-08-06")),
        ("over the weekend", ("2023-08-12", "2023-08-13")),
        ("last month", ("2023-07-01", "2023-07-31")),
        ("this month", ("2023-08-01", "2023-08-31")),
        ("next month", ("2023-09-01", "2023-09-30")),
        ("the month before last", ("2023-06-01", "2023-06-30")),
        ("last year", ("2022-01-01", "2022-12-31")),
        ("next year", ("2024-01-01", "2024-12-31")),
        ("last May", ("2023-05-01", "2023-05-31")),
        ("last September", ("2022-09-01", "2022-09-30")),
        ("next March", ("2024-03-01", "2024-03-31")),
        ("last summer", ("2022-06-01", "2022-08-31")),  # this one is not over yet
        ("this summer", ("2023-06-01", "2023-08-31")),
        ("next winter", ("2023-12-01", "2024-02-29")),
        ("last winter", ("2022-12-01", "2023-02-28")),
    ],
)
def test_relative_days_are_resolved_against_the_reference_day(
    text: str, expected: tuple[str, str]
) -> None:
    assert spans(text) == [expected]


def test_weekends_said_at_the_weekend() -> None:
    sunday = date(2023, 8, 20)
    assert spans("last weekend", sunday) == [("2023-08-12", "2023-08-13")]
    assert spans("this weekend", sunday) == [("2023-08-19", "2023-08-20")]
    assert spans("over the weekend", sunday) == [("2023-08-19", "2023-08-20")]


def test_a_bare_weekday_is_the_last_one_or_the_next_when_the_words_speak_of_the_future() -> None:
    assert day("I went hiking on Friday") == "2023-08-11"
    assert day("Friday was long") == "2023-08-11"
    assert day("on Wednesday") == "2023-08-16"  # today
    assert day("I'll see you on Friday") == "2023-08-18"
    assert day("we're going to the lake on Sat") == "2023-08-19"
    assert spans("I sat down") == []  # "sat" names a day only after "on"
    assert spans("Fridays are quiet") == []  # every Friday: no one day


def test_a_message_is_read_as_of_the_day_it_was_written() -> None:
    """ "last Friday" said on Monday 8 May 2023 is 5 May, whenever it is read."""
    monday = date(2023, 5, 8)
    assert said_spans("I ran a charity race last Friday", monday) == (
        DateSpan(date(2023, 5, 5), date(2023, 5, 5)),
    )
    assert said_spans("I went to a support group yesterday", monday) == (
        DateSpan(date(2023, 5, 7), date(2023, 5, 7)),
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("the week before 9 June, 2023", ("2023-06-02", "2023-06-09")),
        ("two weeks before August 11, 2023", ("2023-07-28", "2023-08-11")),
        ("the Friday before 15 July 2023", ("2023-07-08", "2023-07-15")),
        ("the week of 23 August, 2023", ("2023-08-21", "2023-08-27")),
        ("the weekend of Sep 9, 2023", ("2023-09-09", "2023-09-10")),
        ("three days after 2023-05-01", ("2023-05-01", "2023-05-04")),
        ("last weekend before April 10, 2023", ("2023-04-03", "2023-04-10")),
    ],
)
def test_anchored_on_the_date_that_follows(text: str, expected: tuple[str, str]) -> None:
    assert spans(text) == [expected]


@settings(max_examples=200, deadline=None)
@given(
    st.dates(min_value=date(2, 1, 1), max_value=date(9998, 12, 31)),
    st.sampled_from(["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]),
)
def test_last_weekday_is_that_weekday_within_the_week_before(today: date, weekday: str) -> None:
    found = date.fromisoformat(day(f"last {weekday}", today))
    assert found.strftime("%A") == weekday
    assert today - timedelta(days=7) <= found < today
