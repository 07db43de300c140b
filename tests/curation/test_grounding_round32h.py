"""The grounding guard's round 32H (issue 29): a fact that turns round the `with` or `without`
its messages say a thing is had with (kit/curator/with_without.py). Messages and facts written
here; each KEPT-OUT case was stored by the commit before this reading."""

from __future__ import annotations

import pytest

from tests.support.grounding import check

KEPT_OUT = [
    (
        "The owner wants code snippets without syntax highlighting.",
        "Please always show my code snippets with syntax highlighting when I ask about the API.",
    ),
    (
        "The owner takes coffee with sugar.",
        "I always take my coffee without sugar these days.",
    ),
]


@pytest.mark.parametrize(("fact", "said"), KEPT_OUT)
def test_a_turned_round_with_is_not_supported(fact: str, said: str) -> None:
    assert check(fact, said).status != "supported"


STORED = [
    (
        "The owner wants code snippets with syntax highlighting.",
        "Please always show my code snippets with syntax highlighting when I ask about the API.",
    ),
    (
        "The owner takes coffee without sugar.",
        "I always take my coffee without sugar these days.",
    ),
    (
        "The owner travelled to Lisbon with Ana.",
        "I travelled to Lisbon with Ana last spring.",
    ),
]


@pytest.mark.parametrize(("fact", "said"), STORED)
def test_the_same_with_or_without_stays_stored(fact: str, said: str) -> None:
    assert check(fact, said).status == "supported"
