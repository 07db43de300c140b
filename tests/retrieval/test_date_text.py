"""The date reader over any text: never a crash, only well-formed spans, every common form
read back as its day, `mentions_time` never missing a day the forms read, and the gates
skipping only forms that could not match; and the days a text names as the words messages are
indexed with."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kit.dates import text as dates_module
from kit.dates.text import (
    DateOrder,
    DateSpan,
    date_mentions,
    mentions_time,
    named_days,
    said_spans,
    span_words,
    with_days_as_words,
    without,
)
from tests.support.dates import WEDNESDAY


def test_a_span_as_the_words_days_are_indexed_with() -> None:
    d = date
    assert span_words(DateSpan(d(2023, 7, 14), d(2023, 7, 14))) == "14 July 2023"
    assert span_words(DateSpan(d(2023, 8, 12), d(2023, 8, 13))) == "12 13 August 2023"
    assert span_words(DateSpan(d(2022, 12, 31), d(2023, 1, 1))) == (
        "31 December 2022 1 January 2023"
    )
    assert span_words(DateSpan(d(2023, 8, 7), d(2023, 8, 13))) == ""  # a week: no words
    assert span_words(DateSpan(d(2023, 8, 7), d(2023, 8, 13)), 10) == (
        "7 8 9 10 11 12 13 August 2023"
    )
    assert span_words(DateSpan(d(2023, 7, 1), d(2023, 8, 31))) == "July August 2023"
    assert span_words(DateSpan(d(2022, 12, 1), d(2023, 2, 28))) == (
        "December 2022 January February 2023"
    )
    assert span_words(DateSpan(d(2022, 1, 1), d(2022, 12, 31))) == "2022"
    assert span_words(DateSpan(d(2018, 1, 1), d(2023, 12, 31))) == ""
    assert span_words(DateSpan(d(2023, 7, 14), d(2023, 7, 14)), years=False) == "14 July"
    assert span_words(DateSpan(d(9999, 12, 1), d(9999, 12, 31))) == "December 9999"


def test_a_questions_dates_become_the_words_of_their_days() -> None:
    def words(text: str) -> str:
        return with_days_as_words(text, date_mentions(text, WEDNESDAY), 3)

    assert words("What did Jon do on 24/04/2023?") == "What did Jon do on 24 April 2023 ?"
    assert words("what did I do yesterday?") == "what did I do 15 August ?"  # no year said
    assert words("Gina on Friday 21 July") == "Gina on Friday 21 July"
    assert words("what did I cook last Friday") == "what did I cook 11 August"
    # a span with no words: absolute ones keep theirs (the named date's as words), relative
    # ones lose theirs ("two weeks ago" meant another fortnight in every message)
    assert words("the week before 21 Jun 2023") == "the week before 21 June 2023"
    assert words("pottery two weeks ago") == "pottery"
    text = "What did Ana cook last week for the party on 3 June 2023?"
    assert without(text, date_mentions(text, WEDNESDAY)) == "What did Ana cook for the party on ?"


def test_a_message_is_indexed_with_only_the_words_of_the_days_it_names_that_it_lacks() -> None:
    saturday = date(2023, 7, 15)  # its own day's words: "Saturday 15 July 2023"
    assert named_days("Last Friday I took the kids to a pottery workshop", saturday) == "14"
    assert named_days("I went to a support group yesterday", date(2023, 5, 8)) == "Sunday 7"
    assert named_days("Last month I got hurt", date(2023, 10, 13)) == "September"
    assert named_days("a buddy of mine adopted last year", date(2023, 10, 13)) == "2022"
    assert named_days("see you on 3 Sept", saturday) == "Sunday September"
    assert named_days("today was great", saturday) == ""
    assert named_days("last week was busy", saturday) == ""  # a week: no words
    assert named_days("I love pottery", saturday) == ""


# Arbitrary text, and text made of date-like pieces, with any reference day and order.
_PIECES = st.sampled_from(
    "0 1 3 9 12 13 29 31 32 99 2023 0000 9999 / - . , ' th st of the on in by last next this "
    "past ago from now few couple a weeks week weekend days month year summer Dec December "
    "May may Feb Fri Friday Sat sat before after yesterday tomorrow T : 1/2 2023-12-29".split()
)
_DATE_LIKE = st.lists(_PIECES, max_size=12).map(" ".join) | st.lists(_PIECES, max_size=12).map(
    "".join
)
_ORDERS = st.sampled_from(["dmy", "mdy"])


def _well_formed(text: str, today: date, order: DateOrder) -> None:
    mentions = date_mentions(text, today, order)  # type: ignore[arg-type]
    last = 0
    for mention in mentions:
        assert last <= mention.start < mention.end <= len(text)
        assert mention.span.start <= mention.span.end
        if mention.anchor is not None:
            assert mention.start <= mention.anchor_start < mention.end
        last = mention.end
    assert said_spans(text, today) is not None
    assert isinstance(named_days(text, today), str)
    assert isinstance(with_days_as_words(text, mentions, 10), str)
    assert isinstance(without(text, mentions), str)


@pytest.mark.parametrize("order", ["dmy", "mdy"])
def test_a_count_that_is_another_dates_words_anchors_nothing(order: str) -> None:
    """Found by the property below: "29 weeks before" took its 29 from the date before it, and
    the two mentions overlapped."""
    text = "2023-12-29 weeks before 2023-12-29"
    _well_formed(text, date(2024, 1, 1), order)  # type: ignore[arg-type]
    assert [(m.start, m.end) for m in date_mentions(text, date(2024, 1, 1))] == [(0, 10), (24, 34)]


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200), st.dates(), _ORDERS)
def test_any_text_is_read_without_crashing_into_well_formed_spans(
    text: str, today: date, order: str
) -> None:
    _well_formed(text, today, order)  # type: ignore[arg-type]


@settings(max_examples=500, deadline=None)
@given(_DATE_LIKE, st.dates() | st.sampled_from([date.min, date.max]), _ORDERS)
def test_date_like_text_is_read_without_crashing_into_well_formed_spans(
    text: str, today: date, order: str
) -> None:
    _well_formed(text, today, order)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "text",
    [
        "in few week",
        "in couple weeks",
        "in two day",
        "in a weeks",
        "last a week",
        "last a weeks",
        "last a days",
    ],
)
def test_a_count_of_units_without_its_plural_still_places_something_in_time(text: str) -> None:
    """Found by the property below: the forms read these, the cheap signs missed them."""
    assert date_mentions(text, date(2000, 1, 1)) and mentions_time(text)


@settings(max_examples=500, deadline=None)
@given(_DATE_LIKE | st.text(max_size=80))
def test_a_text_that_names_a_day_places_something_in_time(text: str) -> None:
    """mentions_time reads cheap signs first: it never misses a day the forms read."""
    if date_mentions(text, date(2000, 1, 1)):
        assert mentions_time(text)


class _Everything(set[str]):
    def isdisjoint(self, other: object) -> bool:
        return False


@settings(max_examples=400, deadline=None)
@given(_DATE_LIKE | st.text(max_size=60), st.dates(), _ORDERS)
def test_the_gates_only_skip_forms_that_could_not_match(text: str, today: date, order: str) -> None:
    """A form runs only on texts holding a word it needs: with every form run on every
    text, the answer is the same."""
    gated = date_mentions(text, today, order)  # type: ignore[arg-type]
    real = dates_module.words
    dates_module.words = lambda folded: _Everything()  # type: ignore[assignment]
    try:
        assert date_mentions(text, today, order) == gated  # type: ignore[arg-type]
    finally:
        dates_module.words = real
