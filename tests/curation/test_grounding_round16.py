"""The grounding guard's round sixteen (issue 29), lever B: the hedge statements. `I think`,
`I guess`, `kind of`, `pretty sure` leave a statement said (they did before the round); a doubt
whether a past act was the right call (`wondering if signing up for X over Y was the right
call`) takes the act as done (kit/curator/hedge_scope.py). Messages and facts written here."""

from __future__ import annotations

from kit.curator.clauses import clauses
from kit.curator.wording import fold
from tests.support.grounding import check


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
