"""The grounding guard's round 25 (issue 29): what a hedged sentence's past-tense clauses state.
A clause inside a question, a wish, a plan or a doubt that a relative or adverbial word opens
(`that`, `which`, `like`, `as`, `since`, ...) and that says something in the past or the perfect
is said as so, whatever hedge opens the sentence. What the hedge itself governs stays a plan,
and so do a past under `if`, `as if`, a wish or a denial. Messages and facts written here, none
taken from a bench set."""

from __future__ import annotations

import pytest

from tests.support.grounding import check

_POTTERY = (
    "What are some rainy-day ideas like the pottery session that ran 90 minutes and was taught "
    "by Omar at Kiln Studio?"
)
_TALK = "I wonder if I could shorten my keynote as Tomas suggested at our review on June 3."
_SEMINAR = (
    "I'm wondering how to get it all done, especially since I just attended that "
    '"Dream Big Planning" seminar on March 2.'
)
_VAULT = (
    "I'm wondering if there's more I can do for my photos, which are now kept in the vault "
    "folder created on May 9?"
)
_SWAP = "I'm thinking of joining a book swap like the one Dana hosted on June 8, to meet people."

CASES = [
    # said, fact, stored
    (_POTTERY, "Omar taught for 90 minutes at Kiln Studio.", True),
    (_TALK, "Tomas suggested it at the review on 3 June.", True),
    (_SEMINAR, "The owner attended the seminar on 2 March.", True),
    (_VAULT, "The vault folder was created on 9 May.", True),
    # what the hedge governs stays a plan
    (_SWAP, "The owner joined a book swap on 8 June.", False),
    (_SWAP, "The owner hosted a book swap on 8 June.", False),  # Dana did
    (_TALK, "The owner shortened the keynote.", False),
    # a past under `if`, `as if`, a wish, a denial, a doubt's `that`: still not said as so
    (
        "I wonder, if I moved to Denver in May, would I be happier?",
        "The owner moved to Denver.",
        False,
    ),
    ("I wish I had taken the job at Lumen in May.", "The owner took the job at Lumen.", False),
    (
        "Should I act as if I signed the lease on May 2?",
        "The owner signed the lease on 2 May.",
        False,
    ),
    (
        "Can you help me plan the week, since I never finished the Lumen report?",
        "The owner finished the Lumen report.",
        False,
    ),
]


@pytest.mark.parametrize(("said", "fact", "stored"), CASES)
def test_a_hedged_sentences_past_clause(said: str, fact: str, stored: bool) -> None:
    assert (check(fact, said).status == "supported") is stored, check(fact, said).reason
