"""The grounding guard's round 33D (issue 29): what is only hoped, feared or weighed is no fact.
A thing named as a wish (`my ideal ...`, kit/curator/wished_for.py), a choice said only under
`in case` (kit/curator/clauses.py), a fact whose `could not` is a past denial, not a hedge, and
an option a fact says was chosen (kit/curator/chosen.py), which no longer makes the fact a
hedge. Messages and facts written here; each KEPT-OUT case was stored by the commit before."""

from __future__ import annotations

import pytest

from tests.support.grounding import check

KEPT_OUT = [
    (  # a wished-for thing is not had
        "The owner's bakery is near the harbour.",
        "Have a look at my ideal bakery near the harbour, all glass and brick.",
    ),
    (  # a place said only under "in case"
        "The owner is moving to Lisbon.",
        "What should I pack first in case I move to Lisbon?",
    ),
    (  # an option a fact says was chosen is no hedge; the message only supposes the choice
        "The owner has chosen the Lisbon option and is getting ready for the relocation.",
        "How do I get ready for the relocation in case I decide to go with the Lisbon option?",
    ),
    (  # "could not" is a denial, said here only in a supposition
        "The owner could not renew the lease.",
        "What if I can't renew the lease by March?",
    ),
]


@pytest.mark.parametrize(("fact", "said"), KEPT_OUT)
def test_a_hoped_or_supposed_thing_is_not_supported(fact: str, said: str) -> None:
    assert check(fact, said).status != "supported"


STORED = [
    (  # the wish said as a wish
        "The owner's dream job is running a bakery near the harbour.",
        "My dream job is running a bakery near the harbour.",
    ),
    (  # "my dream" as the noun itself: what follows is had
        "The owner has a bakery near the harbour.",
        "I'm living my dream by running my own bakery near the harbour.",
    ),
    (  # a real choice of an option
        "The owner chose the second apartment.",
        "After two viewings I chose the second apartment.",
    ),
    (  # a real past inability
        "The owner could not renew the lease.",
        "Sadly I couldn't renew the lease, the landlord is selling.",
    ),
    (  # something done in case: the act is so, only its reason supposes
        "The owner packed an umbrella for the hike.",
        "I packed an umbrella for the hike in case it rains.",
    ),
]


@pytest.mark.parametrize(("fact", "said"), STORED)
def test_the_same_said_as_so_stays_stored(fact: str, said: str) -> None:
    assert check(fact, said).status == "supported", check(fact, said).reason
