"""The grounding guard's round 24D (issue 29): a skipped act is not done. An act or event that
is the object of a verb of not doing (skip, cancel, call off, miss, pass on, bail on, back out
of, drop out of, postpone) is said as not done: a fact that says it happened, or that the owner
did it, is a denial turned into a fact. A fact that says it was skipped stays, and so does what
another clause says was done. Messages and facts written here."""

from __future__ import annotations

import pytest

from tests.support.grounding import check

KEPT_OUT = [
    (
        "The owner went to Denver.",
        "I keep asking myself whether skipping the Denver trip was smart, the forecast was awful.",
    ),
    ("The owner took the trip to Lisbon.", "I skipped the Lisbon trip in June to save."),
    ("The owner went to Lisbon.", "I skipped the Lisbon trip in June to save."),
    ("The owner went to the jazz concert.", "I missed the jazz concert on Friday, my bus died."),
    ("The owner went on the canoe trip.", "Honestly I bailed on the canoe trip with Priya."),
    ("The owner went to the pottery retreat.", "We called off the pottery retreat in May."),
    ("The owner attended the Austin conference.", "I passed on the Austin conference this year."),
    ("The owner ran the half marathon.", "I backed out of the half marathon, my knee hurts."),
    ("The owner did the evening ceramics course.", "I dropped out of the evening ceramics course."),
    ("The owner had the housewarming party.", "We postponed the housewarming party until spring."),
    ("The housewarming party happened.", "We cancelled the housewarming party, nobody could come."),
]


@pytest.mark.parametrize(("fact", "said"), KEPT_OUT)
def test_what_was_not_done_is_no_fact_that_it_was(fact: str, said: str) -> None:
    """Stored on main, each but the Austin conference (asked: `attended` unsaid) and the
    cancelled party (`cancelled` was read as a denial already)."""
    verdict = check(fact, said)
    assert verdict.status != "supported", verdict.reason


STORED = [
    ("The owner skipped the Lisbon trip.", "I skipped the Lisbon trip in June to save."),
    ("The owner missed the jazz concert.", "I missed the jazz concert on Friday, my bus died."),
    ("The owner called off the pottery retreat.", "We called off the pottery retreat in May."),
    ("The owner went to the gym.", "I skipped breakfast but went to the gym."),
    ("The owner skipped breakfast.", "I skipped breakfast but went to the gym."),
]  # fmt: skip


@pytest.mark.parametrize(("fact", "said"), STORED)
def test_the_skipping_itself_and_what_was_done_are_stored(fact: str, said: str) -> None:
    verdict = check(fact, said)
    assert verdict.status == "supported", verdict.reason
