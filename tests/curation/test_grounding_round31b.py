"""The grounding guard's round 31B (issue 29): a fact said beside a question, not inside it.
(1) A gerund that `when`, `while`, `about`, `since` or `before` opens is done, as one after
`after` (round 25D), when its clause names only days before the message's and nothing before
it supposes (a request's `could you` is no supposition): `could you help me tighten my
answers, especially when talking about coaching a 9-person choir in 2020?` says the coaching
(kit/curator/reported.py). (2) A thing's possessive in the fact names what another thing is
for, and (3) a purpose `to` after a comma, a number or a noun: each may rest on a plan or a
hope, as a purpose after `for` does (kit/curator/fact_terms.py). Messages and facts written
here; each STORED case was dropped by the commit before its reading."""

from __future__ import annotations

import pytest

from tests.support.grounding import check

_CHOIR = (
    "I've got an audition next week, could you help me tighten my answers, especially when "
    "talking about coaching a 9-person choir to a regional prize in 2020?"
)

# (1) (the fact, the owner's message): a gerund dated in the past is done
DATED = [
    ("In 2020 the owner coached a 9-person choir to a regional prize.", _CHOIR),
    (
        "The owner volunteered at a Lima clinic for 6 weeks in 2019.",
        "Can you help me polish my essay, mostly the part about volunteering at a Lima clinic "
        "for 6 weeks in 2019?",
    ),
]


@pytest.mark.parametrize(("fact", "said"), DATED)
def test_a_gerund_dated_in_the_past_is_said(fact: str, said: str) -> None:
    verdict = check(fact, said)
    assert verdict.status == "supported", verdict.reason


# ... but not with no day, a day to come, a supposition before it, an `if` or `whether`, or
# the request's own act (the writing), and not another person's.
NOT_SAID = [
    (
        "The owner coached a 9-person choir to a regional prize.",
        "Could you help me tighten my answers, especially when talking about coaching a "
        "9-person choir to a regional prize?",
    ),
    (
        "In 2031 the owner will coach a 9-person choir.",
        "Could you help me plan my year, especially when coaching a 9-person choir in 2031?",
    ),
    (
        "In 2020 the owner coached a 9-person choir.",
        "If I ever apply, could you help me with my answers when talking about coaching a "
        "9-person choir in 2020?",
    ),
    (
        "In 2020 the owner coached a 9-person choir.",
        "Could you tell me whether I should talk about coaching a 9-person choir in 2020?",
    ),
    (
        "The owner wrote an essay about volunteering at a Lima clinic in 2019.",
        "Can you help me write an essay about volunteering at a Lima clinic in 2019?",
    ),
    (
        "In 2020 the owner coached a 9-person choir.",
        "My sister is nervous, could you help her with her answers when talking about "
        "coaching a 9-person choir in 2020?",
    ),
]


@pytest.mark.parametrize(("fact", "said"), NOT_SAID)
def test_what_is_undated_to_come_supposed_or_asked_is_not_said(fact: str, said: str) -> None:
    verdict = check(fact, said)
    assert verdict.status != "supported", verdict.reason


# (2) A thing's possessive in the fact (`the quiz night's prize fund`) names what another thing
# is for, as `the prize fund for the quiz night` does: a purpose, which may be only planned
# (kit/curator/fact_terms.py). What the fact says was done to it is still looked for as so.
_QUIZ = (
    "I'm thinking of hosting a quiz night for the neighbours and I've capped the prize fund "
    "at $40, any ideas for questions?"
)


def test_what_a_planned_thing_owns_is_said() -> None:
    verdict = check("The owner set the quiz night's prize fund to $40.", _QUIZ)
    assert verdict.status == "supported", verdict.reason


POSSESSIVE_NOT_SAID = [
    ("The owner hosted a quiz night.", _QUIZ),  # the planned thing itself, as done
    (
        "The owner set the quiz night's prize fund to $40.",
        "I'm thinking of hosting a quiz night for the neighbours, should I cap the prize fund "
        "at $40?",
    ),
    (  # a person's possessive is no purpose
        "The owner drove the neighbour's van to the quiz night.",
        "I'm thinking of borrowing a neighbour's van and I've booked the hall for the quiz night.",
    ),
]


@pytest.mark.parametrize(("fact", "said"), POSSESSIVE_NOT_SAID)
def test_the_planned_thing_itself_or_an_asked_detail_is_not_said(fact: str, said: str) -> None:
    verdict = check(fact, said)
    assert verdict.status != "supported", verdict.reason


# (3) A purpose the fact gives by `to` after a comma, a number or a noun (`from 3 March 2025
# to help ...`, `$40 a month to cover ...`) may rest on a hope, a plan or a question, as one
# after `for` does (round 22B's S1 again, kit/curator/fact_terms.py): the fact says it is the
# aim, not that it came off. What the fact says was done is still looked for as so.
_ROTA = (
    "I've agreed with Priya to switch to a 4-day week starting March 3, and I'm hoping it "
    "will help with her pottery studio launch"
)
_FUND = (
    "I just saw my gym allowance went up to $40 a month, so how do I best use it to cover "
    "swimming lessons?"
)
PURPOSE = [
    (
        "The owner agreed with Priya to switch to a 4-day week to help with her pottery studio "
        "launch.",
        _ROTA,
    ),
    ("The owner's gym allowance rose to $40 a month to cover swimming lessons.", _FUND),
]


@pytest.mark.parametrize(("fact", "said"), PURPOSE)
def test_a_purpose_may_rest_on_a_hope_or_a_question(fact: str, said: str) -> None:
    verdict = check(fact, said)
    assert verdict.status == "supported", verdict.reason


PURPOSE_NOT_SAID = [
    ("The owner's pottery studio launched.", _ROTA),  # the aim itself, as done
    (  # the act only hoped: no purpose shields it
        "The owner switched to a 4-day week to help with the pottery studio launch.",
        "I'm hoping to switch to a 4-day week, to help with the pottery studio launch.",
    ),
    (  # a number only asked about
        "The owner's gym allowance rose to $60 a month to cover swimming lessons.",
        "My gym allowance is $40 a month, should I raise it to $60 to cover swimming lessons?",
    ),
    (  # `to` after a verb is no purpose: the decision is only weighed
        "The owner decided to take swimming lessons.",
        "I'm wondering whether to take swimming lessons.",
    ),
]


@pytest.mark.parametrize(("fact", "said"), PURPOSE_NOT_SAID)
def test_an_aim_as_done_or_a_hoped_act_is_not_said(fact: str, said: str) -> None:
    verdict = check(fact, said)
    assert verdict.status != "supported", verdict.reason
