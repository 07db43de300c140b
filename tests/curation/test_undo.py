"""Undo: a pass's facts go back exactly as they were, once, and never over a later change."""

from __future__ import annotations

from datetime import timedelta

import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.curator.ops import Deactivate, Insert, Replace, Update
from kit.errors import InputError, NotFound
from tests.support.curation import add_facts, all_facts

pytestmark = pytest.mark.stores

USER = "owner"


async def test_undo_restores_the_exact_earlier_state(kit: Kit) -> None:
    a, b, c, d, *_ = await add_facts(kit, "people", ["Ana", "Bob", "Caro", "Dan", "Eli", "Fay"])
    before = await all_facts(kit)
    curator = kit.services.curator
    applied = await curator.apply_ops(
        USER, "people",
        [Insert("Eve, the owner's cousin", 0.9, "Eve"),
         Update(a.id, content="Ana, sister, lives in Porto", confidence=0.95),
         Replace((b.id, c.id), "Bob and Caro are a couple", 0.8),
         Deactivate(d.id, "Dan moved away")],
        kind="curate", source_message_ids=[1, 2],
    )  # fmt: skip
    assert applied.status == "applied" and applied.pass_id is not None
    inserted = set(applied.inserted_fact_ids)

    result = await curator.undo(USER, applied.pass_id)

    assert result.pass_id == applied.pass_id
    assert set(result.restored_fact_ids) == {a.id, b.id, c.id, d.id}
    after = await all_facts(kit)
    # The rewrite of a kept a's earlier version as a closed fact: retracted with the rest,
    # not named (a is what was restored).
    (version,) = [i for i in after if i not in before and i not in inserted]
    assert after[version]["replaced_by"] == a.id
    assert set(result.deactivated_fact_ids) == inserted
    assert {i: after[i] for i in before} == before  # every earlier fact exactly as it was
    for i in inserted | {version}:  # out of use, and they never held: empty intervals
        assert not after[i]["active"] and after[i]["valid_until"] == after[i]["valid_from"]
    record = await curator.passes.get(USER, applied.pass_id)
    assert record.status == "undone"
    undo_record = (await curator.passes.recent(USER))[0]
    assert undo_record.kind == "undo" and undo_record.detail["undoes"] == applied.pass_id
    entry = (await kit.fact_history(a.id))[-1]
    assert entry.operation == "undo" and entry.pass_id == undo_record.id
    assert entry.after == before[a.id]


async def test_undoing_twice_is_an_error_naming_the_undo(kit: Kit) -> None:
    curator = kit.services.curator
    applied = await curator.apply_ops(
        USER, "projects", [Insert("Garden shed", 0.8)], kind="curate", source_message_ids=[]
    )
    assert applied.pass_id is not None
    await curator.undo(USER, applied.pass_id)
    undo_id = (await curator.passes.recent(USER))[0].id
    with pytest.raises(InputError, match=f"already undone \\(by pass {undo_id}\\)"):
        await curator.undo(USER, applied.pass_id)
    with pytest.raises(InputError, match="an undo cannot be undone"):
        await curator.undo(USER, undo_id)


async def test_undo_refuses_when_a_later_pass_changed_the_same_fact(kit: Kit) -> None:
    (fact,) = await add_facts(kit, "projects", ["Kit"])
    curator = kit.services.curator
    first = await curator.apply_ops(
        USER, "projects", [Update(fact.id, content="Kit v1")], kind="curate", source_message_ids=[]
    )
    second = await curator.apply_ops(
        USER, "projects", [Update(fact.id, content="Kit v2")], kind="curate", source_message_ids=[]
    )
    assert first.pass_id is not None and second.pass_id is not None
    before = await all_facts(kit)
    with pytest.raises(InputError) as refused:
        await curator.undo(USER, first.pass_id)
    message = str(refused.value)
    assert f"#{fact.id} by pass {second.pass_id}" in message
    assert f"undo pass {second.pass_id} first" in message
    assert await all_facts(kit) == before

    await curator.undo(USER, second.pass_id)  # newest first, then the older one is free
    await curator.undo(USER, first.pass_id)
    assert (await kit.services.facts.get(USER, fact.id)).content == "Kit"


async def test_undo_refuses_over_the_owners_later_change_naming_its_pass(kit: Kit) -> None:
    (fact,) = await add_facts(kit, "people", ["Ana"])
    before = (await all_facts(kit))[fact.id]
    applied = await kit.services.curator.apply_ops(
        USER, "people", [Update(fact.id, confidence=0.3)], kind="curate", source_message_ids=[]
    )
    assert applied.pass_id is not None
    retired = await kit.forget_fact(fact.id, reason="not relevant")
    with pytest.raises(InputError) as refused:
        await kit.services.curator.undo(USER, applied.pass_id)
    assert f"#{fact.id} by the owner (pass {retired.pass_id}, deactivate)" in str(refused.value)
    assert f"undo pass {retired.pass_id} first" in str(refused.value)

    await kit.undo_pass(retired.pass_id)  # the owner's change first, then the curator's
    await kit.undo_pass(applied.pass_id)
    assert (await all_facts(kit))[fact.id] == before


@pytest.mark.parametrize("status", ["rejected", "noop"])
async def test_a_pass_that_applied_nothing_cannot_be_undone(kit: Kit, status: str) -> None:
    facts = await add_facts(kit, "people", ["Ana", "Bob"])
    ops = [Deactivate(f.id, "x") for f in facts] if status == "rejected" else []
    outcome = await kit.services.curator.apply_ops(
        USER, "people", ops, kind="curate", source_message_ids=[]
    )
    assert outcome.status == status and outcome.pass_id is not None
    with pytest.raises(InputError, match=f"was {status}: nothing of it was applied"):
        await kit.services.curator.undo(USER, outcome.pass_id)


async def test_unknown_or_foreign_pass_is_not_found(kit: Kit) -> None:
    outcome = await kit.services.curator.apply_ops(
        "bob", "people", [Insert("Bob's friend", 0.9)], kind="curate", source_message_ids=[]
    )
    assert outcome.pass_id is not None
    with pytest.raises(NotFound, match="`kit facts passes` lists them"):
        await kit.services.curator.undo(USER, outcome.pass_id)
    with pytest.raises(NotFound):
        await kit.services.curator.undo(USER, 999)


async def test_rem_review_pass_can_be_undone_too(kit: Kit) -> None:
    fact, _ = await add_facts(kit, "technical", ["Uses Python 3.11", "Uses Neovim"])
    outcome = await kit.services.curator.apply_ops(
        USER, "technical", [Deactivate(fact.id, "stale")], kind="rem_review",
        source_message_ids=[],
    )  # fmt: skip
    assert outcome.pass_id is not None
    await kit.services.curator.undo(USER, outcome.pass_id)
    assert (await kit.services.facts.get(USER, fact.id)).active


async def test_undo_after_rems_expire_step_restores_the_exact_earlier_state(
    kit: Kit, clock: FakeClock
) -> None:
    """REM's expire step retired a fact the pass had given an expiry: undo refused for good
    ("change those facts back by hand"); now the pass and REM's retirement go back together."""
    facts = await add_facts(kit, "projects", ["Kit", "Garden shed", "Novel"])
    before = await all_facts(kit)
    applied = await kit.services.curator.apply_ops(
        USER, "projects", [Update(facts[1].id, expires_at=clock.now() + timedelta(days=1))],
        kind="curate", source_message_ids=[],
    )  # fmt: skip
    assert applied.pass_id is not None
    clock.advance(timedelta(days=2))
    report = await kit.services.rem.run(USER)
    assert report.expired_fact_ids == (facts[1].id,)

    result = await kit.services.curator.undo(USER, applied.pass_id)

    assert await all_facts(kit) == before
    assert result.restored_fact_ids == result.rem_changes_rolled_back == (facts[1].id,)


async def test_undo_after_a_rem_review_rolls_it_back_on_that_fact_and_the_review_stays_undoable(
    kit: Kit,
) -> None:
    a, b, *_ = await add_facts(kit, "people", ["Ana is a nurse", "Bob plays chess", "Cy", "Di"])
    before = await all_facts(kit)
    curator = kit.services.curator
    rewrite = await curator.apply_ops(
        USER, "people", [Update(a.id, content="Ana is a doctor")],
        kind="curate", source_message_ids=[],
    )  # fmt: skip
    review = await curator.apply_ops(
        USER, "people", [Update(a.id, confidence=0.5), Update(b.id, confidence=0.4)],
        kind="rem_review", source_message_ids=[],
    )  # fmt: skip
    assert rewrite.pass_id is not None and review.pass_id is not None

    first = await curator.undo(USER, rewrite.pass_id)
    assert first.rem_changes_rolled_back == (a.id,)
    after = await all_facts(kit)
    assert after[a.id] == before[a.id]  # the content and REM's later confidence cut, both back
    assert after[b.id]["confidence"] == 0.4  # the review's other change is untouched

    second = await curator.undo(USER, review.pass_id)
    assert second.restored_fact_ids == (b.id,) and second.already_reverted == (a.id,)
    after = await all_facts(kit)
    assert {i: after[i] for i in before} == before
    # what the rewrite kept of a's earlier text is out of use, its interval empty
    (version,) = (after[i] for i in after if i not in before)
    assert not version["active"] and version["valid_until"] == version["valid_from"]


async def test_undo_still_refuses_over_a_later_curation_pass_after_rem_acted(kit: Kit) -> None:
    (fact,) = await add_facts(kit, "projects", ["Kit"])
    curator = kit.services.curator
    first = await curator.apply_ops(
        USER, "projects", [Update(fact.id, content="Kit v1")], kind="curate", source_message_ids=[]
    )
    await curator.apply_ops(
        USER, "projects", [Update(fact.id, confidence=0.5)], kind="rem_review",
        source_message_ids=[],
    )  # fmt: skip
    second = await curator.apply_ops(
        USER, "projects", [Update(fact.id, content="Kit v2")], kind="curate", source_message_ids=[]
    )
    assert first.pass_id is not None
    with pytest.raises(InputError, match=f"undo pass {second.pass_id} first"):
        await curator.undo(USER, first.pass_id)
