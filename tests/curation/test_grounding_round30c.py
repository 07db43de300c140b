"""The grounding guard's round 30C (issue 29): the same thing said another way.
(1) A verb of feeling (WordNet's verb.emotion) in its most common sense says the feeling it is
a way of, one step up: "I prefer ..." says "likes ...", "I adore ..." says "loves ...". Not
another verb's step up, not an opposite. Messages and facts written here, in our own words."""

from __future__ import annotations

import pytest

from kit.curator import related
from kit.curator.restated import Spoken, restated

pytestmark = pytest.mark.skipif(related.wordnet_or_none() is None, reason="needs WordNet")


def _mine(text: str) -> list[Spoken]:
    return [Spoken(text, True, frozenset())]


@pytest.mark.parametrize(
    ("fact", "text"),
    [
        ("The owner likes baking rye bread.", "I prefer baking rye bread on quiet Sundays."),
        ("The owner loves hiking coastal trails.", "Honestly I adore hiking coastal trails."),
    ],
)
def test_a_way_of_a_feeling_says_the_feeling(fact: str, text: str) -> None:
    assert restated(fact, _mine(text))


@pytest.mark.parametrize(
    ("fact", "text"),
    [
        ("The owner likes baking rye bread.", "I hate baking rye bread on quiet Sundays."),
        ("The owner exchanges old bikes.", "I sell old bikes at the market."),
    ],
)
def test_an_opposite_or_another_verb_is_not_the_feeling(fact: str, text: str) -> None:
    assert not restated(fact, _mine(text))


def test_a_message_verb_of_feeling_says_its_feeling_one_step_up() -> None:
    assert "like" in related.says("prefers")
    # another verb's step up is no feeling (round 33C lets `says` hold it: "sells" says
    # exchange, as a related find in kit/curator/related.py)
    assert not related.feeling_of("sells", "exchanges")
