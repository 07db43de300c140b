"""The grounding guard's round nine (issue 29). Run 7: a model's fact that copies the owner's
whole message goes on from what is so into a doubt or a request; the doubt and the request
are cut (kit/curator/doubt.py) and the statement is stored, the cut named in the pass record.
And the dev sets' dates: a clock time ("10:30 PM") and a range of days ("September 14-15")."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from kit.api import Kit
from kit.curator.doubt import without_doubt
from kit.curator.grounding import Grounding
from kit.curator.ops import Insert
from kit.memory.messages import Message
from tests.support.curation import say

USER = "owner"
SAID = (
    "I'm kinda worried about my budget, I met Heather at the Montserrat Film Festival back in "
    "February 2023 and she gave me some advice on budgeting basics, but I'm not sure if I'm "
    "doing it right"
)
COPIED = (  # run 7's fact, as Kit's first-person rewrite now writes it (no "mets")
    "The owner is kinda worried about the owner's budget, the owner met Heather at the "
    "Montserrat Film Festival back in February 2023 and she gave the owner some advice on "
    "budgeting basics, but the owner is not sure if the owner is doing it right."
)


async def test_the_doubt_in_a_copied_message_is_cut_and_the_statement_stored(kit: Kit) -> None:
    (message,) = await say(kit, SAID)
    outcome = await kit.services.curator.apply_ops(
        USER, "preferences", [Insert(COPIED, 0.9, sources=(message.id,))],
        kind="curate", source_message_ids=[message.id], ground=True,
    )  # fmt: skip
    assert outcome.status == "applied" and not outcome.dropped and not outcome.asked
    (fact_id,) = outcome.inserted_fact_ids
    stored = (await kit.services.facts.get(USER, fact_id)).content
    assert stored == (
        "The owner is kinda worried about the owner's budget, the owner met Heather at the "
        "Montserrat Film Festival back in February 2023 and she gave the owner some advice on "
        "budgeting basics."
    )
    assert outcome.pass_id is not None
    record = await kit.services.curator.passes.get(USER, outcome.pass_id)
    (trimmed,) = record.detail["trimmed"]
    assert trimmed.startswith("operation 1: a clause of doubt or request cut")
    assert "Heather" not in trimmed  # the record never quotes the text


async def test_a_fact_that_is_all_doubt_is_left_to_the_guard(kit: Kit) -> None:
    (message,) = await say(kit, "I'm not sure if I should move to Lisbon, what do you think?")
    outcome = await kit.services.curator.apply_ops(
        USER, "person",
        [Insert("The owner is moving to Lisbon.", 0.9, sources=(message.id,))],
        kind="curate", source_message_ids=[message.id], ground=True,
    )  # fmt: skip
    assert not outcome.inserted_fact_ids


@pytest.mark.parametrize(
    ("fact", "kept"),
    [
        (COPIED, COPIED.split(", but")[0] + "."),
        (  # the request that ends a BEAM message, its "?" gone with it
            "The owner is 42 and earning $65,000 annually, can you help the owner make a budget?",
            "The owner is 42 and earning $65,000 annually.",
        ),
        (
            "The owner has a deadline of June 15, how can the owner meet it? The owner likes tea.",
            "The owner has a deadline of June 15. The owner likes tea.",
        ),
        ("Maria runs a shelter, and she is not sure whether to grow it.", "Maria runs a shelter."),
        ("The owner bought sneakers and wonders if they fit.", "The owner bought sneakers."),
        # all doubt, or a doubt about someone no name or pronoun says: left whole
        ("The owner is wondering whether AI could reduce stress.", None),
        ("The owner is torn between Grammarly at $150 and ProWritingAid at $120.", None),
        ("The owner's mum is not sure about the trip.", None),
        ("The owner lives in Leeds.", None),
    ],
)
def test_what_is_cut(fact: str, kept: str | None) -> None:
    assert without_doubt(fact) == kept


def status(fact: str, said: str, day: date = date(2024, 9, 1)) -> str:
    at = datetime(day.year, day.month, day.day, 10, tzinfo=UTC)
    message = Message(1, "o", 1, "user", "", said, at, day, None, "chat")
    return Grounding([message], [1], "").check(Insert(fact, 0.9, "", sources=(1,)), {}).status


@pytest.mark.parametrize(
    ("fact", "said"),
    [  # a clock time was cut into two clauses at its colon: '10:30' was never found
        ("The owner goes to bed at 10:30 PM.", "I usually go to bed at 10:30 PM to sleep enough."),
        ("The owner goes to bed at 10:30.", "I usually go to bed at 10:30 PM to sleep enough."),
        # a range of days was one day and a number
        ("The owner's retreat is on 14-15 September.", "My retreat is on September 14-15."),
        ("The owner's retreat is on September 14-15.", "My retreat is on 14-15 September."),
        ("The owner's retreat is on 15 September.", "My retreat is on September 14-15."),
    ],
)
def test_times_and_ranges_of_days_are_found(fact: str, said: str) -> None:
    assert status(fact, said) == "supported"


@pytest.mark.parametrize(
    "fact",
    [
        "The owner's retreat is on 14-16 September.",  # a day the message does not say
        "The owner's retreat is on 15-16 September.",
        "The owner's retreat is on 14-15 October.",
        "The owner goes to bed at 11:30 PM.",
    ],
)
def test_a_range_or_a_time_not_said_is_not_found(fact: str) -> None:
    said = "My retreat is on September 14-15, and I go to bed at 10:30 PM."
    assert status(fact, said) != "supported"


@pytest.mark.parametrize(
    ("fact", "said"),
    [  # what the owner said of someone or something else, in a fact that names them too
        ("The owner finds the owner's team encouraging.", "My team has been super encouraging."),
        (
            "The owner is considering New Balance for their next sneakers, since the Ortholite "
            "insole improved foot comfort by 20% on hikes.",
            "I'm considering New Balance for my next sneaker purchase, especially since their "
            "ortholite insole improved foot comfort by 20% during hikes",
        ),
    ],
)
def test_a_word_said_of_someone_the_fact_names_holds(fact: str, said: str) -> None:
    assert status(fact, said) == "supported"


@pytest.mark.parametrize(
    ("fact", "said"),
    [  # ... but never the owner's own trait
        ("The owner is encouraging.", "My team has been super encouraging."),
        ("The owner is vegan.", "My brother is vegan."),
        ("The owner and the owner's brother are vegan.", "My brother is vegan."),
        ("The owner's health improved.", "Their health improved a lot after the move."),
        (
            "The owner improved foot comfort by 20%.",
            "I'm buying New Balance since their ortholite insole improved foot comfort by 20%.",
        ),
    ],
)
def test_a_word_said_of_someone_else_is_still_not_the_owners(fact: str, said: str) -> None:
    assert status(fact, said) != "supported"
