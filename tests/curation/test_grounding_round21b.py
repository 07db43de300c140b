"""The grounding guard's round 21B (issue 29): a word the message says another way. A clipped
word says the word it clips ("the food fest": festival, "my faves": favourites, "our convo":
conversation), "one weekend" in a fact is some weekend, not a count ("last weekend" says
it), and a number said in more than one word is that number ("fifteen hundred": 1,500,
"thirty-five", "4 grand", "$72K"). Nothing looser: a capitalised name is no clipping ("Tim" is no timber), a word WordNet
knows is its own word ("car" says no cargo), "for one night" still counts,
and "fifteen hundred" says no 1,600. Messages and
facts written here; each case of STORED was not stored by main's guard."""

from __future__ import annotations

import pytest

from kit.curator.related import clipped
from tests.support.grounding import check

STORED = [
    pytest.param(
        "The owner went to a street food festival in Bristol.",
        "Went to the street food fest in Bristol, the dumplings were unreal.",
        id="fest-is-festival",
    ),
    pytest.param(
        "Baking sourdough is one of the owner's favourite things to do.",
        "Baking sourdough is one of my faves to do, honestly.",
        id="faves-are-favourites",
    ),
    pytest.param(
        "The owner went sailing with the owner's cousin one weekend in May 2024.",
        "Went sailing with my cousin last weekend, the wind was perfect.",
        id="one-weekend-is-some-weekend",
    ),
]


@pytest.mark.parametrize(("fact", "said"), STORED)
def test_a_word_said_another_way_is_stored(fact: str, said: str) -> None:
    assert check(fact, said).status == "supported"


@pytest.mark.parametrize(
    ("said", "word", "clips"),
    [
        ("convo", "conversation", True),
        ("vacay", "vacation", True),
        ("promo", "promotion", True),
        ("car", "cargo", False),  # WordNet knows "car": its own word
        ("fest", "fest", False),  # no shorter than the word
        ("xyz", "xylophone", False),  # not its opening letters
    ],
)
def test_what_a_clipping_is(said: str, word: str, clips: bool) -> None:
    assert clipped(said, word) is clips


def test_a_name_is_no_clipping() -> None:
    """"Tim" opens "timber" but is a name the message capitalises."""
    verdict = check(
        "The owner bought timber for the shed.",
        "Bought the stuff for the shed with Tim on Saturday.",
    )
    assert verdict.status != "supported"
    assert "'timber'" in verdict.reason


def test_one_night_counted_still_needs_its_number() -> None:
    verdict = check(
        "The owner stayed for one night in Porto.",
        "We stayed for three nights in Porto, the food was amazing.",
    )
    assert verdict.status == "unsupported"
    assert "'one'" in verdict.reason


@pytest.mark.parametrize(
    ("fact", "said"),
    [
        pytest.param(
            "The owner paid 1,500 dollars for the e-bike.",
            "Paid fifteen hundred dollars for the e-bike, worth it.",
            id="fifteen-hundred",
        ),
        pytest.param(
            "The owner turned 35 in April.",
            "I turned thirty-five in April, no party this time.",
            id="thirty-five",
        ),
        pytest.param(
            "The owner put $4,000 into the emergency fund.",
            "I put 4 grand into the emergency fund this year.",
            id="four-grand",
        ),
        pytest.param(
            "The owner negotiated a salary of $72,000 at the new job.",
            "I negotiated a salary of $72K at the new job, not bad.",
            id="72K",
        ),
    ],
)
def test_a_number_said_in_more_than_one_word_is_stored(fact: str, said: str) -> None:
    assert check(fact, said).status == "supported"


def test_another_number_in_words_still_drops() -> None:
    verdict = check(
        "The owner paid 1,600 dollars for the e-bike.",
        "Paid fifteen hundred dollars for the e-bike, worth it.",
    )
    assert verdict.status == "unsupported"
    assert "'1,600'" in verdict.reason
