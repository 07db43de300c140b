"""The grounding guard's round 23 (issue 29): a plain word for people that the message says
by whom it names. "People" is said by names ("Ingrid and Tom"); "a woman" by "she" or a
female relation, "a guy" by "he" or a male relation ("my neighbour's brother"). Nothing
looser: "she" says no man, and a name alone tells no woman. Messages and facts written here;
each case naming no word was dropped by main's guard and is stored; each case naming a word
is dropped naming it."""

from __future__ import annotations

import pytest

from tests.support.grounding import check

CASES = [
    pytest.param(
        "The owner met a woman at the climbing gym who teaches yoga.",
        "I met Carla at the climbing gym, she teaches yoga on weekends.",
        "",
        id="she-is-a-woman",
    ),
    pytest.param(
        "The owner helped a guy carry a sofa up four floors.",
        "I helped my neighbour's brother carry a sofa up four floors, my back hurts.",
        "",
        id="a-brother-is-a-guy",
    ),
    pytest.param(
        "The owner lent people from the choir her car.",
        "I lent Ingrid and Tom from the choir my car for the week.",
        "",
        id="names-are-people",
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
    pytest.param(
        "The owner helped a woman carry a sofa up four floors.",
        "I helped my neighbour's brother carry a sofa up four floors, my back hurts.",
        "woman",
        id="a-brother-is-no-woman",
    ),
]


@pytest.mark.parametrize(("fact", "said", "named"), CASES)
def test_whom_the_message_names(fact: str, said: str, named: str) -> None:
    """A plain word for people rests on whom the message names, and on nothing looser."""
    verdict = check(fact, said)
    if not named:
        assert verdict.status == "supported"
        return
    assert (verdict.status, f"'{named}'" in verdict.reason) == ("unsupported", True)
