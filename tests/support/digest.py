"""A day of memory work for digest tests: the owner's messages at known times and the passes
that learned from them, on a fake clock (Monday 2 March 2026, UTC; digest.time 21:00)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from kit.api import Kit
from kit.clock import FakeClock
from kit.curator.ops import Deactivate, Insert, Replace, Update
from kit.curator.reports import PassOutcome
from kit.memory.fact_rows import Fact
from kit.memory.messages import Message
from tests.support.curation import add_facts, all_facts, say

USER = "owner"


def at(hour: int, minute: int = 0, day: int = 2) -> datetime:
    return datetime(2026, 3, day, hour, minute, tzinfo=UTC)


@dataclass
class Day:
    """What `a_day_of_curation` did."""

    messages: list[Message]
    old: list[Fact]  # facts from before the day
    curation: PassOutcome  # learned, changed, merged and retired something at 14:35
    before: dict[int, dict[str, Any]]  # every fact just before that pass (its snapshot)


async def a_day_of_curation(kit: Kit, clock: FakeClock) -> Day:
    """Facts from last week; at 14:02-14:06 the owner's messages; at 14:35 a curation pass
    that learns one fact, changes one, merges two and retires one."""
    clock.set(at(9, day=1))
    old = await add_facts(
        kit, "preferences",
        ["Drinks coffee black", "Likes cats", "Has a cat called Tom", "Lives near the river",
         "Reads on the train", "Walks to work", "Bakes bread", "Cycles on weekends"],
    )  # fmt: skip
    clock.set(at(14, 2))
    messages = await say(kit, "I switched to oat milk in my coffee", at=at(14, 2))
    messages += await say(kit, "Tom and Jerry are my two cats", at=at(14, 5))
    messages += await say(kit, "We moved away from the river", at=at(14, 6))
    clock.set(at(14, 35))
    before = await all_facts(kit)
    ids = [m.id for m in messages]
    coffee, cats, tom, river, *_ = old
    curation = await kit.services.curator.apply_ops(
        USER, "preferences",
        [Insert("Takes oat milk in coffee", 0.9, sources=(ids[0],)),
         Update(coffee.id, content="Drinks coffee with oat milk", sources=(ids[0],)),
         Replace((cats.id, tom.id), "Has two cats, Tom and Jerry", 0.9, sources=(ids[1],)),
         Deactivate(river.id, "moved away", sources=(ids[2],))],
        kind="curate", source_message_ids=ids,
    )  # fmt: skip
    assert curation.status == "applied", curation.reason
    return Day(messages, old, curation, before)


async def a_question(
    kit: Kit, clock: FakeClock, when: datetime, old: str, new: str, *, subject: str = "Ana"
) -> int:
    """At `when`, a pass asks (kit/inbox/) before rewriting a fact the owner pinned: the owner
    writes `old` (pinned), then a curation pass proposes `new`. Returns the question's id."""
    clock.set(when)
    fact = (await kit.add_fact(old, category="people", subject=subject, pinned=True)).fact
    outcome = await kit.services.curator.apply_ops(
        USER, "people", [Update(fact.id, content=new)], kind="curate", source_message_ids=[]
    )
    (question_id,) = outcome.question_ids
    return question_id
