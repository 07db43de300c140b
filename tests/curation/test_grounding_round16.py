"""The grounding guard's round sixteen (issue 29), lever B: the hedge statements. A goal, a plan
or a dream named as a thing (`on track to hit my goal`, `stuck with this plan`, `to fit the
club's goals`) hedges nothing the clause says; one whose content follows (`my goal is to ...`,
`this plan to ...`, `my dream of ...`) still does. Messages and facts written here."""

from __future__ import annotations

from kit.curator.clauses import clauses
from kit.curator.wording import fold
from tests.support.grounding import check


def test_a_goal_named_as_a_thing_hedges_nothing() -> None:
    """Stored: the swim lessons are so; `my goal` is only what they serve."""
    said = "I booked 6 swim lessons at Northgate Pool for March to get closer to my goal."
    assert check("The owner booked 6 swim lessons at Northgate Pool.", said).status == ("supported")


def test_a_plan_named_as_a_thing_hedges_nothing() -> None:
    said = "I switched to the Hartley Bank savings account to stick to our plan."
    assert check("The owner switched to a Hartley Bank savings account.", said).status == (
        "supported"
    )


def test_a_goal_whose_content_follows_stays_a_goal() -> None:
    """Kept out, on the old code and the new: the marathon is only aimed at."""
    said = "My goal is to run the Lisbon marathon in October."
    assert check("The owner ran the Lisbon marathon in October.", said).status != "supported"


def test_a_dream_of_something_stays_a_dream() -> None:
    said = "Honestly my dream of opening a bakery in Porto keeps me going."
    assert check("The owner opened a bakery in Porto.", said).status != "supported"


def test_the_hedges_of_a_plain_statement_leave_it_said() -> None:
    """`I think`, `I guess`, `pretty sure`, `kind of`: stored on the old code and the new."""
    said = "I guess I'm kind of a regular at Luma Cafe now, I'm pretty sure they know my order."
    assert check("The owner is a regular at Luma Cafe.", said).status == "supported"


CHOICE = (
    "I'm wondering if signing up for the pottery class at Clayworks over the one at the "
    "community center was the right call."
)


def test_a_doubt_whether_a_past_choice_was_right_states_the_choice() -> None:
    verdict = check("The owner signed up for the pottery class at Clayworks.", CHOICE)
    assert verdict.status == "supported"


def test_that_the_choice_was_right_stays_in_doubt() -> None:
    """The clause after the act (`was the right call`) is still the doubt."""
    folded = fold(CHOICE)
    read = {folded[c.start : c.end].strip(" ."): c.hedged for c in clauses(CHOICE)}
    assert read["was the right call"] is True
    assert (
        read["signing up for the pottery class at Clayworks over the one at the community center"]
        is False
    )


def test_a_choice_still_being_weighed_stays_unsaid() -> None:
    said = "I'm not sure if signing up for the pottery class at Clayworks is the right decision."
    assert (
        check("The owner signed up for the pottery class at Clayworks.", said).status != "supported"
    )
