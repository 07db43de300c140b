"""The grounding guard's round 22B (issue 29): the hedge, both ways. A promise (`I'll`,
`will`) or a booking arranges what it names, so the act is not done (a decision it arranges
is made); a fact that says a worry or a hesitation rests on the hedged message it reports.
Messages and facts written here, none taken from a bench set."""

from __future__ import annotations

from tests.support.grounding import check


def test_a_promise_arranges_what_it_names() -> None:
    """`I'll open a savings account next week`: not opened yet."""
    said = "Sounds good! I'll open a savings account for the car next week."
    fact = "The owner opened a savings account for the car."
    assert check(fact, said).status != "supported"


def test_a_fact_that_says_a_hesitation_rests_on_one() -> None:
    """`... is making me hesitant`: the hesitation about the bonfire night is so; the night
    is only considered."""
    said = "I'm considering a bonfire night, but the wind warning for Friday is making me hesitant."
    fact = "The owner is hesitant about a bonfire night because of a wind warning for Friday."
    assert check(fact, said).status == "supported"
    assert check("The owner had a bonfire night on Friday.", said).status != "supported"
