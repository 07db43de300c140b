"""The grounding guard's round 27A (issue 29): a plan is not a done act, and a plan stated as a
plan is said. "I'll finish the playlist and send out the invitations" arranges the sending too
(kit/curator/intended.py reads a frame across `and` to a second verb in its base form), so do
`let's` and `I'll make sure to`; `I can add candles` says a possibility, not that candles are
sold, and `adoption is a way of giving back` the idea of the act, not the act. A fact that
itself says the plan (`will`, `is going to`) rests on a message that says the same plan (`I'll
ask around to see if ...`: kit/curator/planned.py), never on a wish, a question or a denial.
Messages and facts written here; each DROPPED and PLANNED case was decided the other way by
main's guard (checked against its code)."""

from __future__ import annotations

import pytest

from kit.curator.intended import unmet_act
from tests.support.grounding import check, stored_or_named

# (the fact, the owner's message, the act said only as meant)
DROPPED = [
    (
        "The owner sent the party invitations.",
        "I'll finish the playlist tonight and send out the party invitations for Saturday.",
        "sent",
    ),
    (
        "The owner hired a caterer.",
        "We're going to pick a venue and hire a caterer next week.",
        "hired",
    ),
    (
        "The owner has renewed the passport.",
        "I'll make sure to renew my passport before the trip.",
        "renewed",
    ),
    (
        "The owner has cleaned the garage.",
        "Let's clean the garage this weekend, it's a mess.",
        "cleaned",
    ),
    (
        "The owner sells handmade candles at the market.",
        "Plus, I can add handmade candles to my stall at the market!",
        "sells",
    ),
    (  # the act's noun, bare, as what something is: the idea of it
        "The owner has adopted a dog.",
        "I keep visiting the shelter. For me, adoption is the kindest way to get a dog.",
        "adopted",
    ),
]


@pytest.mark.parametrize(("fact", "said", "act"), DROPPED)
def test_a_plan_is_not_a_done_act(fact: str, said: str, act: str) -> None:
    assert unmet_act(fact, [said]) == act  # kit/curator/intended.py
    stored_or_named(fact, said, act)


# Done, a habit, an ability: left alone.
LEFT = [
    (
        "The owner sent the party invitations.",
        "I finished the playlist and sent out the party invitations.",
    ),
    (
        "The owner renewed the passport.",
        "I made sure to renew my passport before the trip.",
    ),
    (
        "The owner stretches before every run.",
        "I always make sure to stretch before every run.",
    ),
    ("The owner speaks French.", "I can speak French pretty well by now."),
    (
        "The owner gave up and went home.",
        "I tried to fix the boiler and gave up after an hour.",
    ),
    (
        "The owner adopted a dog.",
        "Our adoption is final: the dog came home on Monday.",
    ),
]


@pytest.mark.parametrize(("fact", "said"), LEFT)
def test_what_is_said_as_done_is_left_alone(fact: str, said: str) -> None:
    assert unmet_act(fact, [said]) is None


# A fact that says the plan: from a message that says the same plan (stored), never from a
# wish, a question, a denial or a condition, nor a done act from the plan.
BABYSITTER = "to see if anyone knows a good babysitter"
PLANS = [
    ("The owner will ask around for a babysitter.", f"I'll ask around {BABYSITTER}.", True),
    (
        "The owner is going to call around about the spare part.",
        "I'm going to call around to see whether any garage has the spare part.",
        True,
    ),
    (
        "The owner will check with the landlord about pets.",
        "I'll check with my landlord if pets are allowed.",
        True,
    ),
    ("The owner will ask around for a babysitter.", f"I'd love to ask around {BABYSITTER}.", False),
    ("The owner will ask around for a babysitter.", f"Should I ask around {BABYSITTER}?", False),
    ("The owner will ask around for a babysitter.", f"I won't ask around {BABYSITTER}.", False),
    ("The owner asked around for a babysitter.", f"I'll ask around {BABYSITTER}.", False),
    (
        "The owner will buy the blue sofa.",
        "I'll buy the blue sofa if the price drops below $500.",
        False,
    ),
    # what the speaker's plan finds out is no one's plan, and "Will" is a name
    ("Ana will move to Porto.", "I'll see if Ana is moving to Porto.", False),
    ("Will is moving to Porto.", "I'll see if Will is moving to Porto.", False),
]


@pytest.mark.parametrize(("fact", "said", "stored"), PLANS)
def test_a_plan_stated_as_a_plan_is_said(fact: str, said: str, stored: bool) -> None:
    verdict = check(fact, said)  # kit/curator/planned.py
    assert (verdict.status == "supported") == stored, verdict.reason
