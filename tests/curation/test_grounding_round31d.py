"""The grounding guard's round 31D (issue 29): a false memory's shape kept out. (1) A word the
fact says as done that its cited messages say, in a form WordNet relates to it (not its own
stem's), only in clauses that wonder, wish, plan or ask (`I'm wondering if I can afford to
enter the quiz night`) is said only as a hedge, as a word in its own form there is: the act
was not done (kit/curator/judge.py). Before, such a word counted as merely unsaid, a small
cost, and the hedge's descriptions (the quiz night, its prize: given, as they exist) carried
the fact. Not a word a clause says as so, not a fact that itself plans or wonders.
Messages and facts written here; each KEPT-OUT case was stored by main's guard (cb07dd2)."""

from __future__ import annotations

import pytest

from tests.support.grounding import check

# (1) (the fact, the owner's message): the act said only in a related form, and only hedged
HEDGED_ACT = [
    (
        "The owner entered the pub quiz night with a $300 prize.",
        "My spending money this month is nearly gone, so I'm wondering if I can afford to "
        "enter that pub quiz night with a $300 prize",
    ),
    (
        "The owner entered the regional chess open with a trophy for juniors.",
        "Do you think I should enter the regional chess open with a trophy for juniors?",
    ),
]


@pytest.mark.parametrize(("fact", "said"), HEDGED_ACT)
def test_an_act_said_only_as_a_hedge_in_a_related_form_is_kept_out(fact: str, said: str) -> None:
    verdict = check(fact, said)
    assert verdict.status != "supported", verdict.reason


# What must still be stored: the act said as so (in a related form too), a fact that plans
STORED = [
    (  # said as done, in a form of its own, beside a hedge about something else
        "The owner entered the pub quiz night with a $300 prize.",
        "I entered the pub quiz night with a $300 prize, and I might bring my cousin next time.",
    ),
    (  # said as done in a related form, though a later clause wonders
        "The owner entered the pub quiz night with a $300 prize.",
        "I signed up and enter the pub quiz night with a $300 prize on Friday, wondering if "
        "my cousin will come.",
    ),
    (  # the fact itself plans it, as the message does
        "The owner is thinking of entering the pub quiz night with a $300 prize.",
        "I'm thinking of entering the pub quiz night with a $300 prize.",
    ),
]


@pytest.mark.parametrize(("fact", "said"), STORED)
def test_an_act_said_as_so_or_a_fact_that_plans_is_stored(fact: str, said: str) -> None:
    verdict = check(fact, said)
    assert verdict.status == "supported", verdict.reason


def test_the_reason_names_the_hedged_act() -> None:
    verdict = check(
        "The owner entered the pub quiz night with a $300 prize.",
        "I'm wondering if I can afford to enter that pub quiz night with a $300 prize",
    )
    assert verdict.status == "unsupported"
    assert "'entered' only in a question, a wish, a plan or an 'if'" in verdict.reason
