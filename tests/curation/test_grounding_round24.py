"""The grounding guard's round 24 (issue 29): what a hedged message still states. A title and
a name before a verb open a clause of that person's (no hedge of the clause before carried
into it); a wh-question in the past or the perfect, or one that asks why, takes what it asks
about as so. Messages and facts written here, none taken from a bench set; the plan before
the titled name, a yes/no question and a question with a modal stay kept out."""

from __future__ import annotations

import pytest

from tests.support.grounding import check

_CABIN = (
    "I've been thinking about selling the cabin, and attorney Mina suggested a $40,000 trust "
    "for the boys."
)
_BOILER = "Hmm, when did I last service the boiler at the lake house?"
_SPIN = "Why do I keep missing the 7 AM spin class at Corefit?"

CASES = [
    # said, fact, stored
    (_CABIN, "Attorney Mina suggested a $40,000 trust for the owner's boys.", True),
    (_CABIN, "The owner sold the cabin.", False),
    (_BOILER, "The owner serviced the boiler at the lake house.", True),
    (_SPIN, "The owner keeps missing the 7 AM spin class at Corefit.", True),
    (
        "Did I lock the door at the lake house?",
        "The owner locked the door at the lake house.",
        False,
    ),
    (
        "Why should I join the 7 AM spin class at Corefit?",
        "The owner joined the 7 AM spin class at Corefit.",
        False,
    ),
]


@pytest.mark.parametrize(("said", "fact", "stored"), CASES)
def test_what_a_hedged_message_still_states(said: str, fact: str, stored: bool) -> None:
    assert (check(fact, said).status == "supported") is stored
