"""apply_ops: each operation with its history, the guard, rejections, dry runs, and a crash in
the middle of a pass leaving the database exactly as before."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest

from kit.api import Kit
from kit.curator.ops import Deactivate, Insert, Operation, Replace, Update
from kit.errors import InputError
from kit.llm.fake import FakeLLM
from kit.memory.fact_writer import Provenance
from tests.support.crash import crash_on_insert
from tests.support.curation import add_facts, all_facts, by_category, say, table_counts, tool_reply

pytestmark = pytest.mark.stores

USER = "owner"


async def test_insert_writes_fact_and_history_with_pass_and_sources(kit: Kit) -> None:
    """History names the messages the operation cited, not the whole batch."""
    curator = kit.services.curator
    outcome = await curator.apply_ops(
        USER, "people", [Insert("Ana is the owner's sister", 0.9, "Ana", sources=(7,))],
        kind="curate", source_message_ids=[7, 8],
    )  # fmt: skip
    assert outcome.status == "applied" and outcome.pass_id is not None
    (fact_id,) = outcome.inserted_fact_ids
    fact = await kit.services.facts.get(USER, fact_id)
    assert (fact.category, fact.subject, fact.confidence) == ("people", "Ana", 0.9)
    (entry,) = await kit.fact_history(fact_id)
    assert entry.operation == "insert" and entry.actor == "curator"
    assert entry.pass_id == outcome.pass_id
    assert entry.before is None and entry.after is not None
    assert entry.after["content"] == "Ana is the owner's sister"
    assert entry.source_message_ids == (7,) and not entry.sources_are_batch
    record = await curator.passes.get(USER, outcome.pass_id)
    assert record.status == "applied" and record.kind == "curate"
    assert record.detail["operations"][0]["op"] == "INSERT"
    assert record.detail["operations"][0]["sources"] == [7]
    assert record.detail["source_message_ids"] == [7, 8]


async def test_each_operation_of_a_pass_keeps_its_own_sources(kit: Kit) -> None:
    (project,) = await add_facts(kit, "projects", ["Kit"])
    outcome = await kit.services.curator.apply_ops(
        USER, "projects",
        [Insert("Garden shed", 0.8, sources=(3,)),
         Update(project.id, content="Kit, in Python", sources=(4, 5)),
         ],
        kind="curate", source_message_ids=[3, 4, 5, 6],
    )  # fmt: skip
    (shed,) = outcome.inserted_fact_ids
    assert [e.source_message_ids for e in await kit.fact_history(shed)] == [(3,)]
    assert (await kit.fact_history(project.id))[-1].source_message_ids == (4, 5)


async def test_a_merged_fact_inherits_the_sources_of_what_it_merges(kit: Kit) -> None:
    """REPLACE: the new fact's sources are its own citations plus every source of the facts
    it merges; retiring the old ones cites nothing (they learned nothing new)."""
    curator = kit.services.curator
    await add_facts(kit, "preferences", ["Drinks tea", "Reads at night"])  # for the guard
    first = await curator.apply_ops(
        USER, "preferences", [Insert("Likes small PRs", 0.8, sources=(1,))],
        kind="curate", source_message_ids=[1],
    )  # fmt: skip
    second = await curator.apply_ops(
        USER, "preferences", [Insert("Wants tests first", 0.8, sources=(2,))],
        kind="curate", source_message_ids=[2],
    )  # fmt: skip
    (a,), (b,) = first.inserted_fact_ids, second.inserted_fact_ids
    await curator.apply_ops(
        USER, "preferences", [Update(a, content="Likes small, focused PRs", sources=(3,))],
        kind="curate", source_message_ids=[3],
    )  # fmt: skip
    merged = await curator.apply_ops(
        USER, "preferences", [Replace((a, b), "Small PRs, tests first, no nitpicks", 0.9,
                                      sources=(4,))],
        kind="curate", source_message_ids=[4, 5],
    )  # fmt: skip
    (new_id,) = merged.inserted_fact_ids
    (insert_entry,) = await kit.fact_history(new_id)
    assert insert_entry.source_message_ids == (1, 2, 3, 4)
    for old in (a, b):
        assert (await kit.fact_history(old))[-1].source_message_ids == ()


async def test_an_operation_citing_a_message_outside_the_batch_is_dropped_alone(
    kit: Kit,
) -> None:
    """A citation must be one of the batch's messages facts may come from; an operation
    citing anything else is dropped, with why, and the rest of the pass applies."""
    (project,) = await add_facts(kit, "projects", ["Kit"])
    outcome = await kit.services.curator.apply_ops(
        USER, "projects",
        [Insert("Garden shed", 0.8, sources=(3,)),
         Update(project.id, content="Kit v2", sources=(3, 99))],
        kind="curate", source_message_ids=[3, 4],
    )  # fmt: skip
    assert outcome.status == "applied" and len(outcome.inserted_fact_ids) == 1
    (dropped,) = outcome.dropped
    assert dropped.startswith("operation 2 (UPDATE) dropped: it cites message 99")
    assert (await kit.services.facts.get(USER, project.id)).content == "Kit"
    assert outcome.pass_id is not None
    record = await kit.services.curator.passes.get(USER, outcome.pass_id)
    assert record.status == "applied" and record.detail["dropped"] == [dropped]


async def test_update_changes_content_confidence_and_expiry_with_before_and_after(
    kit: Kit,
) -> None:
    (fact,) = await add_facts(kit, "projects", ["Kit: a Python assistant"])
    expiry = datetime(2026, 6, 1, tzinfo=UTC)
    outcome = await kit.services.curator.apply_ops(
        USER, "projects",
        [Update(fact.id, content="Kit: a Python assistant, launching in May", confidence=0.7,
                expires_at=expiry)],
        kind="curate", source_message_ids=[1],
    )  # fmt: skip
    assert outcome.status == "applied" and outcome.changed_fact_ids == (fact.id,)
    after = await kit.services.facts.get(USER, fact.id)
    assert after.content.endswith("launching in May")
    assert (after.confidence, after.expires_at) == (0.7, expiry)
    entry = (await kit.fact_history(fact.id))[-1]
    assert entry.operation == "update" and entry.pass_id == outcome.pass_id
    assert entry.before is not None and entry.before["content"] == "Kit: a Python assistant"
    assert entry.after is not None and entry.after["confidence"] == 0.7


async def test_replace_inserts_merged_fact_and_links_the_old_ones_to_it(kit: Kit) -> None:
    old = await add_facts(
        kit, "preferences",
        ["Likes small PRs", "Wants tests reviewed first", "Dislikes naming nitpicks"],
        subject="PR reviews",
    )  # fmt: skip
    keep = await add_facts(kit, "preferences", ["Drinks tea, not coffee"])
    merged_text = "PR reviews: small PRs, tests first, no naming nitpicks"
    outcome = await kit.services.curator.apply_ops(
        USER, "preferences",
        [Replace(tuple(f.id for f in old[:2]), merged_text, 0.9)],
        kind="curate", source_message_ids=[3],
    )  # fmt: skip
    assert outcome.status == "applied"
    (new_id,) = outcome.inserted_fact_ids
    new = await kit.services.facts.get(USER, new_id)
    assert new.content == merged_text and new.active
    assert new.subject == "PR reviews"  # inherited: every merged fact had this subject
    for f in old[:2]:
        gone = await kit.services.facts.get(USER, f.id)
        assert not gone.active and gone.replaced_by == new_id
        entry = (await kit.fact_history(f.id))[-1]
        assert entry.operation == "replace" and entry.pass_id == outcome.pass_id
        assert f"merged into #{new_id}" in entry.reason
    assert (await kit.services.facts.get(USER, old[2].id)).active
    assert (await kit.services.facts.get(USER, keep[0].id)).active
    (insert_entry,) = await kit.fact_history(new_id)
    assert insert_entry.reason.startswith(f"merges #{old[0].id}, #{old[1].id}")


async def test_deactivate_keeps_the_fact_with_its_reason(kit: Kit) -> None:
    facts = await add_facts(kit, "entities", ["Gym: FitBox on Tuesdays", "Vet: Dr. Lopes"])
    outcome = await kit.services.curator.apply_ops(
        USER, "entities", [Deactivate(facts[0].id, "the owner quit the gym")],
        kind="curate", source_message_ids=[],
    )  # fmt: skip
    assert outcome.status == "applied"
    gone = await kit.services.facts.get(USER, facts[0].id)
    assert not gone.active and gone.content == "Gym: FitBox on Tuesdays"
    entry = (await kit.fact_history(facts[0].id))[-1]
    assert (entry.operation, entry.reason) == ("deactivate", "the owner quit the gym")


async def test_guard_allows_exactly_half_of_the_category(kit: Kit) -> None:
    facts = await add_facts(kit, "technical", ["a", "b", "c", "d"])
    outcome = await kit.services.curator.apply_ops(
        USER, "technical",
        [Deactivate(facts[0].id, "old"), Replace((facts[1].id,), "b, refreshed", 0.8)],
        kind="curate", source_message_ids=[],
    )  # fmt: skip
    assert outcome.status == "applied"
    live = await kit.facts(category="technical")
    assert sorted(f.content for f in live) == ["b, refreshed", "c", "d"]


async def test_guard_rejects_just_above_half_and_applies_nothing(kit: Kit) -> None:
    facts = await add_facts(kit, "technical", ["a", "b", "c", "d"])
    before = await all_facts(kit)
    counts = await table_counts(kit)
    outcome = await kit.services.curator.apply_ops(
        USER, "technical",
        [Insert("e", 0.9), Deactivate(facts[0].id, "old"),
         Replace((facts[1].id, facts[2].id, facts[3].id), "b, c and d", 0.8)],
        kind="curate", source_message_ids=[],
    )  # fmt: skip
    assert outcome.status == "rejected"
    assert "3 of 4" in outcome.reason and "max_deactivate_fraction" in outcome.reason
    assert await all_facts(kit) == before  # not even the INSERT landed
    after = await table_counts(kit)
    assert after["fact_history"] == counts["fact_history"]
    assert after["passes"] == counts["passes"] + 1  # only the rejection record
    assert outcome.pass_id is not None
    record = await kit.services.curator.passes.get(USER, outcome.pass_id)
    assert record.status == "rejected" and record.reason == outcome.reason


@pytest.mark.parametrize(
    ("make_op", "message"),
    [
        (lambda ids: Update(9999, content="x"), "unknown fact id #9999"),
        (lambda ids: Deactivate(ids["people"], "x"), "is in 'people', not 'projects'"),
        (lambda ids: Update(ids["inactive"], content="x"), "no longer active"),
    ],
)
async def test_an_operation_on_a_fact_it_may_not_name_is_dropped_alone(
    kit: Kit, make_op: Callable[[dict[str, int]], Operation], message: str
) -> None:
    (person,) = await add_facts(kit, "people", ["Ana"])
    project, inactive = await add_facts(kit, "projects", ["Kit", "Old thing"])
    await kit.forget_fact(inactive.id, reason="done")
    ids = {"people": person.id, "inactive": inactive.id}
    outcome = await kit.services.curator.apply_ops(
        USER, "projects", [Update(project.id, confidence=0.5), make_op(ids)],
        kind="curate", source_message_ids=[],
    )  # fmt: skip
    assert outcome.status == "applied" and outcome.changed_fact_ids == (project.id,)
    (dropped,) = outcome.dropped
    assert dropped.startswith("operation 2") and message in dropped
    assert (await kit.services.facts.get(USER, person.id)).active


async def test_another_users_fact_id_is_unknown(kit: Kit) -> None:
    (theirs,) = await add_facts(kit, "people", ["Bob's friend"], user="bob")
    outcome = await kit.services.curator.apply_ops(
        USER, "people", [Deactivate(theirs.id, "x")], kind="curate", source_message_ids=[]
    )
    assert outcome.status == "noop" and f"unknown fact id #{theirs.id}" in outcome.dropped[0]
    assert (await kit.services.facts.get("bob", theirs.id)).active


async def test_secret_op_is_dropped_not_logged_and_the_rest_applies(
    kit: Kit, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    outcome = await kit.services.curator.apply_ops(
        USER, "technical",
        [Insert("Home server runs Debian 12", 0.9),
         Insert("The NAS password is correct-horse-battery", 0.9)],
        kind="curate", source_message_ids=[],
    )  # fmt: skip
    assert outcome.status == "applied" and len(outcome.inserted_fact_ids) == 1
    assert outcome.dropped == (
        "operation 2 (INSERT) dropped: it contains what looks like a password; "
        "secrets are never stored",
    )
    assert [f.content for f in await kit.facts()] == ["Home server runs Debian 12"]
    assert outcome.pass_id is not None
    record = await kit.services.curator.passes.get(USER, outcome.pass_id)
    assert record.detail["dropped"] == list(outcome.dropped)
    assert "correct-horse-battery" not in caplog.text  # not even in SQL debug logs
    assert record.detail["operations"][1] == {
        "op": "INSERT",
        "withheld": "it contains what looks like a password; secrets are never stored",
    }


async def test_self_referential_insert_is_dropped(kit: Kit) -> None:
    outcome = await kit.services.curator.apply_ops(
        USER, "technical",
        [Insert("I have a search_memory tool", 0.9), Insert("Uses Neovim", 0.9)],
        kind="curate", source_message_ids=[],
    )  # fmt: skip
    assert [f.content for f in await kit.facts()] == ["Uses Neovim"]
    assert len(outcome.dropped) == 1 and "assistant's own tools" in outcome.dropped[0]


@pytest.mark.parametrize(
    "make_op",
    [
        lambda pinned: Deactivate(pinned, "stale"),
        lambda pinned: Update(pinned, content="Mum: Rosa, retired"),
        lambda pinned: Update(pinned, confidence=0.7),
        lambda pinned: Update(pinned, expires_at=datetime(2027, 1, 1, tzinfo=UTC)),
        lambda pinned: Replace((pinned,), "Mum: Rosa", 0.9),
    ],
    ids=["deactivate", "content", "confidence", "expiry", "merge"],
)
async def test_any_operation_on_a_pinned_fact_is_asked_about_and_the_rest_applies(
    kit: Kit, make_op: Callable[[int], Operation]
) -> None:
    """Issue 22: an operation on a pinned fact used to throw the whole pass out; now it waits
    in the inbox for the owner, the pinned fact stays as it is, and the rest of the pass
    applies."""
    pinned, other = await add_facts(kit, "people", ["Mum: Rosa", "Neighbour: Tom"])
    await kit.services.facts.update(USER, pinned.id, Provenance("owner"), pinned=True)
    before = await all_facts(kit)
    outcome = await kit.services.curator.apply_ops(
        USER, "people", [Update(other.id, content="Neighbour: Tom, a plumber"), make_op(pinned.id)],
        kind="curate", source_message_ids=[],
    )  # fmt: skip
    assert outcome.status == "applied" and outcome.pass_id is not None
    (question_id,) = outcome.question_ids
    (asked,) = outcome.asked
    assert f"fact #{pinned.id} is pinned by the owner" in asked
    after = await all_facts(kit)
    assert after[pinned.id] == before[pinned.id]  # the owner's fact is untouched
    assert after[other.id]["content"] == "Neighbour: Tom, a plumber"  # the rest applied
    record = await kit.services.curator.passes.get(USER, outcome.pass_id)
    assert record.detail["asked"][0]["question"] == question_id
    (question,) = await kit.inbox()
    assert (question.id, question.pass_id, question.status) == (
        question_id,
        outcome.pass_id,
        "open",
    )


async def test_empty_pass_is_recorded_as_noop(kit: Kit) -> None:
    outcome = await kit.services.curator.apply_ops(
        USER, "workflows", [], kind="curate", source_message_ids=[1]
    )
    assert outcome.status == "noop" and outcome.pass_id is not None
    assert await kit.services.curator.passes.recent(USER) == []  # noop hidden by default
    assert len(await kit.services.curator.passes.recent(USER, include_noop=True)) == 1


async def test_dry_run_reports_the_plan_and_writes_nothing(kit: Kit) -> None:
    (fact,) = await add_facts(kit, "projects", ["Kit"])
    counts = await table_counts(kit)
    before = await all_facts(kit)
    outcome = await kit.services.curator.apply_ops(
        USER, "projects", [Update(fact.id, confidence=0.4), Insert("Garden shed", 0.8)],
        kind="rem_review", source_message_ids=[], dry_run=True,
    )  # fmt: skip
    assert outcome.status == "planned" and outcome.pass_id is None
    assert len(outcome.changes) == 2
    assert await all_facts(kit) == before and await table_counts(kit) == counts


async def test_rem_kind_is_recorded_with_the_rem_actor(kit: Kit) -> None:
    (fact,) = await add_facts(kit, "projects", ["Kit"])
    await kit.services.curator.apply_ops(
        USER, "projects", [Update(fact.id, confidence=0.4)], kind="rem_review",
        source_message_ids=[],
    )  # fmt: skip
    assert (await kit.fact_history(fact.id))[-1].actor == "rem"


async def test_unknown_category_is_an_input_error(kit: Kit) -> None:
    with pytest.raises(InputError, match="unknown category 'friends'"):
        await kit.services.curator.apply_ops(
            USER, "friends", [], kind="curate", source_message_ids=[]
        )


async def test_crash_in_the_middle_of_a_pass_leaves_the_database_as_before(kit: Kit) -> None:
    """The third history row of the pass makes the database abort: the first two changes roll
    back."""
    facts = await add_facts(kit, "people", ["Ana", "Bob", "Caro"])
    before = await all_facts(kit)
    counts = await table_counts(kit)
    await crash_on_insert(
        kit.services.db,
        "fact_history",
        "simulated crash",
        when=f"(SELECT COUNT(*) FROM fact_history) >= {counts['fact_history'] + 2}",
    )
    with pytest.raises(Exception, match="simulated crash"):
        await kit.services.curator.apply_ops(
            USER, "people",
            [Update(facts[0].id, content="Ana, sister"), Insert("Dora", 0.9),
             Update(facts[1].id, content="Bob, colleague")],
            kind="curate", source_message_ids=[],
        )  # fmt: skip
    assert await all_facts(kit) == before
    assert await table_counts(kit) == counts
    rows = await kit.services.db.fetchall("SELECT detail_json FROM passes")
    assert [json.loads(r[0]) for r in rows] == []


@pytest.mark.parametrize(
    "update",
    [
        {},  # no field at all
        {"content": "Kit: a Python assistant"},  # the fact's own words back (the 0.5B did)
        {"content": "Kit: a Python assistant", "confidence": 0.8},  # its own confidence too
    ],
)
async def test_an_update_that_changes_nothing_is_dropped_alone(
    kit: Kit, fake_llm: FakeLLM, update: dict[str, Any]
) -> None:
    """A small model's UPDATE that rewrites a fact as it is: before, the whole pass was
    rejected ("changes nothing") and the INSERT beside it was lost."""
    (fact,) = await add_facts(kit, "projects", ["Kit: a Python assistant"], confidence=0.8)
    (said,) = await say(kit, "I started a garden shed project this spring.")
    fake_llm.default = by_category(
        {"projects": tool_reply(
            {"op": "INSERT", "content": "The owner started a garden shed project.",
             "confidence": 0.9, "sources": [said.id]},
            {"op": "UPDATE", "fact_id": fact.id, "sources": [said.id], **update},
        )}
    )  # fmt: skip
    outcomes = await kit.services.curator.curate_user(USER)
    (projects,) = [o for o in outcomes if o.category == "projects"]
    assert projects.status == "applied" and len(projects.inserted_fact_ids) == 1
    assert projects.dropped == (
        f"operation 2 (UPDATE) dropped: it changes nothing: fact #{fact.id} already says that",
    )
    assert (await kit.fact_history(fact.id))[-1].operation == "insert"  # untouched
