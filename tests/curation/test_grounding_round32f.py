"""The grounding guard's round 32F (issue 29): which option was chosen, and an amount's period.

A fact choosing an option its message names but does not choose (`torn between the tram and
the ferry, I picked the ferry`: not "chose the tram"), the verb of choosing read by its most
common WordNet sense (kit/curator/chosen.py); and an amount a fact says at a rate (`$2,400 a
month`) that its message says only as a total over a span (`$2,400 over 4 months`,
kit/curator/per_period.py). What stays stored: the option chosen, a rate said as a rate, an
amount said with no period at all (`my rent is $900`).
Messages and facts written here; each KEPT-OUT case was stored by main's guard (04f32a3)."""

from __future__ import annotations

import pytest

from kit.curator.chosen import choosing
from kit.curator.per_period import unsaid_rate
from tests.support.grounding import check

# (the fact, the message): an option named, another chosen; a total read as a rate
KEPT_OUT = [
    (
        "The owner chose the tram for the commute.",
        "I was torn between the tram or the ferry for my commute, but I chose the ferry "
        "because it is calmer.",
    ),
    (
        "The owner chose the dentist appointment over the choir rehearsal on 9 May.",
        "On May 9 I have a choir rehearsal and a dentist appointment at the same time, which "
        "is why I chose to prioritize the choir rehearsal.",
    ),
    (
        "The owner opted for Postgres for the inventory tool.",
        "For the inventory tool I compared Postgres and SQLite and in the end I opted for "
        "SQLite, since it needs no server.",
    ),
    (
        "The owner's translation job pays $2,400 a month.",
        "I took a translation job for $2,400 over 4 months starting in June, and my rent is "
        "$900 monthly.",
    ),
    (
        "The owner spends $750 a month on groceries.",
        "I'm spending $750 on groceries over 3 months this summer.",
    ),
]


@pytest.mark.parametrize(("fact", "said"), KEPT_OUT)
def test_an_option_not_chosen_or_a_total_read_as_a_rate_is_kept_out(fact: str, said: str) -> None:
    assert check(fact, said).status != "supported"


# What stays stored: the option chosen, a choice only asked about, a rate said as a rate
STORED = [
    (
        "The owner chose the ferry for the commute.",
        "I was torn between the tram or the ferry for my commute, but I chose the ferry "
        "because it is calmer.",
    ),
    (
        "The owner chose the choir rehearsal over the dentist appointment on 9 May.",
        "On May 9 I have a choir rehearsal and a dentist appointment at the same time, which "
        "is why I chose to prioritize the choir rehearsal.",
    ),
    (
        "The owner's translation job pays $2,400 a month.",
        "I took a translation job that pays $2,400 a month, for 4 months starting in June.",
    ),
]


@pytest.mark.parametrize(("fact", "said"), STORED)
def test_the_option_chosen_and_a_rate_said_stay_stored(fact: str, said: str) -> None:
    verdict = check(fact, said)
    assert verdict.status == "supported", verdict.reason


def test_an_amount_said_with_no_period_is_left_to_the_other_readings() -> None:
    """A rent said with no period may be a monthly rent: only a total is held against a rate."""
    said = ["I took a translation job for $2,400 over 4 months, and my rent is $900."]
    assert unsaid_rate("The owner pays $900 a month in rent.", said) is None
    assert unsaid_rate("The owner's job pays $2,400 a month.", said) == "$2,400"


@pytest.mark.parametrize("word", ["chose", "picked", "opted", "selected", "prioritized"])
def test_verbs_of_choosing_are_read_by_their_most_common_sense(word: str) -> None:
    assert choosing(word)


@pytest.mark.parametrize("word", ["took", "prefer", "decided", "ranked", "limit"])
def test_other_verbs_are_not_choosing(word: str) -> None:
    assert not choosing(word)
