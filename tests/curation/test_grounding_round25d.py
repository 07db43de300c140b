"""The grounding guard's round 25D (issue 29): what a hedge still leaves said. A past act an
`after` and a gerund name with a day before the message's own (`considering X after getting
feedback on April 20`: the feedback came), and what a name's possessive with a day describes
(`wondering if Dr. Hale's checkup on April 2 shows ...`: there was a checkup). A future day or
none (`after getting the job`), a supposition (`if ... after deciding`, `if Marta's review ...
finds`) and what the hedge itself governs stay unsaid. Messages and facts written here (the
message is said on 6 May 2024), none taken from a bench set."""

from __future__ import annotations

import pytest

from tests.support.grounding import check

_PILOT = (
    "I'm considering extending the pilot to 2 more teams after getting good reviews from 3 "
    "testers on April 20, but I want to be careful."
)
_CLASS = (
    "Should I sign up for the advanced pottery class after finishing the beginner course on "
    "April 30?"
)
_FUND = (
    "I'm thinking of putting more into my index fund after deciding to rebalance by moving $800 "
    "into it on April 12, what are the risks?"
)
_CHECKUP = "I was wondering if dentist Hale's checkup on April 2 shows that my tooth has healed."
_INSPECTION = "Does landlord Pietro's inspection on April 9 mean I get my deposit back?"

CASES = [
    # said, fact, stored
    (_PILOT, "The owner got good reviews from 3 testers on 20 April.", True),
    (_CLASS, "The owner finished the beginner course on 30 April.", True),
    (_FUND, "On 12 April the owner moved $800 into the index fund.", True),
    (_CHECKUP, "The owner had a checkup with dentist Hale on 2 April.", True),
    (_INSPECTION, "Landlord Pietro did an inspection on 9 April.", True),
    (
        "How can I keep it up, like with my decision to start running on April 3?",
        "On 3 April the owner started running.",
        True,
    ),
    (
        "How can I keep it up, like with my decision to start running on June 3?",
        "On 3 June the owner started running.",
        False,
    ),
    (
        "I'm thinking of adopting more rescue cats like Milo, who I took in on April 8.",
        "Milo is a rescue cat the owner took in on 8 April.",
        True,
    ),
    (
        "I'm thinking of adopting more rescue cats like Milo, who I took in on April 8.",
        "The owner adopted more rescue cats.",
        False,
    ),
    # round 24's RD and OA again: the act a past right decision names, a hedge noun one has
    (
        "I'm wondering if that was the right decision to move my savings to Norbank.",
        "The owner moved the savings to Norbank.",
        True,
    ),
    (
        "I'm living my dream by having my own pottery studio in Leeds.",
        "The owner has a pottery studio in Leeds.",
        True,
    ),
    (
        "I'm wondering if it would be the right decision to move my savings to Norbank.",
        "The owner moved the savings to Norbank.",
        False,
    ),
    (
        "My goal to open a pottery studio in Leeds keeps me going, but is it wise?",
        "The owner opened a pottery studio in Leeds.",
        False,
    ),
    # what the hedge governs stays a plan or a question
    (_PILOT, "The owner extended the pilot to 2 more teams.", False),
    (_CLASS, "The owner signed up for the advanced pottery class.", False),
    (
        "I'm thinking of going to Stephanie's party on May 5.",
        "The owner went to Stephanie's party on 5 May.",
        False,
    ),
    # a name's possessive the speaker weighs is not the speaker's, nor a choice made
    (
        "I'm stuck between attending Omar's May 2 workshop or Nia's May 3 talk.",
        "The owner chose Nia's talk on 3 May over Omar's workshop.",
        False,
    ),
    (
        "I'm thinking about Kevin's legal background for the role.",
        "The owner has a legal background.",
        False,
    ),
    # a future: no day, a day after the message's, a gerund or a clause of one's own
    (
        "I'm planning to move to Austin after getting a job at Lumen.",
        "The owner got a job at Lumen.",
        False,
    ),
    (
        "I'm planning to move to Austin after getting an offer from Lumen on June 3.",
        "The owner got an offer from Lumen on 3 June.",
        False,
    ),
    ("I'm thinking of traveling to Peru after I retire.", "The owner retired.", False),
    (
        "I'm thinking of buying a boat once I sell the house on Elm Street.",
        "The owner sold the house on Elm Street.",
        False,
    ),
    # ... but a past a clause of its own states is said (round 25)
    (
        "I'm wondering how to budget after I got the raise on May 1.",
        "The owner got the raise on 1 May.",
        True,
    ),
    # a supposition
    (
        "If I sell the car after deciding on April 2 to go green, would I regret it?",
        "The owner decided on 2 April to go green.",
        False,
    ),
    (
        "If Marta's review on April 2 finds a problem, what should I do?",
        "Marta reviewed the will on 2 April.",
        False,
    ),
]


@pytest.mark.parametrize(("said", "fact", "stored"), CASES)
def test_what_a_hedge_still_leaves_said(said: str, fact: str, stored: bool) -> None:
    assert (check(fact, said).status == "supported") is stored, check(fact, said).reason
