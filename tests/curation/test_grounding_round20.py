"""The grounding guard's round twenty (issue 29): where a hedge word is none. A `considering`
that opens a clause means given; a fact that says a deliberation (`is weighing`) rests on one;
what `my ...` names goes on through `to`, `for`, `with` under a hedge. Messages and facts
written here, none taken from a bench set."""

from __future__ import annotations

from tests.support.grounding import check


def test_considering_that_opens_a_clause_means_given() -> None:
    """`..., considering the new course is really demanding`: the course is demanding, as
    the speaker takes it; dropping a class is only maybe."""
    said = "I might drop one class this term, considering the new course is really demanding."
    assert check("The owner finds the new course demanding.", said).status == "supported"
    assert check("The owner dropped a class.", said).status != "supported"


def test_considering_before_what_is_weighed_stays_a_plan() -> None:
    """`Considering a move to Lisbon`, `considering moving`: what is weighed is not done."""
    assert (
        check("The owner moved to Lisbon.", "Considering a move to Lisbon next spring.").status
        != "supported"
    )
    said = "We're considering moving the studio to Lisbon."
    assert check("The owner moved the studio to Lisbon.", said).status != "supported"


def test_a_fact_that_says_a_deliberation_rests_on_one() -> None:
    """`I'm stuck between the $900 Vespa and the $1,100 Honda scooter`: weighing them is so;
    buying either is not."""
    said = "I'm stuck between the $900 Vespa and the $1,100 Honda scooter for commuting."
    weighing = "The owner is weighing a $900 Vespa against a $1,100 Honda scooter."
    assert check(weighing, said).status == "supported"
    assert check("The owner bought a $900 Vespa.", said).status != "supported"


def test_what_my_names_goes_on_through_its_own_phrase() -> None:
    """`When does my weekly $150 transfer to savings go out?`: there is a transfer, to
    savings, whatever the question asks."""
    said = "When does my weekly $150 transfer to savings go out?"
    fact = "The owner has a weekly $150 transfer to savings."
    assert check(fact, said).status == "supported"


def test_a_day_after_to_stays_planned() -> None:
    """`thinking of moving my dentist appointment to June 3`: no move, no June 3 yet."""
    said = "I'm thinking of moving my dentist appointment to June 3."
    fact = "The owner's dentist appointment is on June 3."
    assert check(fact, said).status != "supported"


def test_a_denial_still_governs_what_follows_my_phrase() -> None:
    """`I never lent my old camera to Priya`: the camera is so; the lending to Priya is not."""
    said = "I never lent my old camera to Priya, she borrowed Tom's."
    assert check("The owner lent a camera to Priya.", said).status != "supported"


def test_where_a_plan_takes_my_phrase_stays_planned() -> None:
    """`cut my grocery bill down to $300`, `move my desk to the corner office`: a target and a
    destination after `to` are the plan's, not what `my ...` names."""
    said = "How can I cut my grocery bill down to $300 a month?"
    assert check("The owner's grocery bill is $300 a month.", said).status != "supported"
    said = "I might move my desk to the corner office."
    assert check("The owner's desk is in the corner office.", said).status != "supported"
