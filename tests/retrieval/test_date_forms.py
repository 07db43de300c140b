"""Dates in every common written form become the days they name, resolved against a
reference day (a question's today, a message's own day); nothing else ever does, and no text
makes the reader crash or name a day that does not exist. Relative days:
tests/retrieval/test_date_relative.py; the reader over any text, and days as words:
tests/retrieval/test_date_text.py."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kit.dates.text import (
    date_mentions,
    named_days,
    order_from_locale,
    said_spans,
    with_days_as_words,
)
from tests.support.dates import WEDNESDAY, day, spans


# "29 Dec 2023" and "2023-12-29" were read as the whole of 2023 (issue 23).
@pytest.mark.parametrize(
    "text",
    [
        "29 Dec 2023",
        "29 Dec. 2023",
        "29th Dec 2023",
        "the 29th of December, 2023",
        "Friday, 29 December 2023",
        "Fri 29 Dec 2023",
        "Dec 29, 2023",
        "Dec. 29th, 2023",
        "December 29 2023",
        "2023-12-29",
        "2023/12/29",
        "2023.12.29",
        "2023-12-29T10:30:00Z",
        "29/12/2023",
        "12/29/2023",
        "29.12.2023",
        "29-12-2023",
        "29/12/23",
    ],
)
def test_a_written_day_in_any_common_form_is_that_day(text: str) -> None:
    assert spans(f"what did we do on {text}?") == [("2023-12-29", "2023-12-29")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2023-12", ("2023-12-01", "2023-12-31")),
        ("Dec 2023", ("2023-12-01", "2023-12-31")),
        ("December, 2023", ("2023-12-01", "2023-12-31")),
        ("Sept 2022", ("2022-09-01", "2022-09-30")),
        ("May '23", ("2023-05-01", "2023-05-31")),
        ("in mid-June", ("2023-06-01", "2023-06-30")),
        ("in late July", ("2023-07-01", "2023-07-31")),
        ("in the middle of March", ("2023-03-01", "2023-03-31")),
        ("since 2016", ("2016-01-01", "2016-12-31")),
    ],
)
def test_a_written_month_or_year_is_all_its_days(text: str, expected: tuple[str, str]) -> None:
    assert spans(text) == [expected]


# "September 14-15" was read as 14 September and a number 15 (issue 29, round 9).
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("14-15 September 2023", ("2023-09-14", "2023-09-15")),
        ("September 14-15, 2023", ("2023-09-14", "2023-09-15")),
        ("on April 6–7", ("2023-04-06", "2023-04-07")),
        ("Sept. 3 to 5 2022", ("2022-09-03", "2022-09-05")),
        ("the 3rd and 4th of June", ("2023-06-03", "2023-06-04")),
    ],
)
def test_a_range_of_days_in_one_month_is_all_its_days(text: str, expected: tuple[str, str]) -> None:
    assert spans(text) == [expected]


def test_a_range_that_runs_backwards_is_no_range() -> None:
    assert spans("15-14 September 2023") != [("2023-09-14", "2023-09-15")]


# "by November 15" was the month of November and a number 15, so the grounding guard dropped
# "... complete by 15 November" (issue 29, bench/data/grounding-fresh3.json g3-124): a month
# after a preposition was read whole wherever that form was as long as the day's, or longer.
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("it's 95% completed by November 15 and", [("2023-11-15", "2023-11-15")]),
        ("until March 3rd", [("2024-03-03", "2024-03-03")]),
        ("before June 1, 2024", [("2024-06-01", "2024-06-01")]),
        ("we moved in May 5", [("2023-05-05", "2023-05-05")]),  # "in" for "on": still the day
        ("since June 3", [("2023-06-03", "2023-06-03")]),
        ("around Aug 9", [("2023-08-09", "2023-08-09")]),
        ("throughout July 4th", [("2023-07-04", "2023-07-04")]),
        ("through Sept 1-2", [("2022-09-01", "2022-09-02")]),
        ("after July 4 to 6", [("2023-07-04", "2023-07-06")]),
        ("by the end of Nov 15, 2023", [("2023-11-15", "2023-11-15")]),
    ],
)
def test_a_day_after_a_month_is_that_day_whatever_preposition_comes_before(
    text: str, expected: list[tuple[str, str]]
) -> None:
    assert spans(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [  # anchored on the day, where the preposition took the month
        ("the week of May 5", ("2023-05-01", "2023-05-07")),
        ("two days after May 3", ("2023-05-03", "2023-05-05")),
        ("the Friday before July 15", ("2023-07-08", "2023-07-15")),
    ],
)
def test_a_day_after_a_month_anchors_the_words_before_it(
    text: str, expected: tuple[str, str]
) -> None:
    assert spans(text) == [expected]


@pytest.mark.parametrize(
    "text",
    [  # a number that counts something is no day: the month stays whole
        "by November, 15 of us",
        "by November 15 of us had signed up",
        "in May 5 people joined",
        "in March 2 weeks later I quit",
        "in June 12 kids came",
    ],
)
def test_a_number_that_counts_after_a_month_leaves_the_month_whole(text: str) -> None:
    (found,) = date_mentions(text, WEDNESDAY)
    whole = found.span.start.day == 1 and (found.span.end + timedelta(days=1)).day == 1
    assert whole and found.span.start.month == found.span.end.month, found
    assert text[found.start : found.end].split()[0] in ("by", "in")


@pytest.mark.parametrize(
    ("text", "expected"),
    [  # read as "June 28 to 2" or "28 to 2 July", whichever was longer (a tie when as long)
        ("June 28 to 2 July", ("2023-06-28", "2023-07-02")),
        ("July 28 to 2 June", None),  # runs backwards: no range (and no day of it)
        ("Sept 14 to 16 Oct 2022", ("2022-09-14", "2022-10-16")),
        ("from Dec 30 - 2 Jan 2024", ("2023-12-30", "2024-01-02")),
        ("I'll be away Aug 30th through 3rd September", ("2023-08-30", "2023-09-03")),
    ],
)
def test_a_range_from_one_month_into_another_is_all_its_days(
    text: str, expected: tuple[str, str] | None
) -> None:
    assert spans(text) == ([] if expected is None else [expected])


@pytest.mark.parametrize(
    ("text", "expected"),
    [  # "and" between two months' days joins two days ("3 and 5 June" took the month of May)
        ("May 3 and 5 June", [("2023-05-03", "2023-05-03"), ("2023-06-05", "2023-06-05")]),
        ("Sept 14 and 15 Oct 2022", [("2022-09-14", "2022-09-14"), ("2022-10-15", "2022-10-15")]),
        ("May 30 and 2 June", [("2023-05-30", "2023-05-30"), ("2023-06-02", "2023-06-02")]),
        ("September 14 and 15 may be busy", [("2022-09-14", "2022-09-15")]),  # "may": the verb
    ],
)
def test_and_between_two_months_days_is_two_days(
    text: str, expected: list[tuple[str, str]]
) -> None:
    assert spans(text) == expected


def test_a_day_without_its_year_is_the_latest_not_after_today_or_the_next_when_ahead() -> None:
    assert day("December 29th") == "2022-12-29"
    assert day("on Aug 16") == "2023-08-16"  # today counts
    assert day("on 17 Aug") == "2022-08-17"
    assert day("on 29/12") == "2022-12-29"
    assert day("I'll see her on 3 Sept") == "2023-09-03"  # the words speak of what is ahead
    assert day("we're flying out on 3 Sept") == "2023-09-03"
    assert spans("in June") == [("2023-06-01", "2023-06-30")]
    assert spans("going to Paris in December") == [("2023-12-01", "2023-12-31")]
    assert spans("until October") == [("2023-10-01", "2023-10-31")]  # "until": ahead
    assert spans("by the end of March") == [("2024-03-01", "2024-03-31")]


def test_numeric_days_follow_the_owners_order_unless_a_number_settles_it() -> None:
    assert day("on 03/05/2023", order="dmy") == "2023-05-03"
    assert day("on 03/05/2023", order="mdy") == "2023-03-05"
    assert day("on 13/05/2023", order="mdy") == "2023-05-13"  # 13 is no month
    assert day("on 05/13/2023", order="dmy") == "2023-05-13"
    assert spans("on 13/13/2023") == []
    # a message is read both ways: whoever wrote it, a search for either day finds it
    both = said_spans("the party is on 03/05/2023", date(2023, 4, 1))
    assert {s.start.isoformat() for s in both} == {"2023-05-03", "2023-03-05"}


@pytest.mark.parametrize(
    ("env", "order"),
    [
        ({"LANG": "en_US.UTF-8"}, "mdy"),
        ({"LANG": "en_GB.UTF-8"}, "dmy"),
        ({"LC_ALL": "de_DE.UTF-8", "LANG": "en_US.UTF-8"}, "dmy"),  # LC_ALL first
        ({"LC_TIME": "en_PH.UTF-8"}, "mdy"),
        ({"LANG": "C.UTF-8"}, "dmy"),
        ({}, "dmy"),
    ],
)
def test_the_numeric_order_follows_the_locale(env: dict[str, str], order: str) -> None:
    assert order_from_locale(env) == order


@pytest.mark.parametrize(
    "text",
    [
        "May I ask what Ana said?",
        "this may be the best one",
        "you may 2x the recipe",
        "she has 3 cats and 12 plants",
        "Jan said hi",
        "in Jan's car",
        "March on, soldier",
        "I ran 2000 steps today and 1500 yesterday",
        "it cost $2019",
        "version 1.2.3",
        "call 192.168.1.1",
        "call 555-12-34",
        "the score was 3/4",
        "a 50/50 chance",
        "once a week",
        "Fridays are quiet",
    ],
)
def test_words_that_only_look_like_dates_name_no_day(text: str) -> None:
    found = [(text[m.start : m.end], m.span) for m in date_mentions(text, WEDNESDAY)]
    assert all(t.lower() in ("today", "yesterday") for t, _ in found), found


@pytest.mark.parametrize(
    "text",
    [
        "on 31 February",
        "29 Feb 2023",
        "2023-02-29",
        "2023-13-01",
        "2023-00-10",
        "0000-01-01",
        "32/01/2023",
        "00/00/2000",
        "31/04/2023",
        "April 31, 2023",
    ],
)
def test_a_day_that_does_not_exist_is_none_and_not_its_year(text: str) -> None:
    assert spans(text) == []


def test_29_february_is_found_in_the_last_year_that_had_one() -> None:
    assert day("29 Feb 2024") == "2024-02-29"
    assert day("on 29 February") == "2020-02-29"
    assert day("on 29/02", date(2024, 3, 1)) == "2024-02-29"
    assert day("I'll call on 29 February") == "2024-02-29"  # ahead


@pytest.mark.parametrize("today", [date.min, date(1, 1, 2), date(9999, 12, 30), date.max])
@pytest.mark.parametrize(
    "text",
    [
        "yesterday",
        "tomorrow",
        "the day after tomorrow",
        "last week",
        "next week",
        "last weekend",
        "next weekend",
        "last month",
        "next month",
        "last year",
        "next year",
        "last summer",
        "next winter",
        "in 3 days",
        "9999 years ago",
        "in 9999 years",
        "two weeks from now",
        "on Friday",
        "I'll see you on Friday",
        "in December",
        "on 29 February",
        "the week before 1 Jan 0001",
        "three days after 31 Dec 9999",
        "9999-12-31",
        "0001-01-01",
        "Dec '99",
    ],
)
def test_the_edges_of_the_calendar_never_crash_nor_leave_it(text: str, today: date) -> None:
    for mention in date_mentions(text, today):
        assert date.min <= mention.span.start <= mention.span.end <= date.max
    named_days(text, today)
    with_days_as_words(text, date_mentions(text, today), 10)


_FORMATS = [
    ("{d.year:04d}-{d.month:02d}-{d.day:02d}", "dmy"),
    ("{d.day} {m3} {d.year}", "dmy"),
    ("{month} {d.day}, {d.year}", "dmy"),
    ("the {d.day}th of {month} {d.year}", "dmy"),
    ("{d.day:02d}/{d.month:02d}/{d.year}", "dmy"),
    ("{d.month:02d}/{d.day:02d}/{d.year}", "mdy"),
    ("{d.day}.{d.month}.{d.year}", "dmy"),
]


@settings(max_examples=300, deadline=None)
@given(st.dates(min_value=date(1000, 1, 1)), st.sampled_from(_FORMATS), st.dates())
def test_any_day_written_in_a_common_form_reads_back_as_itself(
    written: date, form: tuple[str, str], today: date
) -> None:
    template, order = form
    month = written.strftime("%B")
    text = "on " + template.format(d=written, month=month, m3=month[:3])
    assert spans(text, today, order) == [(written.isoformat(), written.isoformat())]  # type: ignore[arg-type]
