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
from tests.support.grounding import check

# (the fact, the owner's message, the act said only as meant)
DROPPED = [
    pytest.param(
        "The owner sent the party invitations.",
        "I'll finish the playlist tonight and send out the party invitations for Saturday.",
        "sent",
        id="promise-and-a-second-verb",
    ),
    pytest.param(
        "The owner hired a caterer.",
        "We're going to pick a venue and hire a caterer next week.",
        "hired",
        id="going-to-and-a-second-verb",
    ),
    pytest.param(
        "The owner has renewed the passport.",
        "I'll make sure to renew my passport before the trip.",
        "renewed",
        id="make-sure-to",
    ),
    pytest.param(
        "The owner has cleaned the garage.",
        "Let's clean the garage this weekend, it's a mess.",
        "cleaned",
        id="lets",
    ),
    pytest.param(
        "The owner sells handmade candles at the market.",
        "Plus, I can add handmade candles to my stall at the market!",
        "sells",
        id="a-possibility",
    ),
    pytest.param(  # the act's noun, bare, as what something is: the idea of it
        "The owner has adopted a dog.",
        "I keep visiting the shelter. For me, adoption is the kindest way to get a dog.",
        "adopted",
        id="the-idea-of-it",
    ),
]


@pytest.mark.parametrize(("fact", "said", "act"), DROPPED)
def test_a_plan_is_not_a_done_act(fact: str, said: str, act: str) -> None:
    assert unmet_act(fact, [said]) == act
    verdict = check(fact, said)
    assert verdict.status == "unsupported"
    assert f"'{act}'" in verdict.reason


# Done, a habit, an ability, or the plan stated as a plan: left alone.
LEFT = [
    pytest.param(
        "The owner sent the party invitations.",
        "I finished the playlist and sent out the party invitations.",
        id="done-and-done",
    ),
    pytest.param(
        "The owner renewed the passport.",
        "I made sure to renew my passport before the trip.",
        id="made-sure-to",
    ),
    pytest.param(
        "The owner stretches before every run.",
        "I always make sure to stretch before every run.",
        id="a-habit-made-sure-of",
    ),
    pytest.param(
        "The owner speaks French.", "I can speak French pretty well by now.", id="an-ability"
    ),
    pytest.param(
        "The owner gave up and went home.",
        "I tried to fix the boiler and gave up after an hour.",
        id="a-past-verb-after-a-try",
    ),
    pytest.param(
        "The owner adopted a dog.",
        "Our adoption is final: the dog came home on Monday.",
        id="the-act-had",
    ),
]


@pytest.mark.parametrize(("fact", "said"), LEFT)
def test_what_is_said_as_done_is_left_alone(fact: str, said: str) -> None:
    assert unmet_act(fact, [said]) is None


# A fact that says the plan, from a message that says the same plan.
PLANNED = [
    pytest.param(
        "The owner will ask around for a babysitter.",
        "I'll ask around to see if anyone knows a good babysitter.",
        id="will-see-if",
    ),
    pytest.param(
        "The owner is going to call around about the spare part.",
        "I'm going to call around to see whether any garage has the spare part.",
        id="going-to-see-whether",
    ),
    pytest.param(
        "The owner will check with the landlord about pets.",
        "I'll check with my landlord if pets are allowed.",
        id="will-check-if",
    ),
]


@pytest.mark.parametrize(("fact", "said"), PLANNED)
def test_a_plan_stated_as_a_plan_is_said(fact: str, said: str) -> None:
    verdict = check(fact, said)
    assert verdict.status == "supported", verdict.reason


# ... never from a wish, a question, a denial, nor a done act from the plan.
KEPT_OUT = [
    pytest.param(
        "The owner will ask around for a babysitter.",
        "I'd love to ask around to see if anyone knows a good babysitter.",
        id="a-wish",
    ),
    pytest.param(
        "The owner will ask around for a babysitter.",
        "Should I ask around to see if anyone knows a good babysitter?",
        id="a-question",
    ),
    pytest.param(
        "The owner will ask around for a babysitter.",
        "I won't ask around to see if anyone knows a good babysitter.",
        id="denied",
    ),
    pytest.param(
        "The owner asked around for a babysitter.",
        "I'll ask around to see if anyone knows a good babysitter.",
        id="done-from-the-plan",
    ),
    pytest.param(
        "The owner will buy the blue sofa.",
        "I'll buy the blue sofa if the price drops below $500.",
        id="a-condition",
    ),
]


@pytest.mark.parametrize(("fact", "said"), KEPT_OUT)
def test_a_plan_rests_on_no_wish_question_or_denial(fact: str, said: str) -> None:
    assert check(fact, said).status != "supported"
