"""The grounding guard's round 27C (issue 29): a short fact's words said another way. What `my`
names when two describing words share its noun (`my calm and logical demeanor might not shine
through`: the clause is cut at `and`, the demeanor is given all the same), and a word in the
clipped form a chat writes it in (`prepping` for preparing, `convo`, `vacay`), and a verb of
seeming by another (`come off as` for sounding, `comes across as` for seems). A refusal a fact
says (`was rejected`, `cancelled`) is a word its messages must say as so: a worry about what did
not happen (`my visa might be rejected`) stays unsaid, as do an act under the hedge, a changed
detail and a plain `and` between two clauses. Messages and facts written here (the message is
said on 6 May 2024), none taken from a bench set."""

from __future__ import annotations

import pytest

from tests.support.grounding import check

_DEMEANOR = (
    "I'm a bit nervous that my patient and careful manner might not come across in interviews."
)
_KITCHEN = "Can you help me describe my bright and spacious kitchen for the listing?"
_BIKE = "I'm worried my old and rusty bike won't survive another winter."

STORED = [
    (_DEMEANOR, "The owner has a patient and careful manner."),
    (_DEMEANOR, "The owner has a careful manner."),
    (_KITCHEN, "The owner has a bright and spacious kitchen."),
    (_BIKE, "The owner has an old and rusty bike."),
    (
        "I'm a bit worried that my calm and logical demeanor might not shine through.",
        "The owner is worried about the demeanor.",
    ),  # the worry itself is said
    ("I declined the offer from Brightline last week.", "The owner declined the Brightline offer."),
    (
        "I'm prepping for my pottery exhibition all week!",
        "The owner is preparing for a pottery exhibition.",
    ),
    ("Prepped all the lesson plans last night.", "The owner prepared the lesson plans."),
    ("Had a long convo with Priya about the move.", "The owner had a conversation with Priya."),
    ("Back from my vacay in Crete, feeling great.", "The owner was on vacation in Crete."),
    ("I said no to the job offer from Fenwick.", "The owner refused the Fenwick job offer."),
    (
        "I'm worried my cover letter might come off as too casual for the firm.",
        "The owner worries about sounding too casual in the cover letter.",
    ),
    ("My new landlord comes across as really strict.", "The owner's new landlord seems strict."),
    ("Honestly my sister seems pretty stressed lately.", "The owner's sister sounds stressed."),
    ("Knowing the kids count on me keeps me motivated.", "The owner stays motivated by the kids."),
    ("Those early runs kept me sane during the move.", "The owner stayed sane during the move."),
]

KEPT_OUT = [
    # what the hedge governs, and what the worry is about, stay unsaid
    (_DEMEANOR, "The owner's manner came across in interviews."),
    ("I'm worried my visa might be rejected.", "The owner's visa was rejected."),
    ("I'm worried my visa and passport might be rejected.", "The owner's visa was rejected."),
    ("Should I cancel my gym membership?", "The owner cancelled the gym membership."),
    ("Should I say no to the job offer from Fenwick?", "The owner refused the Fenwick job offer."),
    # a plain "and" between two clauses goes on no description
    ("I'm thinking I might sell my car and buy a bike.", "The owner bought a bike."),
    ("I'm thinking I might sell my car and buy a bike.", "The owner sold the car."),
    # a changed detail
    (_DEMEANOR, "The owner has a patient and cheerful manner."),
    (_BIKE, "The owner has an old and rusty car."),
    (
        "I'm prepping for my pottery exhibition all week!",
        "The owner is preparing for a painting exhibition.",
    ),
    ("Had a long convo with Priya about the move.", "The owner had a conversation with Meera."),
    ("I kept the bags at the Hilton in Paris.", "The owner stayed at the Hilton in Paris."),
    ("Knowing the kids count on me keeps me motivated.", "The owner stays calm for the kids."),
    # a seeming of something else, or one only asked about
    (
        "I'm worried my cover letter might come off as too casual for the firm.",
        "The owner worries about sounding too formal in the cover letter.",
    ),
    (
        "Does my new landlord come across as strict to you?",
        "The owner's new landlord seems strict.",
    ),
]


CASES = [(said, fact, True) for said, fact in STORED] + [(s, f, False) for s, f in KEPT_OUT]


@pytest.mark.parametrize(("said", "fact", "stored"), CASES)
def test_a_word_said_another_way(said: str, fact: str, stored: bool) -> None:
    verdict = check(fact, said)
    assert (verdict.status == "supported") is stored, (verdict.status, verdict.reason)
