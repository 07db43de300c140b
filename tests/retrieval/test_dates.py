"""Dates in queries become day spans; "when" questions and time-placing turns are recognised."""

from __future__ import annotations

from datetime import date

import pytest

from kit.dates.text import asks_when, date_mentions, mentions_time, without

pytestmark = pytest.mark.stores

TODAY = date(2023, 8, 16)  # a Wednesday


def spans(text: str) -> list[tuple[str, str]]:
    return [(m.span.start.isoformat(), m.span.end.isoformat()) for m in date_mentions(text, TODAY)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("What did Ana do on 3 June, 2023?", [("2023-06-03", "2023-06-03")]),
        ("dinner on May 3rd, 2023", [("2023-05-03", "2023-05-03")]),
        ("What happened in July 2023?", [("2023-07-01", "2023-07-31")]),
        ("plans for June, 2022", [("2022-06-01", "2022-06-30")]),
        ("trips in 2022", [("2022-01-01", "2022-12-31")]),
        # no year: the latest such month or day not after today
        ("camping in June", [("2023-06-01", "2023-06-30")]),
        ("a party in September", [("2022-09-01", "2022-09-30")]),
        ("on 20 December", [("2022-12-20", "2022-12-20")]),
        # relative to today
        ("what did I say yesterday", [("2023-08-15", "2023-08-15")]),
        ("last week", [("2023-08-07", "2023-08-13")]),
        ("last May", [("2023-05-01", "2023-05-31")]),
        ("last month", [("2023-07-01", "2023-07-31")]),
        ("last year", [("2022-01-01", "2022-12-31")]),
        ("last Friday", [("2023-08-11", "2023-08-11")]),
        ("two weeks ago", [("2023-07-26", "2023-08-09")]),
        # anchored on a date that follows
        ("the week before 9 June, 2023", [("2023-06-02", "2023-06-09")]),
        ("two weeks before August 11, 2023", [("2023-07-28", "2023-08-11")]),
        ("the Friday before 15 July 2023", [("2023-07-08", "2023-07-15")]),
        ("the week of 23 August, 2023", [("2023-08-21", "2023-08-27")]),
        ("last weekend before April 10, 2023", [("2023-04-03", "2023-04-10")]),
    ],
)
def test_date_expressions_become_day_spans(text: str, expected: list[tuple[str, str]]) -> None:
    assert spans(text) == expected


def test_words_that_only_look_like_dates_name_no_day() -> None:
    assert spans("May I ask what Ana said?") == []  # the verb
    assert spans("she has 3 cats and 12 plants") == []
    assert spans("on 31 February") == []  # no such day


def test_without_cuts_the_expressions_out() -> None:
    text = "What did Ana cook last week for the party on 3 June 2023?"
    mentions = date_mentions(text, TODAY)
    assert [m.relative for m in mentions] == [True, False]
    assert without(text, mentions) == "What did Ana cook for the party on ?"
    assert without(text, mentions[:1]) == "What did Ana cook for the party on 3 June 2023?"


@pytest.mark.parametrize(
    "question",
    [
        "When did Ana go to Lisbon?",
        "How long has Ben played the cello?",
        "Which year did they move?",
        "What month was the wedding?",
        "since when does she run",
        # not "When ...?" (issue 23: 30% of held-out temporal questions)
        "How long ago did we move?",
        "which month was the concert?",
        "what's the date of the dentist appointment?",
        "In what year did I start surfing?",
        "How old was I when I got the bowl?",
        "Did I move before or after the concert?",
        "Was the party before the trip?",
        "Which came first, the wedding or the move?",
        "How many weeks passed between adopting Coco and Shadow?",
        "How much time passed between the two trips?",
        "Remind me when I last saw Anna",
        "Do you remember when we went to Rome?",
        "so when did I last see Anna?",
        "until when is the gym closed",
    ],
)
def test_questions_that_want_a_time(question: str) -> None:
    assert asks_when(question)


@pytest.mark.parametrize(
    "question",
    [
        "Where did Ana go when it rained?",
        "What did Ben cook?",
        "What did I do before the party?",  # an event, placed by another
        "What did I do last weekend?",  # days, not a time: the span says which
        "Is Oscar older than Max?",
        "who did I meet at the concert",
    ],
)
def test_questions_that_want_something_else(question: str) -> None:
    assert not asks_when(question)


def test_turns_that_place_something_in_time() -> None:
    placed = (
        "I went yesterday",
        "last week was busy",
        "back in 2019",
        "on Friday",
        "in May 3",
        "the party is on 2023-05-03",
        "see you on 29/12",
        "it was Dec 29th",
        # a duration answers "how long"
        "I've known these friends for 4 years",
        "Seven years now, and I've finally found my muses",
        "5 years already!",
        "for a while now",
        "a couple of months",
        "I started about five years ago",
    )
    for text in placed:
        assert mentions_time(text), text
    unplaced = (
        "I love pottery",
        "you may go",
        "that was great",
        "this is great",  # "this" + any word is not a time
        "Just got back from a trip",
        "once a week",
        "one day I'll go",
    )
    for text in unplaced:
        assert not mentions_time(text), text
