"""The grounding guard's round 24 (issue 29): what a hedged message still states. Each test a
reading of English, in messages and facts written here (none taken from a bench set); the
hypothetical, the question and the plan stay kept out."""

from __future__ import annotations

from kit.curator.intended import unmet_act
from tests.support.grounding import check


def test_a_hedge_word_inside_a_title_hedges_nothing() -> None:
    """`the "Retirement Planning" seminar`: a name, not a plan."""
    said = 'Yesterday I joined the "Retirement Planning" seminar at Brookfield Library.'
    fact = "The owner joined a retirement seminar at Brookfield Library."
    assert check(fact, said).status == "supported"


def test_a_hedge_word_opening_a_sentence_still_hedges() -> None:
    said = "Planning to visit Brookfield Library next week."
    assert check("The owner visited Brookfield Library.", said).status != "supported"


def test_what_follows_after_in_a_plan_happened() -> None:
    """`considering X after getting Y on a day`: Y happened; X is still weighed."""
    said = (
        "I'm considering a second pottery course after getting glowing feedback from 3 "
        "classmates on June 9."
    )
    fact = "The owner got glowing feedback from 3 classmates on 9 June."
    assert check(fact, said).status == "supported"
    assert check("The owner took a second pottery course.", said).status != "supported"


def test_after_in_a_supposition_states_nothing() -> None:
    said = "If I ever move to Lisbon after getting the visa on June 9, I'd rent a flat."
    assert check("The owner got the visa on 9 June.", said).status != "supported"


def test_the_fact_that_states_what_follows() -> None:
    """`not sure whether to focus on the fact that the exam is on May 12`: the exam is then."""
    said = (
        "I'm not sure whether I should worry about the fact that my driving exam is on May 12 "
        "or about the lessons."
    )
    fact = "The owner's driving exam is on 12 May."
    assert check(fact, said).status == "supported"


def test_a_doubt_whether_a_decision_to_act_was_right_takes_the_act_as_done() -> None:
    """`wondering if that was the right call to skip the gala`: it was skipped."""
    said = (
        "I turned down Mara's offer on June 3, and I'm wondering if that was the right "
        "decision to focus on my thesis defense."
    )
    fact = "The owner turned down Mara's offer on 3 June to focus on the thesis defense."
    assert check(fact, said).status == "supported"


def test_a_titled_name_opens_a_clause_of_its_own() -> None:
    """`..., and attorney Mina suggested X`: no hedge of the clause before carried into it."""
    said = (
        "I've been thinking about selling the cabin, and attorney Mina suggested a $40,000 "
        "trust for the boys."
    )
    fact = "Attorney Mina suggested a $40,000 trust for the owner's boys."
    assert check(fact, said).status == "supported"


def test_a_possible_thing_in_a_fact_rests_on_a_hedge() -> None:
    """A fact that calls its thing possible says it as the message does (`if there's any
    chance of`)."""
    said = "I'll ask Petra about the budget and if there's any chance of extending the lease."
    fact = "The owner will ask Petra about the budget and a possible lease extension."
    assert check(fact, said).status == "supported"


def test_my_thing_given_stops_before_what_is_hoped_of_it() -> None:
    """`hoping to get my novel published by March`: the novel is so, not its publishing."""
    said = "I'm hoping to get my novel published by a small press by March 2025."
    assert check("The owner's novel has been published.", said).status != "supported"


def test_a_planned_event_is_named_not_held() -> None:
    """`planning a movie marathon for my family`: the marathon is arranged (its budget is
    so); that it took place is not said."""
    said = "I'm planning a movie marathon for my family, and I've set the snack budget to $60."
    fact = "The owner set the movie marathon's snack budget to $60."
    assert check(fact, said).status == "supported"
    held = "The owner held a movie marathon for the family."
    assert unmet_act(held, [said]) == "held"


def test_a_question_names_a_past_day_as_so() -> None:
    """A day before the message's own cannot be planned: the day a question names is said;
    its act stays asked."""
    said = "I keep a gratitude journal now. How do I keep meditating every morning since April 1?"
    fact = "The owner has kept a gratitude journal since 1 April 2024."
    assert check(fact, said).status == "supported"
    asked = "The owner has meditated every morning since 1 April 2024."
    assert check(asked, said).status != "supported"


def test_a_question_of_what_might_have_been_says_nothing() -> None:
    said = "Should I have joined the pottery class on April 1?"
    assert check("The owner joined the pottery class on 1 April.", said).status != "supported"


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
