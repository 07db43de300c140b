"""The grounding guard's round 23 (issue 29): a kin word or a number the message says another
way. A plain word for a person is said by whom the clause names ("she": a woman; "my
brother": a guy; names: people; a name alone no woman). A clock time on the hour says its hour ("2:00 PM" says 2 PM, and "6 PM" says 6:00 PM); a
fact's "one" that counts nothing (a pronoun: "over one paying more"; an indefinite time: "one
morning") is no number; a word for people is said by relations that are kinds of it ("my son
and daughter" say kids, "mom and dad" parents). Nothing looser: "my kids" say no son, "6 PM"
no 6:30, "two daughters" no one daughter. Messages and facts written here; each case of
STORED was dropped by main's guard; each case of DROPPED is dropped naming that word."""

from __future__ import annotations

import pytest

from tests.support.grounding import check

STORED = [
    pytest.param(
        "The owner batches email on Fridays from 2 to 5 PM.",
        "I batch my email on Fridays now, from 2:00 PM to 5:00 PM, and ignore it otherwise.",
        id="on-the-hour-says-the-hour",
    ),
    pytest.param(
        "The owner's pottery class starts at 6:00 PM on Thursdays.",
        "My pottery class starts at 6 PM on Thursdays, right after work.",
        id="the-hour-says-on-the-hour",
    ),
    pytest.param(
        "The owner rented the flat by the canal over one that was closer to the office.",
        "I rented the flat by the canal; the other was closer to the office but so noisy.",
        id="one-as-a-pronoun",
    ),
    pytest.param(
        "The owner went fishing with his uncle one morning in May.",
        "In May I went fishing with my uncle on a freezing morning, caught nothing.",
        id="one-morning-is-some-morning",
    ),
    pytest.param(
        "The owner took her kids to the aquarium.",
        "I took my son and daughter to the aquarium on Saturday.",
        id="son-and-daughter-are-kids",
    ),
    pytest.param(
        "The owner's parents visited in June.",
        "My mom and dad visited in June, first time in the new house.",
        id="mom-and-dad-are-parents",
    ),
    pytest.param(
        "The owner met a woman at the climbing gym who teaches yoga.",
        "I met Carla at the climbing gym, she teaches yoga on weekends.",
        id="she-is-a-woman",
    ),
    pytest.param(
        "The owner helped a guy carry a sofa up four floors.",
        "I helped my neighbour's brother carry a sofa up four floors, my back hurts.",
        id="a-brother-is-a-guy",
    ),
    pytest.param(
        "The owner lent people from the choir her car.",
        "I lent Ingrid and Tom from the choir my car for the week.",
        id="names-are-people",
    ),
]

DROPPED = [
    pytest.param(
        "The owner took her son to the aquarium.",
        "I took my kids to the aquarium on Saturday.",
        "son",
        id="kids-are-no-son",
    ),
    pytest.param(
        "The owner's pottery class starts at 6:30 PM on Thursdays.",
        "My pottery class starts at 6 PM on Thursdays, right after work.",
        "6:30",
        id="the-hour-is-no-half-past",
    ),
    pytest.param(
        "The owner's pottery class starts at 2 PM on Thursdays.",
        "My pottery class starts at 2:30 PM on Thursdays, right after lunch.",
        "2",
        id="half-past-is-no-hour",
    ),
    pytest.param(
        "The owner stayed at the cabin for one weekend.",
        "We stayed at the cabin for two weekends in a row, bliss.",
        "one",
        id="a-length-of-one-is-a-count",
    ),
    pytest.param(
        "The owner has one daughter.",
        "I have two daughters, both at university now.",
        "one",
        id="one-daughter-is-a-count",
    ),
    pytest.param(
        "The owner met a man at the climbing gym who teaches yoga.",
        "I met Carla at the climbing gym, she teaches yoga on weekends.",
        "man",
        id="she-is-no-man",
    ),
    pytest.param(
        "The owner met a woman at the climbing gym.",
        "I met Carla at the climbing gym last night.",
        "woman",
        id="a-name-tells-no-woman",
    ),
]


@pytest.mark.parametrize(("fact", "said"), STORED)
def test_a_kin_word_or_number_said_another_way_is_stored(fact: str, said: str) -> None:
    assert check(fact, said).status == "supported"


@pytest.mark.parametrize(("fact", "said", "named"), DROPPED)
def test_another_person_or_number_is_still_dropped(fact: str, said: str, named: str) -> None:
    verdict = check(fact, said)
    assert verdict.status == "unsupported"
    assert f"'{named}'" in verdict.reason
