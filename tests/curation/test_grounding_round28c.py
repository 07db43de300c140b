"""The grounding guard's round 28C (issue 29): `with no X` and `without X` deny X, not the
sentence they end. kit/curator/clauses.py cuts a clause before them: "I painted the fence in
two days with no help" says the fence was painted (main's guard read the whole clause as
denied and dropped it), and denies help; "I repaired the bike without a manual" said nothing
against a manual before (main's guard stored "The owner used a manual"). Messages and facts
written here; each case but the flight's (denied before too: main read the whole clause as
denied) was decided the other way by main's guard (8776196)."""

from __future__ import annotations

import pytest

from tests.support.grounding import check

# (the fact, the owner's message): the sentence's own statement holds
STORED = [
    ("The owner painted the fence in two days.", "I painted the fence in two days with no help."),
    ("The owner swam 3 km.", "Yesterday I swam 3 km with no breaks, a first for me."),
    (
        "The owner's blog had 500 visitors in March.",
        "My blog had 500 visitors in March with no ads.",
    ),
]

# (the fact, the owner's message): what `with no` / `without` denies is not so
DENIED = [
    ("The owner used a manual to repair the bike.", "I repaired the bike without a manual."),
    ("The owner took a tent on the hike.", "I did the whole hike without a tent."),
    ("The owner's flight had delays.", "My flight to Oslo landed with no delays at all."),
]


@pytest.mark.parametrize(("fact", "said"), STORED)
def test_the_sentence_holds_beside_what_it_goes_without(fact: str, said: str) -> None:
    verdict = check(fact, said)
    assert verdict.status == "supported", verdict.reason


@pytest.mark.parametrize(("fact", "said"), DENIED)
def test_what_it_goes_without_is_not_so(fact: str, said: str) -> None:
    verdict = check(fact, said)
    assert verdict.status != "supported", verdict.reason
