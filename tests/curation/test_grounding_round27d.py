"""The grounding guard's round 27D (issue 29): a question is not a fact. An act the owner only
asks about (`how do I keep a log of my workouts in Notion?`, `should I rent a car?`, `how to
frame the print`, `whether to repaint the fence`) is meant, not done:
kit/curator/intended.py reads `how do I`, `how to`, `should I`, `whether to` as a
frame on the verb right after it; a bare form after a singular subject is the past (`The
owner put ...` from `trying to put ...` is not a habit tried at);
and a fact's inflected word right after its subject is its act even where it also names a
thing (`The owner logs ...`, `The owner frames ...`). What the question takes as given, the
owner's act in a clause before the question, and an act the question does not govern stay
stored. Messages and facts written here; each DROPPED case was decided the other way by main's
guard (checked against its code)."""

from __future__ import annotations

import pytest

from kit.curator.intended import unmet_act
from tests.support.grounding import check

# (the fact, the owner's message, the act asked about)
DROPPED = [
    (
        "The owner logs their workouts in a Notion table.",
        "ok, so how do I log my workouts in a Notion table?",
        "logs",
    ),
    (
        "The owner has rented a car for the Iceland trip.",
        "For the Iceland trip, should I rent a car or take the buses?",
        "rented",
    ),
    (
        "The owner frames the watercolour prints with white mats.",
        "I'm a bit lost on how to frame my watercolour prints, would white mats work?",
        "frames",
    ),
    (
        "The owner repainted the garden fence in dark green.",
        "Still unsure whether to repaint the garden fence in dark green.",
        "repainted",
    ),
    (  # a singular subject's bare form is the past: "set", "put", not "puts"
        "The owner put the winter tyres on the car.",
        "I'm trying to put the winter tyres on the car myself, any tips?",
        "put",
    ),
]


@pytest.mark.parametrize(("fact", "said", "act"), DROPPED)
def test_an_act_asked_about_is_not_done(fact: str, said: str, act: str) -> None:
    assert unmet_act(fact, [said]) == act  # kit/curator/intended.py
    verdict = check(fact, said)
    assert verdict.status != "supported", verdict.reason


# What the question takes as given, the owner's act before it, an act it does not govern.
LEFT = [
    (
        "The owner runs every morning.",
        "How do I keep my 5k streak going now that I run every morning?",
    ),
    (
        "The owner tracks their budget in Excel.",
        "I track my budget in Excel; how do I add a chart to it?",
    ),
    (  # a habit tried at: "practises", the present
        "The owner practises the piano every evening.",
        "I'm trying to practise the piano every evening.",
    ),
    (
        "The owner received feedback from Dana on the draft.",
        "How do I work in the feedback I received from Dana on the draft?",
    ),
]


@pytest.mark.parametrize(("fact", "said"), LEFT)
def test_what_a_question_takes_as_given_is_left_alone(fact: str, said: str) -> None:
    assert unmet_act(fact, [said]) is None


def test_a_question_answered_in_another_cited_message_is_left_alone() -> None:
    asked = "Should I rent a car for the Iceland trip?"
    answered = "Update: I rented a car for the Iceland trip, a small 4x4."
    assert unmet_act("The owner rented a car for the Iceland trip.", [asked, answered]) is None


def test_a_question_answered_by_a_promise_is_a_decision_made() -> None:
    asked = "The yearly plan saves $20, so should I go for the yearly plan?"
    answered = "OK, I'll go for the yearly plan then."
    fact = "The owner went with the yearly plan."
    assert unmet_act(fact, [asked, answered]) is None
    assert unmet_act(fact, [asked]) == "went"
