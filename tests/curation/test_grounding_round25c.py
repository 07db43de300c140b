"""The grounding guard's round 25C (issue 29): a number in any common written form. A clock
time (`7:00 PM` / `7 PM` / `7pm` / `19:00`, `noon`), a number in words (`twenty-five`, `a
hundred and twenty`), with its scale (`1.2 million`, `3 grand`), an ordinal in words, a
percentage (`15 per cent`), a duration (`an hour and a half` / `90 minutes`), a range and a
number with its unit joined each hold up a fact that writes the same number another way, and
never one that writes another number. Messages and facts written here, none taken from a bench
set."""

from __future__ import annotations

import pytest

from tests.support.grounding import check


@pytest.mark.parametrize(
    ("fact", "said"),
    [
        # clock times
        ("The owner has a call with Dana at 7 PM.", "My call with Dana is at 7:00 PM."),
        ("The owner has a call with Dana at 7:00 PM.", "My call with Dana is at 7pm."),
        ("The owner has a call with Dana at 7 PM.", "My call with Dana is at 19:00."),
        ("The owner has a call with Dana at 19:00.", "My call with Dana is at 7 p.m."),
        ("The owner has a call with Dana at 7:30 PM.", "My call with Dana is at 7.30pm."),
        ("The owner has a call with Dana at 7:30 p.m.", "My call with Dana is at 7:30 PM."),
        ("The owner has a call with Dana at 12 PM.", "My call with Dana is at noon."),
        ("The owner has a call with Dana at noon.", "My call with Dana is at 12pm."),
        ("The owner has a call with Dana at 7.", "My call with Dana is at 7 PM."),
        # numbers in words
        ("The owner has read 25 books this spring.", "I've read twenty-five books this spring!"),
        ("The owner has read twenty-five books this spring.", "I've read 25 books this spring!"),
        ("The owner has read 25 books this spring.", "I've read twenty five books this spring!"),
        ("The owner planted 100 tulips.", "I planted a hundred tulips in the garden."),
        ("The owner planted 120 tulips.", "I planted a hundred and twenty tulips."),
        ("The owner planted 12 tulips.", "I planted a dozen tulips in the garden."),
        ("The owner planted 2,500 tulips.", "We planted two thousand five hundred tulips."),
        # thousands and millions
        ("The owner's startup raised $1,200,000.", "My startup just raised $1.2 million!"),
        ("The owner's startup raised $1.2 million.", "My startup just raised $1,200,000!"),
        ("The owner's startup raised $1.5M.", "My startup just raised $1,500,000!"),
        ("The owner saved $3,000 for the trip.", "I saved $3k for the trip."),
        ("The owner saved $3,000 for the trip.", "I saved 3 grand for the trip."),
        # ordinals in words
        ("The owner came third in the chess tournament.", "I came 3rd in the chess tournament."),
        ("The owner came 3rd in the chess tournament.", "I came third in the chess tournament."),
        ("The owner celebrated their 21st birthday.", "I celebrated my twenty-first birthday."),
        # percentages
        ("The owner got a 15% raise.", "I got a 15 percent raise at work."),
        ("The owner got a 15 percent raise.", "I got a 15% raise at work."),
        ("The owner got a 15% raise.", "I got a 15 per cent raise at work."),
        # durations
        ("The owner's commute takes 1.5 hours.", "My commute takes an hour and a half."),
        ("The owner's commute takes an hour and a half.", "My commute takes 90 minutes."),
        # ranges and units joined
        ("The owner swims 3-4 times a week.", "I swim 3 to 4 times a week."),
        ("The owner ran 5km this morning.", "I ran 5 km this morning."),
        ("The owner takes a 10-minute walk after lunch.", "I take a 10 minute walk after lunch."),
        ("The owner takes a 10-minute walk after lunch.", "I take a ten-minute walk after lunch."),
    ],
)
def test_the_same_number_in_another_form_is_said(fact: str, said: str) -> None:
    """`7 PM` from `7:00 PM`, `25` from `twenty-five`, `$1,200,000` from `$1.2 million`."""
    verdict = check(fact, said)
    assert verdict.status == "supported", verdict.reason


def test_a_duration_in_other_units_says_its_number() -> None:
    """`90 minutes` from `1.5 hours`: the number is said (the unit word, `minutes`, is a word
    the message does not say: asked about, not dropped)."""
    verdict = check("The owner's commute takes 90 minutes.", "My commute takes 1.5 hours each way.")
    assert verdict.status != "unsupported", verdict.reason
    assert "'minutes'" in verdict.reason and "it says" not in verdict.reason


@pytest.mark.parametrize(
    ("fact", "said"),
    [
        ("The owner has a call with Dana at 8 PM.", "My call with Dana is at 7:00 PM."),
        ("The owner has a call with Dana at 7 PM.", "My call with Dana is at 7:30 PM."),
        ("The owner has a call with Dana at 7 PM.", "My call with Dana is at 7 AM."),
        ("The owner has a call with Dana at 8 PM.", "My call with Dana is at 19:00."),
        ("The owner has a call with Dana at 7:30 PM.", "My call with Dana is at 7.45pm."),
        ("The owner has a call with Dana at 11 AM.", "My call with Dana is at noon."),
        ("The owner has read 52 books this spring.", "I've read twenty-five books this spring!"),
        ("The owner has read 26 books this spring.", "I've read twenty five books this spring!"),
        ("The owner planted 200 tulips.", "I planted a hundred tulips in the garden."),
        ("The owner planted 2 tulips.", "I planted a couple of tulips in the garden."),
        ("The owner's startup raised $1,300,000.", "My startup just raised $1.2 million!"),
        ("The owner's startup raised $12 million.", "My startup just raised $1.2 million!"),
        ("The owner saved $4,000 for the trip.", "I saved 3 grand for the trip."),
        ("The owner came 4th in the chess tournament.", "I came third in the chess tournament."),
        ("The owner got a 16% raise.", "I got a 15 percent raise at work."),
        ("The owner's commute takes 80 minutes.", "My commute takes 1.5 hours each way."),
        ("The owner's commute takes 2.5 hours.", "My commute takes an hour and a half."),
        ("The owner swims 5 times a week.", "I swim 3 to 4 times a week."),
        ("The owner ran 6km this morning.", "I ran 5 km this morning."),
        ("The owner takes a 15-minute walk after lunch.", "I take a ten-minute walk after lunch."),
    ],
)
def test_another_number_stays_unsaid(fact: str, said: str) -> None:
    """`8 PM` from `7:00 PM`, `52` from `twenty-five`, `2` from `a couple of`: dropped."""
    verdict = check(fact, said)
    assert verdict.status == "unsupported", verdict.reason


@pytest.mark.parametrize(
    "said",
    [
        "Should I skip my 7 PM yoga class on Tuesdays this week?",
        "I wonder if my 7pm yoga class on Tuesdays is too late.",
    ],
)
def test_a_time_a_question_describes_is_given(said: str) -> None:
    """`my 7pm yoga class` in a question or a wonder says the class is at 7 PM, as `my 7 yoga
    class` says 7 (kit/curator/presupposed.py): the time's every form is given."""
    verdict = check("The owner has a yoga class at 7 PM on Tuesdays.", said)
    assert verdict.status == "supported", verdict.reason


@pytest.mark.parametrize(
    ("fact", "said", "status"),
    [
        (
            "The owner chose the job closer to home over one paying $500 more.",
            "I took the job closer to home; the other paid $500 more but the commute was awful.",
            "supported",
        ),
        (
            "The owner kept the one with the blue cover.",
            "I kept the notebook with the blue cover.",
            "supported",
        ),
        (
            "The owner has one child starting school.",
            "My two kids start school soon.",
            "unsupported",
        ),
        ("The owner took the one job.", "I took two jobs.", "unsupported"),
    ],
)
def test_one_counts_only_as_a_number(fact: str, said: str, status: str) -> None:
    """`over one paying more`, `the one with`: `one` stands for a thing and counts nothing;
    `one child`, `the one job` count."""
    verdict = check(fact, said)
    assert verdict.status == status, verdict.reason
