"""The grounding guard's round 33C (issue 29): a message's verb says what its most common sense
is a way of, one step up in WordNet (kit/curator/related.py, `says`): "save" says "rescue",
"mesmerized" says "charmed". Never a root verb ("change", "use"), never sideways (two ways of
one act) and never down. Messages and facts written here; each STORED case was asked about or
dropped by the commit before this reading."""

from __future__ import annotations

import pytest

from kit.curator.related import says
from tests.support.grounding import check

STORED = [
    (
        "The owner rescued a stray dog from the highway.",
        "This morning I stopped the car to save a stray dog on the highway.",
    ),
    (
        "The owner walked to the office.",
        "I strolled to the office this morning.",
    ),
    (
        "The owner was charmed by the old lighthouse on the coast trip.",
        "On the coast trip I was mesmerized by the old lighthouse, it was beautiful.",
    ),
]


@pytest.mark.parametrize(("fact", "said"), STORED)
def test_the_broader_act_of_a_said_verb_is_stored(fact: str, said: str) -> None:
    verdict = check(fact, said)
    assert verdict.status == "supported", verdict.reason


KEPT_OUT = [
    (
        "The owner sprinted along the river on Sunday.",
        "On Sunday I jogged along the river for an hour.",
    ),
    ("The owner bought a car in March.", "In March I rented a car for the road trip."),
    ("The owner boiled the eggs.", "I fried the eggs this morning."),
]


@pytest.mark.parametrize(("fact", "said"), KEPT_OUT)
def test_a_sibling_act_stays_unsaid(fact: str, said: str) -> None:
    assert check(fact, said).status != "supported"


def test_one_step_up_only_and_never_a_root() -> None:
    assert "rescue" in says("save")
    assert "walk" in says("strolled")
    assert "charm" in says("mesmerized")
    assert "sprint" not in says("jogged")  # sideways: both ways of running
    assert "stroll" not in says("walked")  # never down: a walk need not be a stroll
    assert not {"change", "alter"} & says("improved")  # a root verb says almost nothing
