"""The grounding guard's round ten (issue 29): the supported side. A curator puts several
common words in other words; names a group of people in other words ("friends" for "the
gang"); keeps a person's age said inside a plan ("inviting Tobias, 52, ..."); and writes
"his" for the person it has just named. Messages and facts written here."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

import pytest

from kit.curator.grounding import Grounding, Verdict
from kit.curator.meaning import Meanings
from kit.curator.ops import Insert
from kit.memory.messages import Message


def message(said: str, day: date = date(2024, 5, 6)) -> Message:
    at = datetime(day.year, day.month, day.day, 10, tzinfo=UTC)
    return Message(1, "o", 1, "user", "", said, at, day, None, "chat")


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


@pytest.mark.parametrize(
    ("fact", "said"),
    [
        (
            "The owner went bowling with friends after work.",
            "I went bowling with the gang after work on Friday.",
        ),
        (
            "The owner went bowling with coworkers after work.",
            "Went bowling with my workmates after work on Friday, so fun.",
        ),
    ],
)
async def test_a_group_of_people_in_other_words_is_asked_not_dropped(fact: str, said: str) -> None:
    """A group ("friends", "coworkers", "team") is a soft word: unsaid, it is scored (asked
    about, or lifted by the meaning check), where it was a hard part and dropped the fact."""
    verdict = await check(fact, said)
    assert verdict.status == "partial"
    assert verdict.soft is not None  # the meaning check may weigh it


async def test_a_kin_word_nobody_said_is_still_dropped() -> None:
    said = "I went bowling with the gang after work on Friday."
    verdict = await check("The owner went bowling with their sister after work.", said)
    assert verdict.status == "unsupported" and "sister" in verdict.reason


PLAN = (
    "I'm thinking of inviting Tobias, 52, and Rita to the barbecue, but I'm not sure they'd "
    "get along."
)


async def test_an_age_set_off_after_a_name_in_a_plan_is_said() -> None:
    """The plan is only a plan, but Tobias's age, set off after his name, is so."""
    assert (await check("Tobias is 52.", PLAN)).status == "supported"
    assert (await check("Tobias is 25.", PLAN)).status == "unsupported"
    assert (await check("The owner invited Tobias to the barbecue.", PLAN)).status != "supported"


async def test_his_after_a_named_person_is_that_persons() -> None:
    """ "sent the draft to Marco ... waiting for his notes": the notes are Marco's in the fact
    as in the message, not the owner's."""
    said = "I sent my draft to Marco on May 3 and I'm waiting on his notes."
    fact = "The owner sent the draft to Marco on 3 May and is waiting for his notes."
    assert (await check(fact, said)).status == "supported"
    mine = "The owner sent the draft to Marco on 3 May and is waiting for the owner's notes."
    assert (await check(mine, said)).status != "supported"


async def test_a_titles_word_is_no_plan() -> None:
    """ "the "Estate Tax Planning" workshop": a capitalised word of a title among other
    capitalised words is a name, not a plan; a message typed in capitals still hedges."""
    said = (
        "I'm worried about the deadline, especially since I just attended that "
        '"Home Budget Planning" workshop on November 2.'
    )
    fact = "The owner attended a budgeting workshop on 2 November."
    assert (await check(fact, said, None)).status == "supported"
    shouted = "I MIGHT MOVE TO BERLIN NEXT YEAR"
    assert (await check("The owner is moving to Berlin.", shouted, None)).status != "supported"
