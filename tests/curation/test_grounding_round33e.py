"""The grounding guard's round 33E (issue 29): rules that dropped a supported fact, read more
narrowly. Messages and facts written here; each STORED case was dropped by the commit before its
reading, and each KEPT-OUT case shows what the rule still keeps out."""

from __future__ import annotations

import pytest

from tests.support.grounding import check

# An "opposite" the fact says itself is not held against it (kit/curator/judge.py _opposed):
# a fact saying "borrows" and "loans" does not mean the two as opposites.
OWN_OPPOSITE = [
    (
        "The owner borrows audiobooks through the county library, which allows 3 loans at once.",
        "I get audiobooks from the county library app, and I can have 3 loans at once.",
    ),
    (
        "The owner is hunting for a location for a pottery studio.",
        "Hunting for a place for my pottery studio is exhausting.",
    ),
]


@pytest.mark.parametrize(("fact", "said"), OWN_OPPOSITE)
def test_an_opposite_the_fact_says_itself_is_no_denial(fact: str, said: str) -> None:
    verdict = check(fact, said)
    assert verdict.status == "supported", verdict.reason


OPPOSED = [
    (
        "The owner passed the driving test.",
        "I failed the driving test on Monday.",
    ),
    (
        "The owner borrows audiobooks from the county library.",
        "I lend audiobooks to the county library.",
    ),
]


@pytest.mark.parametrize(("fact", "said"), OPPOSED)
def test_an_opposite_the_fact_does_not_say_still_denies_it(fact: str, said: str) -> None:
    verdict = check(fact, said)
    assert verdict.status != "supported"
    assert "opposite" in verdict.reason, verdict.reason


# A decision someone had to make, or managed to, in the past was made
# (kit/curator/hedge_scope.py unhedged); one still to make is weighed.
def test_a_decision_one_had_to_make_is_made() -> None:
    verdict = check(
        "The owner decided against a second car because of the insurance cost.",
        "Over the summer I had to decide against a second car because of the insurance cost, "
        "and now I cycle everywhere.",
    )
    assert verdict.status == "supported", verdict.reason


def test_a_decision_still_to_make_is_not_made() -> None:
    verdict = check(
        "The owner decided on a new laptop.",
        "I still have to decide on a new laptop, any tips?",
    )
    assert verdict.status != "supported"


# A deadline a feared denial is measured against is so (kit/curator/denial_scope.py
# deadline_given): a fear of missing it says the deadline; a plain denial still denies its date
# and its act.
def test_a_deadline_feared_missed_is_the_deadline_wanted() -> None:
    verdict = check(
        "The owner wants the thesis draft finished by 3 March 2025.",
        "I'm scared my thesis draft won't be finished by March 3, 2025, so I'm working weekends.",
    )
    assert verdict.status == "supported", verdict.reason


DENIED_ON_A_DAY = [
    (  # a day the denial is on, not a deadline: still denied
        "The owner finished the thesis draft on 3 March 2025.",
        "My thesis draft wasn't finished on March 3, 2025, sadly.",
        "3 March 2025",
    ),
    (  # no fear: a plain denial of the act done by the date
        "The owner finished the thesis draft by 3 March 2025.",
        "I didn't finish the thesis draft by March 3, 2025.",
        "finished",
    ),
]


@pytest.mark.parametrize(("fact", "said", "denied"), DENIED_ON_A_DAY)
def test_what_a_denial_denies_stays_denied(fact: str, said: str, denied: str) -> None:
    verdict = check(fact, said)
    assert verdict.status != "supported"
    assert f"'{denied}'" in verdict.reason, verdict.reason


# What a step is "toward" is aimed at, as what something is "for" (kit/curator/fact_terms.py
# _FOR): a goal said as a goal holds it up; the goal is still not done.
TOWARD = [
    (
        "The owner finished a pottery course, a step toward opening a studio.",
        "I finished the pottery course yesterday! It's a real move towards my dream of opening "
        "a studio.",
        "supported",
    ),
    (
        "The owner opened a studio.",
        "I finished the pottery course yesterday! It's a real move towards my dream of opening "
        "a studio.",
        "unsupported",
    ),
]


@pytest.mark.parametrize(("fact", "said", "status"), TOWARD)
def test_what_a_step_is_toward_is_a_goal(fact: str, said: str, status: str) -> None:
    assert check(fact, said).status == status
