"""The grounding guard's round 24 (issue 29): what a hedged message still states. Each test a
reading of English, in messages and facts written here (none taken from a bench set); the
hypothetical, the question and the plan stay kept out."""

from __future__ import annotations

from tests.support.grounding import check


def test_a_titled_name_opens_a_clause_of_its_own() -> None:
    """`..., and attorney Mina suggested X`: no hedge of the clause before carried into it."""
    said = (
        "I've been thinking about selling the cabin, and attorney Mina suggested a $40,000 "
        "trust for the boys."
    )
    fact = "Attorney Mina suggested a $40,000 trust for the owner's boys."
    assert check(fact, said).status == "supported"
    assert check("The owner sold the cabin.", said).status != "supported"


def test_a_question_in_the_past_takes_what_it_asks_about_as_so() -> None:
    """`when did I last service the boiler?`: it was serviced; `why do I keep missing ...?`:
    it is missed."""
    said = "Hmm, when did I last service the boiler at the lake house?"
    assert check("The owner serviced the boiler at the lake house.", said).status == "supported"
    said = "Why do I keep missing the 7 AM spin class at Corefit?"
    fact = "The owner keeps missing the 7 AM spin class at Corefit."
    assert check(fact, said).status == "supported"


def test_a_question_of_whether_still_asks() -> None:
    said = "Did I lock the door at the lake house?"
    assert check("The owner locked the door at the lake house.", said).status != "supported"
    said = "Why should I join the 7 AM spin class at Corefit?"
    assert check("The owner joined the 7 AM spin class at Corefit.", said).status != "supported"
