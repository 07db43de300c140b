"""The grounding guard's round ten (issue 29): the supported side. A curator puts several
common words of a fact in other words; the meaning check lifts them (at most one of them a
thing), where round 9 lifted one word only. Messages and facts written here."""

from __future__ import annotations

from typing import Any

from kit.curator.grounding import Grounding, Verdict
from kit.curator.meaning import Meanings
from kit.curator.ops import Insert
from tests.support.grounding import message


async def check(fact: str, said: str, meanings: Meanings | None = None) -> Verdict:
    grounding = Grounding([message(said)], [1], "", meanings)
    op = Insert(fact, 0.9, "", sources=(1,))
    await grounding.weigh([op], {})
    return grounding.check(op, {})


CHOIR = (
    "In April I joined the Lisbon community choir and I'm thrilled about it. "
    "We rehearse every Tuesday evening."
)


async def test_several_common_words_in_other_words_are_stored_by_meaning(minilm: Any) -> None:
    """ "happily accepted a place in" for "joined ... thrilled": two common words unsaid, the
    rest said, a sentence that means the fact (round 9 lifted one word only)."""
    fact = (
        "The owner happily accepted a place in the Lisbon community choir in April and "
        "rehearses with the choir every Tuesday evening."
    )
    meanings = Meanings.calibrated(minilm)
    assert (await check(fact, CHOIR, None)).status == "partial"
    assert (await check(fact, CHOIR, meanings)).status == "supported"


async def test_two_things_unsaid_are_a_thing_swapped_not_a_paraphrase(minilm: Any) -> None:
    """A fact that swaps what was done for something near it ("an animal shelter" for "the
    food bank") is as close to the sentence as a paraphrase: two unsaid nouns are not lifted;
    nor is a fact whose closest sentence is not close enough ("orchestra" for "choir")."""
    said = (
        "I started volunteering at the food bank on Saturdays, sorting donations with my neighbour."
    )
    swapped = (
        "The owner helps out at the animal shelter on Saturdays, sorting donations with a "
        "neighbour."
    )
    meanings = Meanings.calibrated(minilm)
    assert (await check(swapped, said, meanings)).status != "supported"
    other = (
        "The owner happily accepted a place in the Lisbon community orchestra in April and "
        "rehearses with the orchestra every Tuesday evening."
    )
    assert (await check(other, CHOIR, meanings)).status != "supported"
