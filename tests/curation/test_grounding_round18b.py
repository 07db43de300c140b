"""The grounding guard's round 18B (issue 29): a word for people, a group, a name or a weekday
that the message says in other words. "some workmates" says coworkers, "the gang" friends,
"my folks" parents (WordNet defines each by the other), "every Sunday" says on Sundays, "an
Airbnb" Airbnbs; and nothing looser: "my brother" says no friends, "my mom" no father (main
stored it), "my husband" no wife (main stored it). An opposite only asked about ("how to stay
awake?") is no opposite. Messages and facts written here; each case of STORED was dropped by
main's guard; each case of DROPPED is dropped naming that word."""

from __future__ import annotations

import pytest

from tests.support.grounding import check

STORED = [
    pytest.param(
        "The owner went climbing with coworkers last week.",
        "Went climbing last week with some workmates, it cleared my head.",
        id="workmates-are-coworkers",
    ),
    pytest.param(
        "The owner went kayaking with friends on the lake.",
        "Spent Saturday with the gang, we went kayaking on the lake.",
        id="the-gang-are-friends",
    ),
    pytest.param(
        "The owner visited the owner's parents in Leeds.",
        "I visited my folks in Leeds over the long weekend.",
        id="folks-are-parents",
    ),
    pytest.param(  # "we" says the speaker's team, as it says the family
        "The owner's team moved the backups to a second region in March.",
        "We moved the backups to a second region in March, after the outage.",
        id="we-are-the-team",
    ),
    pytest.param(
        "The owner plays chess with Dario on Tuesdays.",
        "I play chess with Dario every Tuesday after work.",
        id="every-tuesday",
    ),
    pytest.param(
        "The owner books Airbnbs for work trips to Lyon.",
        "I always book an Airbnb for my work trips to Lyon.",
        id="a-name-in-the-plural",
    ),
    pytest.param(  # the message was written on Monday 6 May 2024
        "The owner meets the landlord on Friday.",
        "I meet the landlord this Friday, May 10, about the leak.",
        id="a-weekday-the-message-dates",
    ),
    pytest.param(
        "The owner meets the landlord on Friday.",
        "I meet the landlord on May 10 about the leak.",
        id="a-date-on-that-weekday",
    ),
]

DROPPED = [
    pytest.param(
        "The owner went kayaking with friends on the lake.",
        "Spent Saturday with my brother, we went kayaking on the lake.",
        "friends",
        id="a-brother-is-no-friend",
    ),
    pytest.param(
        "The owner visited the owner's sister in Leeds.",
        "I visited my folks in Leeds over the long weekend.",
        "sister",
        id="folks-are-no-sister",
    ),
    pytest.param(
        "The owner plays chess with Dario on Thursdays.",
        "I play chess with Dario every Tuesday after work.",
        "Thursdays",
        id="another-weekday",
    ),
    pytest.param(
        "The owner meets the landlord on Thursday.",
        "I meet the landlord this Friday, May 10, about the leak.",
        "on Thursday",
        id="another-weekday-than-dated",
    ),
    pytest.param(  # both stem to "partner": neither is a kind of the other
        "The owner went to the street fair with her wife on Sunday.",
        "I went to the street fair with my husband on Sunday, lovely day.",
        "wife",
        id="a-husband-is-no-wife",
    ),
    pytest.param(
        "The owner books Vrbos for work trips to Lyon.",
        "I always book an Airbnb for my work trips to Lyon.",
        "Vrbos",
        id="another-name-in-the-plural",
    ),
    pytest.param(  # the verbs "father" and "mother" share a sense: the nouns do not
        "The owner drove her father to the clinic.",
        "I drove my mom to the clinic this morning.",
        "father",
        id="a-mother-is-no-father",
    ),
]


@pytest.mark.parametrize(("fact", "said"), STORED)
def test_a_word_said_in_other_words_is_stored(fact: str, said: str) -> None:
    assert check(fact, said).status == "supported"


@pytest.mark.parametrize(("fact", "said", "named"), DROPPED)
def test_another_person_or_day_is_still_dropped(fact: str, said: str, named: str) -> None:
    verdict = check(fact, said)
    assert verdict.status == "unsupported"
    assert f"'{named}'" in verdict.reason


def test_an_opposite_said_only_in_a_question_drops_nothing() -> None:
    """Asking "how to stay awake" does not say the owner stays rather than moves."""
    verdict = check(
        "The owner wants to move to the night shift at the bakery by June.",
        "I'd like to switch to the night shift at the bakery by June, any tips on how to stay "
        "awake?",
    )
    assert "the opposite of" not in verdict.reason


def test_an_opposite_said_as_a_fact_still_drops() -> None:
    verdict = check(
        "The owner accepted the transfer to the Lisbon office.",
        "I had to decline the transfer to the Lisbon office, the timing was wrong.",
    )
    assert verdict.status == "unsupported"
    assert "the opposite of 'accepted'" in verdict.reason


def test_we_adds_to_the_team_its_synonyms_still_say_it() -> None:
    """The speaker's "we" says the team besides WordNet's synonyms of it, not instead."""
    verdict = check(
        "The owner went to the regional final with the owner's team.",
        "I went to the regional final with my squad, what a day.",
    )
    assert verdict.status == "supported"
