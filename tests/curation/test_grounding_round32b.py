"""The grounding guard's round 32B (issue 29): a thing the message gives to another person is
not the one the fact gives its own subject (kit/curator/whose_thing.py): a thing another's
possessive opens (`Priya's seminar`), one `by` a person's name follows (`the mural by artist
Jonas Whitfield`), the mention of the fact's own thing among several (`Gareth's 1990 thesis on
river ecology ... my thesis`), a later mention of one already given (`Nadia's school show
rehearsals ... the two evening rehearsals`), and the act's own noun where a mention before
another noun only names that noun (`my audition notes`). Messages and facts written here; each
KEPT-OUT case was stored by the commit before its reading."""

from __future__ import annotations

import pytest

from tests.support.grounding import check

# (the fact, the owner's message): another's thing given to the fact's subject
KEPT_OUT = [
    (
        "The owner runs a seminar on bond ladders.",
        "I'm keeping a spreadsheet of the bond ladders I learned about in Priya's seminar last "
        "week, can you suggest some columns for it?",
    ),
    (
        "The owner produced the mural for the Riverside café.",
        "I just hung a print of the mural by artist Jonas Whitfield for the Riverside café in "
        "my hallway, how should I light it?",
    ),
    (
        "The owner wrote a thesis on river ecology in 1990.",
        "I keep rereading Gareth's 1990 thesis on river ecology, which he mailed me in March, "
        "and I want to borrow its structure for my thesis without copying him, any advice?",
    ),
    (
        "The owner is rehearsing for a show at Millbrook Hall.",
        "I'm a bit anxious about Nadia's school show rehearsals starting on June 3, and I've "
        "arranged to drive her to the two evening rehearsals at Millbrook Hall, can you help me "
        "plan?",
    ),
    (
        "The owner auditioned at Ashgrove Theatre in 2021.",
        "I'm nervous about my audition notes, my sister and I went over them, and she told me "
        "about her 2021 Ashgrove Theatre audition, what should I work on?",
    ),
]


@pytest.mark.parametrize(("fact", "said"), KEPT_OUT)
def test_another_persons_thing_is_not_the_subjects(fact: str, said: str) -> None:
    assert check(fact, said).status != "supported"


# ... but the subject's own thing, a thing the fact gives to its owner by name, or a thing
# the subject only relates to, named as its own, stays stored.
STORED = [
    (
        "The owner wrote an essay on river ecology.",
        "I finally finished my essay on river ecology, and Gareth said he liked it a lot!",
    ),
    (
        "The owner attended Priya's seminar on bond ladders.",
        "I picked up a lot about bond ladders in Priya's seminar last week.",
    ),
    (
        "The owner painted a mural for the Riverside café.",
        "I painted a mural for the Riverside café last month, and Jonas Whitfield loved it.",
    ),
    (
        "The owner is rehearsing for a concert at Millbrook Hall.",
        "Nadia's practices are on Mondays, and I've been rehearsing with my band for our "
        "concert at Millbrook Hall.",
    ),
]


@pytest.mark.parametrize(("fact", "said"), STORED)
def test_the_subjects_own_thing_stays(fact: str, said: str) -> None:
    verdict = check(fact, said)
    assert verdict.status == "supported", verdict.reason


# A verb that only relates its subject to the thing (being there, perceiving, knowing, feeling:
# `relates_only` in kit/curator/whose_thing.py) is said of another's thing: one may attend another's
# seminar (round 32B kept it out as it keeps out `runs a seminar`).
RELATING = [
    (
        "The owner attended a seminar on bond ladders.",
        "I'm keeping a spreadsheet of the bond ladders I learned about at Priya's seminar last "
        "week, can you suggest some columns for it?",
    ),
]


@pytest.mark.parametrize(("fact", "said"), RELATING)
def test_a_relating_verb_may_take_anothers_thing(fact: str, said: str) -> None:
    assert check(fact, said).status == "supported"
