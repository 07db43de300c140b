"""The grounding guard's round 31F (issue 29): a fact whose act no message says as done rests
on a hedge. The fact's act (its main verb, read from its text by kit/curator/unsaid_act.py,
since the guard's terms leave light verbs such as "went" out) is said in no cited clause as
done, and either is said in a form of its own only inside a hedge (`trying to work out if I
should go` for "went"), or is unsaid while every soft word of the fact the messages say is
said only inside a hedge (`which pair should I pick for hill walks?` for "bought ... for hill
walks"): not stored. A clause that says the act as done, or a word of the fact as so, still
holds it up.
Messages and facts written here; each KEPT-OUT case of the first list was stored by main's
guard (a32c261)."""

from __future__ import annotations

import pytest

from tests.support.grounding import check

# (the fact, the message): the act left open by a hedge
LEFT_OPEN = [
    (
        "The owner went to Dana's board game night at The Copper Pot.",
        "I'm kinda confused about this board game night at The Copper Pot that Dana invited"
        " me to, and I'm trying to work out if I should go, since I just started a new course",
    ),
    (
        "The owner went to the pottery fair in Leeds.",
        "The pottery fair in Leeds sounds fun and my cousin asked me along, but should I go?",
    ),
]


@pytest.mark.parametrize(("fact", "said"), LEFT_OPEN)
def test_an_act_said_only_inside_a_hedge_is_not_stored(fact: str, said: str) -> None:
    assert check(fact, said).status != "supported"


# What stays stored: the act said as done, in the same message or beside the hedge
DONE = [
    (
        "The owner went to Dana's board game night.",
        "I went to Dana's board game night last Friday and it was a blast.",
    ),
    (
        "The owner went to the pottery fair in Leeds.",
        "I went to the pottery fair in Leeds with my cousin, should I go again next year?",
    ),
    (
        "The owner bought the Brooks Ghost for $140.",
        "I bought the Brooks Ghost for $140 yesterday, and I wonder if they suit trail runs.",
    ),
    (
        "The owner is running a tutoring pilot.",
        "I'm running a tutoring pilot this spring, should I extend it?",
    ),
]


@pytest.mark.parametrize(("fact", "said"), DONE)
def test_an_act_said_as_done_stays_stored(fact: str, said: str) -> None:
    verdict = check(fact, said)
    assert verdict.status == "supported", verdict.reason


# The rule's limits: a hedged fact may rest on a hedge; a wrong detail, a question and another
# person's act stay out as before
def test_a_fact_that_hedges_too_may_rest_on_the_hedge() -> None:
    verdict = check(
        "The owner is thinking about going to the pottery fair in Leeds.",
        "The pottery fair in Leeds sounds fun, should I go?",
    )
    assert verdict.status == "supported", verdict.reason


@pytest.mark.parametrize(
    ("fact", "said"),
    [
        (
            "The owner went to the pottery fair in York.",
            "The pottery fair in Leeds sounds fun, should I go?",
        ),
        (
            "The owner went to the pottery fair in Leeds.",
            "My cousin went to the pottery fair in Leeds; should I go too?",
        ),
        (
            "The owner bought the Brooks Ghost for trail runs.",
            "Which should I pick for trail runs, the Hoka Clifton or the Brooks Ghost?",
        ),
    ],
)
def test_a_wrong_detail_a_question_or_another_person_stays_out(fact: str, said: str) -> None:
    assert check(fact, said).status != "supported"


def test_a_doubt_on_how_a_done_act_is_done_takes_the_act_as_so() -> None:
    verdict = check(
        "The owner uses the Chicago style for footnotes.",
        "I've adopted the Chicago style for footnotes, but I'm not sure if I'm using it right.",
    )
    assert verdict.status == "supported", verdict.reason
