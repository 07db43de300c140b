"""The grounding guard's round eleven (issue 29): a statement said inside a worry. A worry
scopes over what may follow ("might clash"), not over what it is about ("moving the dentist to
June 3"). Messages and facts written here."""

from __future__ import annotations

from datetime import UTC, date, datetime

from kit.curator.grounding import Grounding, Verdict
from kit.curator.ops import Insert
from kit.memory.messages import Message


def message(said: str, day: date = date(2024, 5, 6)) -> Message:
    at = datetime(day.year, day.month, day.day, 10, tzinfo=UTC)
    return Message(1, "o", 1, "user", "", said, at, day, None, "chat")


async def check(fact: str, said: str) -> Verdict:
    grounding = Grounding([message(said)], [1], "", None)
    op = Insert(fact, 0.9, "", sources=(1,))
    await grounding.weigh([op], {})
    return grounding.check(op, {})


async def test_what_a_worry_is_about_is_said() -> None:
    """ "worried that moving X to June 3 at 9 AM might clash": the move is done; the guard
    held the date and hour back as "only in a question, a wish, a plan or an 'if'"."""
    said = (
        "I'm a bit worried that moving my dentist appointment to June 3 at 9 AM might clash "
        "with the team standup, can you look at my calendar?"
    )
    fact = "The owner moved their dentist appointment to 3 June at 9 AM."
    assert (await check(fact, said)).status == "supported"


async def test_what_a_worry_fears_stays_a_maybe() -> None:
    """What the "might" says is still only feared: no fact."""
    said = (
        "I'm a bit worried that moving my dentist appointment to June 3 might clash with the "
        "quarterly budget review, can you look at my calendar?"
    )
    fact = "The owner's dentist appointment clashes with the quarterly budget review."
    assert (await check(fact, said)).status != "supported"


async def test_a_thing_the_speaker_got_is_said_inside_a_request() -> None:
    """ "help me spend the $1,500 grant I won on March 2": the grant was won; the request is
    only for help. The guard held the amount back as only asked about."""
    said = (
        "Can you help me figure out how to spend the $1,500 travel grant I won on March 2 from "
        "the Oslo Film Society?"
    )
    fact = "On 2 March the owner won a $1,500 travel grant from the Oslo Film Society."
    assert (await check(fact, said)).status == "supported"


async def test_a_thing_only_asked_about_stays_asked() -> None:
    """Without "I won ...", the amount is only in the request: no fact."""
    said = "Can you help me figure out how to spend a $1,500 travel grant if the Oslo Film Society gives me one?"
    fact = "The owner won a $1,500 travel grant from the Oslo Film Society."
    assert (await check(fact, said)).status != "supported"

