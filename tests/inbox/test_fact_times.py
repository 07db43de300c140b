"""Facts with time (issue 22 item 3), on both stores: since when a fact holds and until when,
set by curation from the messages' own times and by the owner, closed by REPLACE, UPDATE,
DEACTIVATE and expiry, put back exactly by undo; what held on a day, and what Kit had
recorded by then, from the API, `search` and `search_memory`."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.curator.ops import Deactivate, Insert, Replace, Update
from kit.errors import InputError
from kit.memory.messages import Message
from tests.support.curation import add_facts, all_facts, say

pytestmark = pytest.mark.stores

USER = "owner"
MAR = datetime(2026, 3, 1, tzinfo=UTC)


def on(day: int, hour: int = 12) -> datetime:
    return MAR.replace(day=day, hour=hour)


async def _said(kit: Kit, *when: tuple[int, str]) -> list[Message]:
    return [(await say(kit, text, at=on(day)))[0] for day, text in when]


async def _apply(kit: Kit, *ops: object, batch: list[Message], kind: str = "curate") -> object:
    return await kit.services.curator.apply_ops(
        USER, "projects", list(ops), kind=kind,  # type: ignore[arg-type]
        source_message_ids=[m.id for m in batch],
    )  # fmt: skip


async def test_curation_takes_the_time_a_fact_was_said_not_when_the_pass_ran(
    kit: Kit, clock: FakeClock
) -> None:
    first, second = await _said(kit, (3, "I started the shed"), (5, "the shed is green"))
    clock.set(on(20))  # the batch is curated weeks later
    outcome = await _apply(
        kit, Insert("The owner builds a green shed", 0.8, sources=(second.id, first.id)),
        batch=[first, second],
    )  # fmt: skip
    (fact_id,) = outcome.inserted_fact_ids  # type: ignore[attr-defined]
    fact = await kit.services.facts.get(USER, fact_id)
    assert fact.valid_from == first.at and fact.created_at == on(20) and fact.valid_until is None
    assert [f.id for f in await kit.facts(as_of=date(2026, 3, 4))] == [fact_id]
    assert await kit.facts(as_of=date(2026, 3, 2)) == []
    # What Kit had recorded by the 10th: nothing yet (it was written down on the 20th).
    assert await kit.facts(as_of=date(2026, 3, 10), recorded=True) == []


async def test_an_update_of_what_a_fact_says_closes_the_old_version_at_the_message(
    kit: Kit, clock: FakeClock
) -> None:
    (said,) = await _said(kit, (10, "the shed is blue now"))
    clock.set(on(2))
    (fact,) = await add_facts(kit, "projects", ["The shed is green"])
    clock.set(on(11))
    await _apply(kit, Update(fact.id, content="The shed is blue", sources=(said.id,)),
                 batch=[said])  # fmt: skip
    now = await kit.services.facts.get(USER, fact.id)
    assert (now.content, now.valid_from, now.valid_until) == ("The shed is blue", said.at, None)
    (then,) = [f for f in await kit.facts(as_of=date(2026, 3, 5)) if f.content.startswith("The")]
    assert (then.content, then.active, then.replaced_by) == ("The shed is green", False, fact.id)
    assert (then.valid_from, then.valid_until) == (on(2), said.at)
    assert [f.content for f in await kit.facts(as_of=date(2026, 3, 10))] == ["The shed is blue"]
    # recorded: on the 10th (before the pass on the 11th) Kit still had the green one
    assert [f.content for f in await kit.facts(as_of=date(2026, 3, 10), recorded=True)] == [
        "The shed is green"
    ]


async def test_a_change_of_confidence_alone_keeps_the_interval(kit: Kit) -> None:
    (fact,) = await add_facts(kit, "projects", ["The shed is green"])
    await _apply(kit, Update(fact.id, confidence=0.5), batch=[])
    after = await kit.services.facts.get(USER, fact.id)
    assert after.valid_from == fact.valid_from and len(await kit.facts(include_inactive=True)) == 1


async def test_replace_ends_what_it_merges_where_the_new_fact_begins(
    kit: Kit, clock: FakeClock
) -> None:
    clock.set(on(1))
    a, b, *_ = await add_facts(kit, "projects", ["Shed: wood", "Shed: green", "c", "d", "e"])
    clock.set(on(4))
    (said,) = await _said(kit, (3, "the shed is done"))
    outcome = await _apply(
        kit, Replace((a.id, b.id), "Shed: green wood, done", 0.8, sources=(said.id,)),
        batch=[said],
    )  # fmt: skip
    (merged_id,) = outcome.inserted_fact_ids  # type: ignore[attr-defined]
    merged = await kit.services.facts.get(USER, merged_id)
    assert merged.valid_from == said.at
    for old in (a.id, b.id):
        assert (await kit.services.facts.get(USER, old)).valid_until == said.at
    # a merge that cites nothing only joins what was known: it holds since they did
    clock.set(on(6))
    c, d = (await kit.facts())[1:3]
    joined = await _apply(kit, Replace((c.id, d.id), "c d", 0.8), batch=[])
    (joined_id,) = joined.inserted_fact_ids  # type: ignore[attr-defined]
    assert (await kit.services.facts.get(USER, joined_id)).valid_from == on(1)
    for old in (c.id, d.id):
        gone = await kit.services.facts.get(USER, old)
        assert gone.valid_until == gone.valid_from  # no stretch where both held
    assert [f.id for f in await kit.facts(as_of=date(2026, 3, 2))].count(joined_id) == 1


async def test_deactivate_and_expiry_end_a_fact_when_it_stopped_holding(
    kit: Kit, clock: FakeClock
) -> None:
    clock.set(on(1))
    a, b, *_ = await add_facts(kit, "projects", ["Shed", "Trip to Rome", "c", "d", "e", "f"])
    (said,) = await _said(kit, (7, "I gave up the shed"))
    clock.set(on(9))
    await _apply(kit, Deactivate(a.id, "gave up", sources=(said.id,)), batch=[said])
    assert (await kit.services.facts.get(USER, a.id)).valid_until == said.at
    await _apply(kit, Update(b.id, expires_at=on(12)), batch=[])
    clock.set(on(15))
    await kit.services.rem.expiry.retire(USER, [await kit.services.facts.get(USER, b.id)])
    assert (await kit.services.facts.get(USER, b.id)).valid_until == on(12)  # not the 15th
    # REM's review reads no messages: its retirement ends a fact when it ran
    c = (await kit.facts())[0]
    await _apply(kit, Deactivate(c.id, "stale"), batch=[], kind="rem_review")
    assert (await kit.services.facts.get(USER, c.id)).valid_until == on(15)


async def test_undo_puts_the_intervals_back_exactly(kit: Kit, clock: FakeClock) -> None:
    clock.set(on(1))
    facts = await add_facts(kit, "projects", ["Shed: wood", "Shed: green", "Go", "x", "y", "z"])
    before = await all_facts(kit)
    (said,) = await _said(kit, (4, "shed done, Go dropped"))
    clock.set(on(5))
    outcome = await _apply(
        kit,
        Replace((facts[0].id, facts[1].id), "Shed: green wood", 0.8, sources=(said.id,)),
        Update(facts[3].id, content="x, y", sources=(said.id,)),
        Deactivate(facts[2].id, "dropped", sources=(said.id,)),
        Insert("Kit", 0.8, sources=(said.id,)),
        batch=[said],
    )
    clock.set(on(6))
    await kit.undo_pass(outcome.pass_id)  # type: ignore[attr-defined]
    after = await all_facts(kit)
    assert {i: after[i] for i in before} == before  # valid_from / valid_until included
    for i in set(after) - set(before):  # what the pass wrote: it never held
        assert not after[i]["active"] and after[i]["valid_until"] == after[i]["valid_from"]
    assert sorted(f.id for f in await kit.facts(as_of=date(2026, 3, 5))) == sorted(before)


async def test_the_owner_says_since_and_until(kit: Kit, clock: FakeClock) -> None:
    clock.set(on(20, 9))
    lived = await kit.add_fact(
        "Lived in Lisbon", category="person", since=date(2020, 1, 1), until=date(2026, 2, 28)
    )
    assert not lived.fact.active
    assert (lived.fact.valid_from, lived.fact.valid_until) == (
        datetime(2020, 1, 1, tzinfo=UTC),
        datetime(2026, 3, 1, tzinfo=UTC),  # through the 28th
    )
    now = await kit.add_fact("Lives in Porto", category="person", since=date(2026, 3, 1))
    assert [f.content for f in await kit.facts(as_of=date(2025, 6, 1))] == ["Lived in Lisbon"]
    assert [f.content for f in await kit.facts(as_of=date(2026, 3, 2))] == ["Lives in Porto"]
    # new text with --since: the world changed then, the old text held until that day
    edited = await kit.edit_fact(now.fact.id, "Lives in Braga", since=date(2026, 3, 10))
    assert edited.fact.valid_from == datetime(2026, 3, 10, tzinfo=UTC)
    assert [f.content for f in await kit.facts(as_of=date(2026, 3, 5))] == ["Lives in Porto"]
    # new text alone corrects in place: the interval stays
    fixed = await kit.edit_fact(now.fact.id, "Lives in Braga, Portugal")
    assert fixed.fact.valid_from == edited.fact.valid_from
    ended = await kit.edit_fact(now.fact.id, until=date(2026, 3, 19))
    assert not ended.fact.active and ended.fact.valid_until == datetime(2026, 3, 20, tzinfo=UTC)
    for change in (lived, now, edited, fixed, ended):  # every one an undoable owner pass
        assert (await kit.services.curator.passes.get(USER, change.pass_id)).kind == "owner"


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda k: k.add_fact("x", since=date(2026, 3, 21)), "--since 2026-03-21 is in the fut"),
        (lambda k: k.add_fact("x", until=date(2026, 3, 21)), "--until 2026-03-21 is in the fut"),
        (
            lambda k: k.add_fact("x", since=date(2026, 3, 2), until=date(2026, 3, 1)),
            "--until must come after --since",
        ),
        (lambda k: k.add_fact("x", until=date(2026, 3, 1), pinned=True), "cannot also expire"),
        (lambda k: k.edit_fact(1, "y", until=date(2026, 3, 1)), "--until retires the fact"),
        (lambda k: k.edit_fact(1, since=date(2026, 3, 21)), "is in the future"),
    ],
    ids=["since-ahead", "until-ahead", "until-first", "until-pinned", "until-text", "edit-ahead"],
)
async def test_bad_since_and_until_are_one_line_and_change_nothing(
    kit: Kit, clock: FakeClock, call: object, message: str
) -> None:
    clock.set(on(20, 9))
    await kit.add_fact("Lives in Porto", since=date(2026, 3, 1))
    before, passes = await all_facts(kit), len(await kit.passes())
    with pytest.raises(InputError, match=message):
        await call(kit)  # type: ignore[operator]
    assert await all_facts(kit) == before and len(await kit.passes()) == passes


async def test_search_as_of_a_day_finds_what_held_then(kit: Kit, clock: FakeClock) -> None:
    (said,) = await _said(kit, (10, "the shed is blue now"))
    clock.set(on(2))
    (fact,) = await add_facts(kit, "projects", ["The shed is green"], subject="shed")
    clock.set(on(11))
    await _apply(kit, Update(fact.id, content="The shed is blue", sources=(said.id,)),
                 batch=[said])  # fmt: skip
    now = [h.text for h in await kit.search("shed colour", kinds=("fact",))]
    then = [
        h.text for h in await kit.search("shed colour", kinds=("fact",), as_of=date(2026, 3, 5))
    ]
    assert now == ["The shed is blue"] and then == ["The shed is green"]
    # and the chat model's tool: the facts that held that day, marked as of the past
    tools = kit.services.tools
    result = await tools.run(
        "search_memory", {"query": "shed", "as_of": "2026-03-05"},
        user_id=USER, now=clock.now(), message_id=said.id,
    )  # fmt: skip
    assert "The shed is green" in result.content and "held until 2026-03-10" in result.content
    assert "The shed is blue" not in result.content
    bad = await tools.run(
        "search_memory", {"query": "shed", "as_of": "last spring"},
        user_id=USER, now=clock.now(), message_id=said.id,
    )  # fmt: skip
    assert bad.is_error and "is not a date" in bad.content
    ahead = await tools.run(
        "search_memory", {"query": "shed", "as_of": "2026-04-01"},
        user_id=USER, now=clock.now(), message_id=said.id,
    )  # fmt: skip
    assert ahead.is_error and "in the future" in ahead.content


async def test_as_of_needs_a_date_or_an_aware_time(kit: Kit) -> None:
    with pytest.raises(InputError, match="needs a time with a zone"):
        await kit.facts(as_of=datetime(2026, 3, 1))
    with pytest.raises(InputError, match="`recorded` needs a moment"):
        await kit.facts(recorded=True)


async def test_a_message_stamped_ahead_holds_from_now(kit: Kit, clock: FakeClock) -> None:
    """A message stamped ahead of the clock (an import from another zone) is taken as now:
    no fact holds from the future."""
    (ahead,) = await say(kit, "the shed is green", at=clock.now() + timedelta(days=3))
    outcome = await _apply(kit, Insert("The shed is green", 0.8, sources=(ahead.id,)),
                           batch=[ahead])  # fmt: skip
    (fact_id,) = outcome.inserted_fact_ids  # type: ignore[attr-defined]
    assert (await kit.services.facts.get(USER, fact_id)).valid_from == clock.now()
