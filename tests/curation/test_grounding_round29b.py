"""The grounding guard's round 29B (issue 29): supported facts its rules dropped, by the
general shape of language that fooled them. (1) A comparison with something that happened
(`like the one Priya ran`, `like Omar suggested`, `like Priya's ... workshop`) takes as so
the phrase it points back to, whatever the clause before only plans or asks
(kit/curator/compared.py). Messages and facts written here; each STORED case was dropped by
main's guard (0f2dabf)."""

from __future__ import annotations

import pytest

from kit.curator.clauses import clauses
from kit.curator.wording import fold
from tests.support.grounding import check

# (1) (the fact, the owner's message): the phrase compared with is given
COMPARED = [
    (
        "Priya ran a weekend pottery course for beginners.",
        "I've been thinking of taking a weekend pottery course, like the one Priya ran for "
        "beginners last spring.",
    ),
    (
        "Omar suggested a paper expense ledger to the owner.",
        "I was wondering if keeping a paper expense ledger like Omar suggested could help me "
        "save more.",
    ),
    (
        "Nadia held a rooftop sketching workshop.",
        "Can you suggest outdoor ideas like Nadia's rooftop sketching workshop for my street?",
    ),
]


@pytest.mark.parametrize(("fact", "said"), COMPARED)
def test_what_a_comparison_points_back_to_is_given(fact: str, said: str) -> None:
    verdict = check(fact, said)
    assert verdict.status == "supported", verdict.reason


# ... but the plan's or question's own verb stays a plan: the owner took no course, kept no
# ledger; and `like Omar` alone (an example, no act) gives nothing.
NOT_DONE = [
    ("The owner took a weekend pottery course.", COMPARED[0][1]),
    ("The owner keeps a paper expense ledger.", COMPARED[1][1]),
    (
        "The owner joined a chess club.",
        "I'm thinking of joining a chess club, with people like Omar.",
    ),
]


@pytest.mark.parametrize(("fact", "said"), NOT_DONE)
def test_the_planned_act_stays_planned(fact: str, said: str) -> None:
    assert check(fact, said).status != "supported"


def test_a_comparison_with_no_act_gives_nothing() -> None:
    said = "I'm thinking of joining a chess club, with people like Omar."
    plan = next(c for c in clauses(said) if "chess" in fold(said)[c.start : c.end])
    assert plan.hedged
    assert "chess" not in plan.given
