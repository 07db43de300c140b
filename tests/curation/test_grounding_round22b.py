"""The grounding guard's round 22B (issue 29): the hedge, both ways. Where a hedge reaches less
far than its clause (a purpose, a worry's act, a relative clause set off by a comma, a name's
description, `as Greg suggested`) a fact is stored; where a plan or a question is said without
a listed hedge word (`think about`, `look into`, `in case`, `how do I`, `should I`, an
enrolment) it is not. Messages and facts written here, none taken from a bench set."""

from __future__ import annotations

from tests.support.grounding import check


def test_an_option_a_fact_names_is_no_hedge_of_the_fact() -> None:
    """`went with the Porto option` says a choice made; a question between two options does
    not (main read `option` as the fact's own hedge and stored it)."""
    said = "I'm torn, should I go with the Porto option or stay in my current flat?"
    assert check("The owner went with the Porto option.", said).status != "supported"


def test_think_about_and_look_into_plan_in_any_form() -> None:
    """`I'll think about getting a rowing machine`, `I'll look into a power of attorney`: a
    plan, whatever the verb's form."""
    said = "Sounds good. I'll also think about getting a rowing machine for the winter."
    assert check("The owner has a rowing machine.", said).status != "supported"
    said = "I'll also look into setting up a power of attorney for my parents."
    assert check("The owner set up a power of attorney.", said).status != "supported"


def test_in_case_supposes_what_follows_it_only() -> None:
    """`in case I get locked out again` supposes the locking out; the key is kept."""
    said = "I keep a spare key at my neighbour's in case I get locked out again."
    assert check("The owner got locked out.", said).status != "supported"
    assert check("The owner keeps a spare key at the neighbour's.", said).status == "supported"


def test_an_enrolment_or_a_date_set_arranges_what_it_names() -> None:
    """`I have scheduled interviews with three potters`: the interviews are still to come."""
    said = "I have scheduled interviews with three potters for my documentary, any tips?"
    fact = "The owner interviewed three potters for a documentary."
    assert check(fact, said).status != "supported"


def test_a_promise_arranges_and_a_decision_it_arranges_is_made() -> None:
    """`I'll open a savings account next week`: not opened yet; `I'll go with the window seat`
    is the choice made."""
    said = "Sounds good! I'll open a savings account for the car next week."
    fact = "The owner opened a savings account for the car."
    assert check(fact, said).status != "supported"


def test_an_act_asked_about_is_not_done() -> None:
    """`should I use the Pomodoro method` asks; it does not say the method is used."""
    said = "I'm kinda stuck on my revision, should I use the Pomodoro method, you know"
    assert check("The owner uses the Pomodoro method.", said).status != "supported"


def test_a_purpose_after_the_act_may_rest_on_a_hope() -> None:
    """`..., to focus at work` is what the move is for: the hope says it; the move is done."""
    said = "I've moved my gym sessions to 6 AM, and I'm hoping it will help me focus at work."
    fact = "The owner moved their gym sessions to 6 AM, to focus at work."
    assert check(fact, said).status == "supported"


def test_a_fact_that_says_a_hesitation_rests_on_one() -> None:
    """`... is making me hesitant`: the hesitation about the bonfire night is so; the night
    is only considered."""
    said = "I'm considering a bonfire night, but the wind warning for Friday is making me hesitant."
    fact = "The owner is hesitant about a bonfire night because of a wind warning for Friday."
    assert check(fact, said).status == "supported"
    assert check("The owner had a bonfire night on Friday.", said).status != "supported"


def test_a_worry_takes_its_act_as_made() -> None:
    """`worried that moving the offsite to May 14 at 9 AM might clash`: the move is made;
    the clash is the worry."""
    said = "I'm worried that moving the team offsite to May 14 at 9 AM might clash with the launch."
    fact = "The owner moved the team offsite to 14 May at 9 AM."
    assert check(fact, said).status == "supported"


def test_an_embedded_question_supposes_nothing() -> None:
    """`wondering if attending the Leeds design meetup on June 2 could help`: the meetup and
    its day are so; the attending is weighed."""
    said = "I was wondering if attending the Leeds design meetup on June 2 could help my portfolio."
    assert check("The Leeds design meetup is on 2 June.", said).status == "supported"
    assert check("The owner attended the Leeds design meetup.", said).status != "supported"


def test_as_someone_suggested_is_a_clause_of_its_own() -> None:
    """`..., as Priya suggested during our review on May 2`: the review took place."""
    said = "My slides might still be too long, as Priya suggested during our review on May 2."
    assert check("Priya gave the owner a review on 2 May.", said).status == "supported"


def test_a_relative_clause_set_off_by_a_comma_says_what_is_so() -> None:
    """`..., like my tomato beds, which are now covered with netting since June 1?`: the
    question wonders what else to do; the netting is so."""
    said = (
        "I'm wondering what else I can do for my garden, like my tomato beds, which are now "
        "covered with netting since June 1?"
    )
    fact = "The owner's tomato beds have been covered with netting since 1 June."
    assert check(fact, said).status == "supported"
