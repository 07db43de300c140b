"""The grounding guard's round 27E (issue 29): the owner's part in what someone else does.
Another's clause that names the owner as its object (`Sam invited me`, `upset me`, `taught us`,
`gave me`) holds up a fact about the owner's part in that act. Another's trait or act is not
given to the owner for all that: a clause without `me` stays theirs, and the act itself (the
word right before `me`) is the owner's only as done to them (`was offered`); `makes me think`
is no act on the owner. Messages and facts written here, none taken from a bench set."""

from __future__ import annotations

import pytest

from tests.support.grounding import check

STORED = [
    # said by the owner, the fact about the owner's part in another's act
    (
        "Sam invited me to the party but I declined.",
        "The owner declined Sam's invitation to the party.",
    ),
    (
        "I met a few hunters on the ridge trail who shouted something that really scared me.",
        "The owner had a scary encounter with hunters on the ridge trail.",
    ),
    (
        "My book club has been great. They've been there for me all year, sending me "
        "recommendations and notes.",
        "The owner's book club sent the owner recommendations and notes.",
    ),
    (
        "My grandpa was special. He always taught us the value of patience and hard work.",
        "The owner learned the value of patience and hard work from their grandpa.",
    ),
    (
        "My neighbour gave me a bonsai tree for my birthday.",
        "The owner received a bonsai tree for their birthday.",
    ),
    (
        "My old boss called me yesterday and she offered me my old job back.",
        "The owner was offered their old job back by their old boss.",
    ),
]


@pytest.mark.parametrize(("said", "fact"), STORED)
def test_the_owners_part_in_what_someone_else_does(said: str, fact: str) -> None:
    verdict = check(fact, said)
    assert verdict.status == "supported", verdict.reason


KEPT_OUT = [
    # another's trait or act, not the owner's; a question; what only moves the owner to think
    ("Sam is vegan.", "The owner is vegan."),
    ("My sister moved to Porto.", "The owner moved to Porto."),
    ("My sister told me she is moving to Porto.", "The owner is moving to Porto."),
    ("Sam invited me to the party.", "The owner threw a party."),
    ("Sam invited me to the party.", "The owner invited Sam to the party."),
    ("Will Sam invite me to the party?", "The owner was invited to the party."),
    (
        "Nina's promotion to data lead with a 5% raise makes me think she could help with our "
        "reporting, but I'm not sure yet.",
        "The owner was promoted to data lead.",
    ),
]


@pytest.mark.parametrize(("said", "fact"), KEPT_OUT)
def test_what_someone_else_is_or_does_stays_theirs(said: str, fact: str) -> None:
    assert check(fact, said).status != "supported"
