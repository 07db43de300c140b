"""The grounding guard's round 30B (issue 29): what a worry still says. (1) A doing named as
the subject of a worry's modal (`worried that moving the call to June 9 might clash`) is what
the speaker is doing: its words, numbers and days are given, on through an `and` that cuts
the subject (kit/curator/gerund_subject.py); the modal's own verb stays hedged, and a gerund
after `think that` or `whether` stays a plan or a question. Messages and facts written here;
each STORED case was dropped by main's guard (5f00284)."""

from __future__ import annotations

import pytest

from tests.support.grounding import check

_CALL = (
    "I'm a bit worried that moving the video call with the art director to June 9 at 3 PM "
    "might clash with my dentist visit, can you look at my week?"
)
_PRACTICE = (
    "I'm worried that reserving 3 hours every Monday and Wednesday evening for piano practice "
    "might not be enough, what do you think?"
)

# (1) (the fact, the owner's message): the worry's gerund subject is said
DOING = [
    ("The owner moved the video call with the art director to 9 June at 3 PM.", _CALL),
    (
        "The owner reserves 3 hours every Monday and Wednesday evening for piano practice.",
        _PRACTICE,
    ),
    (  # a name ending in an apostrophe, curly in the message
        "The owner rescheduled the portrait sitting to 3 May at Riverside Painters' Hall.",
        "I'm worried that rescheduling the portrait sitting to May 3 at Riverside Painters\u2019 "
        "Hall might eat into my study time.",
    ),
]


@pytest.mark.parametrize(("fact", "said"), DOING)
def test_the_doing_a_worry_is_about_is_said(fact: str, said: str) -> None:
    verdict = check(fact, said)
    assert verdict.status == "supported", verdict.reason


# ... but what the modal says would follow is still only a worry, and a gerund after
# `think that` or `whether` is still a plan or a question.
NOT_SAID = [
    ("The owner's dentist visit clashes with the video call.", _CALL),
    (
        "The owner is moving the video call to 9 June.",
        "I think that moving the video call to June 9 might help.",
    ),
    (
        "The owner moved the video call to 9 June.",
        "I'm wondering whether moving the video call to June 9 would clash with anything.",
    ),
]


@pytest.mark.parametrize(("fact", "said"), NOT_SAID)
def test_what_the_worry_fears_or_a_plan_weighs_is_not_said(fact: str, said: str) -> None:
    verdict = check(fact, said)
    assert verdict.status != "supported", verdict.reason
