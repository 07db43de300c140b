"""The grounding guard's round 21A (issue 29): where a planned move goes is not held
(kit/curator/destination.py). "Thinking of swapping my Yamaha for a Kawasaki" says the owner
has a Yamaha, not a Kawasaki. Messages and facts written here; each case of DROPPED was
stored by main's guard (d4b6e21, checked against its code)."""

from __future__ import annotations

import pytest

from kit.curator.destination import planned_destination
from tests.support.grounding import check

SWAP = "I'm thinking of swapping my Yamaha for a Kawasaki before the summer rides."
# (the fact, the owner's message, the word the reason names)
DROPPED = [
    pytest.param("The owner rides a Kawasaki.", SWAP, "Kawasaki", id="traded-for"),
    pytest.param(
        "The owner writes the billing service in Kotlin.",
        "Considering migrating the billing service to Kotlin, since the Python one is slow.",
        "Kotlin",
        id="migrated-to",
    ),
    pytest.param(
        "The owner has a pottery studio in Leeds.",
        "We're planning to move my pottery studio to Leeds once the lease ends.",
        "Leeds",
        id="moved-to",
    ),
]
KEPT = [
    pytest.param("The owner has a Yamaha.", SWAP, id="what-is-moved"),
    pytest.param("The owner is thinking of swapping the Yamaha for a Kawasaki.", SWAP, id="plan"),
    pytest.param("The owner wants a Kawasaki.", SWAP, id="want"),
    pytest.param(  # said as held elsewhere in the message
        "The owner lives in Leeds.",
        "I moved to Leeds in March, and now I'm planning to move my studio to York.",
        id="said-elsewhere",
    ),
    pytest.param(  # the move itself is said as done
        "The owner's studio is in York.",
        "I moved my studio to York in March.",
        id="moved",
    ),
]


@pytest.mark.parametrize(("fact", "said", "word"), DROPPED)
def test_a_planned_destination_is_not_held(fact: str, said: str, word: str) -> None:
    verdict = check(fact, said)
    assert verdict.status == "unsupported"
    assert f"'{word}' as held" in verdict.reason


@pytest.mark.parametrize(("fact", "said"), KEPT)
def test_what_the_plan_does_say_stays(fact: str, said: str) -> None:
    assert planned_destination(fact, [said]) is None
    assert check(fact, said).status != "unsupported" or "as held" not in check(fact, said).reason
