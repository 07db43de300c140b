"""The owner's own changes to facts (kit/curator/owner.py) through the Python API: each one
undoable pass with its history row, every entrance's input checked, and the owner's word never
changed by the curator."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, date, datetime

import pytest

from kit.api import Kit
from kit.config import CATEGORIES
from kit.curator.ops import Deactivate, Operation, Replace, Update
from kit.errors import InputError, NotFound
from kit.llm.fake import FakeLLM
from kit.memory.fact_rows import MAX_CONTENT_CHARS
from tests.support.curation import add_facts, all_facts, by_category, say, tool_reply

pytestmark = pytest.mark.stores

USER = "owner"


async def test_add_is_one_owner_pass_with_one_history_row(kit: Kit) -> None:
    change = await kit.add_fact(
        "Allergic to penicillin", category="person", subject="health", expires=date(2026, 9, 30)
    )
    fact = change.fact
    assert (change.operation, fact.content, fact.subject, fact.category) == (
        "add",
        "Allergic to penicillin",
        "health",
        "person",
    )
    assert fact.owner_written and fact.owner_held and not fact.pinned
    assert fact.confidence == 1.0
    assert fact.expires_at == datetime(2026, 10, 1, tzinfo=UTC)  # holds through 30 September
    (entry,) = await kit.fact_history(fact.id)
    assert (entry.actor, entry.operation, entry.pass_id) == ("owner", "insert", change.pass_id)
    (record,) = await kit.passes()
    assert (record.id, record.kind, record.status, record.category) == (
        change.pass_id,
        "owner",
        "applied",
        "person",
    )
    assert record.reason == f"add #{fact.id}"
    assert "penicillin" not in str(record.detail)  # the text lives in history, not here


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda k: k.add_fact("  "), "the fact is empty"),
        (lambda k: k.add_fact("x" * (MAX_CONTENT_CHARS + 1)), "2,001 characters, more than"),
        (lambda k: k.add_fact("Tea", subject="s" * 201), "the subject has 201 characters"),
        (lambda k: k.add_fact("Tea", category="pets"), "use one of: " + ", ".join(CATEGORIES)),
        (lambda k: k.add_fact("Tea", expires=date(2026, 3, 1)), "2026-03-01 is already past"),
        (lambda k: k.add_fact("Tea", expires=date(2040, 1, 1)), "more than 10 years ahead"),
        (lambda k: k.add_fact("Tea", expires=date.max), "9999-12-31 is more than 10 years"),
    ],
    ids=["empty", "too-long", "long-subject", "category", "past", "far", "date-max"],
)
async def test_add_refuses_bad_input_and_stores_nothing(
    kit: Kit, call: Callable[[Kit], object], message: str
) -> None:
    with pytest.raises(InputError, match=message):
        await call(kit)  # type: ignore[misc]
    assert await kit.facts(include_inactive=True) == [] and await kit.passes() == []


@pytest.mark.parametrize(
    "call",
    [
        lambda k: k.add_fact("My password is hunter2-Kestrel!"),
        lambda k: k.add_fact("Bank login", subject="password: hunter2-Kestrel!"),
    ],
    ids=["content", "subject"],
)
async def test_secrets_are_refused_without_echoing_them(
    kit: Kit, call: Callable[[Kit], object]
) -> None:
    with pytest.raises(InputError) as refused:
        await call(kit)  # type: ignore[misc]
    assert "never keeps secrets" in str(refused.value)
    assert "hunter2" not in str(refused.value)
    assert await kit.facts(include_inactive=True) == []


async def test_adding_today_as_the_last_day_is_allowed(kit: Kit) -> None:
    today = kit.services.clock.now().astimezone(kit.services.tz).date()
    change = await kit.add_fact("In Porto today", expires=today)
    assert change.fact.is_live(kit.services.clock.now())


async def test_edit_rewrites_and_makes_a_curator_fact_the_owners(kit: Kit) -> None:
    (fact,) = await add_facts(kit, "people", ["Ana lives in Lisbon"], subject="Ana")
    change = await kit.edit_fact(fact.id, "Ana lives in Porto")
    assert (change.fact.content, change.fact.subject) == ("Ana lives in Porto", "Ana")
    assert change.fact.owner_written and change.fact.confidence == 1.0
    entry = (await kit.fact_history(fact.id))[-1]
    assert (entry.actor, entry.operation, entry.pass_id) == ("owner", "edit", change.pass_id)
    assert entry.before is not None and entry.before["content"] == "Ana lives in Lisbon"

    cleared = await kit.edit_fact(fact.id, subject="")  # an empty subject clears it
    assert cleared.fact.subject == "" and cleared.fact.content == "Ana lives in Porto"


async def test_edit_refuses_no_change_a_retired_fact_and_anothers_fact(kit: Kit) -> None:
    (fact,) = await add_facts(kit, "people", ["Ana lives in Lisbon"])
    (theirs,) = await add_facts(kit, "people", ["Bob's own fact"], user="bob")
    with pytest.raises(InputError, match="already says that"):
        await kit.edit_fact(fact.id, " Ana lives in Lisbon ")
    with pytest.raises(InputError, match="not both"):
        await kit.edit_fact(fact.id, expires=date(2026, 5, 1), clear_expiry=True)
    with pytest.raises(NotFound):
        await kit.edit_fact(theirs.id, "Mine now")
    with pytest.raises(InputError, match="a fact id is a positive whole number"):
        await kit.edit_fact(0, "Zero")
    await kit.forget_fact(fact.id, reason="moved")
    with pytest.raises(InputError, match=f"fact #{fact.id} is retired"):
        await kit.edit_fact(fact.id, "Ana lives in Porto")
    assert len(await kit.passes()) == 1  # only the retirement


async def test_pin_and_unpin_leave_who_wrote_it_as_it_was(kit: Kit) -> None:
    (fact,) = await add_facts(kit, "projects", ["Kit"])
    pinned = await kit.pin_fact(fact.id)
    assert pinned.fact.pinned and pinned.fact.owner_held and not pinned.fact.owner_written
    with pytest.raises(InputError, match="already pinned"):
        await kit.pin_fact(fact.id)
    unpinned = await kit.unpin_fact(fact.id)
    assert not unpinned.fact.owner_held  # the curator's again
    with pytest.raises(InputError, match="not pinned"):
        await kit.unpin_fact(fact.id)
    ops = [(h.operation, h.reason) for h in await kit.fact_history(fact.id)]
    assert ops[1:] == [("pin", "pinned by the owner"), ("unpin", "unpinned by the owner")]


async def test_retire_needs_a_clean_reason_and_an_active_fact(kit: Kit) -> None:
    (fact,) = await add_facts(kit, "projects", ["Kit"])
    with pytest.raises(InputError, match="say why"):
        await kit.forget_fact(fact.id, reason="  ")
    with pytest.raises(InputError, match="the reason contains what looks like"):
        await kit.forget_fact(fact.id, reason="my PIN is 4921")
    change = await kit.forget_fact(fact.id, reason="finished")
    assert not change.fact.active and change.operation == "retire"
    with pytest.raises(InputError, match="is retired"):
        await kit.forget_fact(fact.id, reason="again")


async def test_every_owner_change_undoes_exactly(kit: Kit) -> None:
    (fact,) = await add_facts(kit, "people", ["Ana lives in Lisbon"])
    before = await all_facts(kit)
    changes = [
        await kit.pin_fact(fact.id),
        await kit.edit_fact(fact.id, "Ana lives in Porto", expires=date(2026, 12, 31)),
        await kit.unpin_fact(fact.id),
        await kit.forget_fact(fact.id, reason="moved away"),
    ]
    added = await kit.add_fact("Has a cat", category="people")
    await kit.undo_pass(added.pass_id)
    assert not (await kit.services.facts.get(USER, added.fact.id)).active
    for change in reversed(changes):  # newest first, as undo requires
        await kit.undo_pass(change.pass_id)
    after = await all_facts(kit)
    assert after[fact.id] == before[fact.id]
    assert not after[fact.id]["owner_written"]  # back in the curator's hands


async def test_undo_of_an_older_owner_change_waits_for_the_newer(kit: Kit) -> None:
    (fact,) = await add_facts(kit, "people", ["Ana lives in Lisbon"])
    first = await kit.edit_fact(fact.id, "Ana lives in Porto")
    second = await kit.edit_fact(fact.id, "Ana lives in Braga")
    with pytest.raises(InputError, match=f"undo pass {second.pass_id} first"):
        await kit.undo_pass(first.pass_id)


@pytest.mark.parametrize(
    "make_op",
    [
        lambda i: Deactivate(i, "stale"),
        lambda i: Update(i, content="Ana lives in Lisbon again"),
        lambda i: Update(i, confidence=0.7),
        lambda i: Replace((i,), "Ana lives in Lisbon", 0.9),
    ],
    ids=["deactivate", "rewrite", "confidence", "merge"],
)
async def test_the_curator_does_not_change_an_owner_written_fact_it_asks(
    kit: Kit, make_op: Callable[[int], Operation]
) -> None:
    """The owner's word is changed only by the owner: the curator's change waits in the
    inbox (issue 22; it used to reject the pass whole), the rest of the pass applies."""
    (fact, other) = await add_facts(kit, "people", ["Ana lives in Lisbon", "Tom is a plumber"])
    await kit.edit_fact(fact.id, "Ana lives in Porto")
    before = await all_facts(kit)
    outcome = await kit.services.curator.apply_ops(
        USER, "people", [Update(other.id, confidence=0.7), make_op(fact.id)],
        kind="curate", source_message_ids=[],
    )  # fmt: skip
    assert outcome.status == "applied" and outcome.pass_id is not None
    (asked,) = outcome.asked
    assert f"fact #{fact.id} was written by the owner" in asked
    after = await all_facts(kit)
    assert after[fact.id] == before[fact.id]
    assert after[other.id]["confidence"] == 0.7
    (question,) = await kit.inbox()
    assert question.old[0].id == fact.id and question.pass_id == outcome.pass_id


async def test_after_undoing_the_owners_edit_the_curator_may_change_the_fact(kit: Kit) -> None:
    (fact,) = await add_facts(kit, "people", ["Ana lives in Lisbon"])
    edit = await kit.edit_fact(fact.id, "Ana lives in Porto")
    await kit.undo_pass(edit.pass_id)
    outcome = await kit.services.curator.apply_ops(
        USER, "people", [Update(fact.id, confidence=0.7)], kind="curate", source_message_ids=[]
    )
    assert outcome.status == "applied"


async def test_the_curator_is_shown_which_facts_are_the_owners(kit: Kit, fake_llm: FakeLLM) -> None:
    mine = (await kit.add_fact("Ana lives in Porto", category="people", subject="Ana")).fact
    pinned, plain = await add_facts(kit, "people", ["Tom is a plumber", "Eve is a cousin"])
    await kit.pin_fact(pinned.id)
    fake_llm.default = by_category({"people": tool_reply()})
    await say(kit, "Ana moved back to Lisbon, I think")
    await kit.curate()
    (request,) = fake_llm.requests_for("curate:people")
    rules = request.system[1].text
    assert f"#{mine.id} | Ana | Ana lives in Porto | 1.00 | written by the owner" in rules
    assert f"#{pinned.id} | - | Tom is a plumber | 0.80 | pinned by the owner" in rules
    assert f"#{plain.id} | - | Eve is a cousin | 0.80\n" in rules + "\n"
    shared = " ".join(request.system[0].text.split())
    assert '"written by the owner" or "pinned by the owner" are the owner\'s own word' in shared
