"""One fact, one row: what `remember` stored is not stored again by a curation pass of another
category (or worded a hair apart), nor again by `remember`; a fact that adds a detail is still
stored, and nothing already stored is touched (kit/curator/known.py,
kit/memory/same_fact.py)."""

from __future__ import annotations

from typing import Any

import pytest

from kit.api import Kit
from kit.curator.ops import Insert, Replace, Update
from kit.llm.base import ToolUse
from kit.llm.fake import FakeLLM
from kit.memory.fact_rows import Fact
from kit.memory.fact_writer import Provenance
from kit.memory.same_fact import probe, says_same
from tests.support.curation import add_facts, by_category, say, tool_reply

pytestmark = pytest.mark.stores

USER = "owner"
ANA = "The owner's sister Ana lives in Porto"


async def remember_turn(
    kit: Kit,
    fake_llm: FakeLLM,
    fact: str,
    category: str,
    said: str = "Remember that my sister Ana lives in Porto",
) -> str:
    """A chat turn in which the model calls `remember`; what the tool told the model."""
    fake_llm.queue(
        ToolUse("toolu_r", "remember", {"fact": fact, "subject": "Ana", "category": category}),
        "Noted.",
    )
    result = await kit.send(said)
    assert result.tools_used == ("remember",)
    told = fake_llm.requests[-1].messages[-1].content
    return str(told)


async def active(kit: Kit) -> list[tuple[str, str]]:
    return [(f.category, f.content) for f in await kit.facts()]


async def test_a_remembered_fact_is_not_stored_again_by_another_categorys_pass(
    kit: Kit, fake_llm: FakeLLM
) -> None:
    """The defect: `remember` stores it under people, the entities pass (shown only its own
    facts) proposes it again, worded a hair apart. One row; the drop says which fact holds it,
    in the pass record and the outcome, and the pass itself still applies."""
    told = await remember_turn(kit, fake_llm, ANA, "people")
    (fact,) = await kit.facts()
    assert f"Stored as fact #{fact.id}" in told
    copy = {"op": "INSERT", "subject": "Ana", "confidence": 0.9,
            "content": "Owner's sister Ana lives in Porto."}  # fmt: skip
    fake_llm.default = by_category({"entities": tool_reply(copy)})
    outcomes = await kit.services.curator.curate_user(USER)

    assert await active(kit) == [("people", ANA)]
    (entities,) = [o for o in outcomes if o.category == "entities"]
    why = f"operation 1 (INSERT) dropped: already known as fact #{fact.id} (people)"
    assert entities.dropped == (why,)
    assert entities.pass_id is not None and entities.status == "noop"
    record = await kit.services.curator.passes.get(USER, entities.pass_id)
    assert record.detail["dropped"] == [why]


async def test_a_fact_that_adds_a_detail_is_still_stored(kit: Kit, fake_llm: FakeLLM) -> None:
    """Not a copy: saying more is an UPDATE's or REPLACE's job, and a new fact is kept."""
    await remember_turn(
        kit, fake_llm, ANA, "people", said="Remember that my sister Ana lives in Porto with Rui"
    )
    more = {"op": "INSERT", "subject": "Ana", "confidence": 0.9,
            "content": "The owner's sister Ana lives in Porto with Rui"}  # fmt: skip
    fake_llm.default = by_category({"entities": tool_reply(more)})
    outcomes = await kit.services.curator.curate_user(USER)
    assert [(o.dropped, o.asked) for o in outcomes if o.category == "entities"] == [((), ())]
    assert sorted(await active(kit)) == [
        ("entities", "The owner's sister Ana lives in Porto with Rui"),
        ("people", ANA),
    ]


async def test_remember_of_what_a_curated_fact_says_answers_with_its_number(
    kit: Kit, fake_llm: FakeLLM
) -> None:
    """The other way: a fact of another category already says it (punctuation and how the
    owner is named aside), so `remember` names it and stores nothing."""
    (known,) = await add_facts(kit, "entities", ["Owner's sister Ana lives in Porto."])
    told = await remember_turn(kit, fake_llm, ANA, "people")
    assert f"Already remembered as fact #{known.id} (entities)" in told
    assert await active(kit) == [("entities", "Owner's sister Ana lives in Porto.")]


async def test_the_owners_own_fact_is_kept_and_the_copy_dropped(kit: Kit) -> None:
    """An owner-written fact is never touched by this: the curator's copy is what goes."""
    change = await kit.add_fact("Ana lives in Porto", category="people", subject="Ana")
    outcome = await kit.services.curator.apply_ops(
        USER, "entities", [Insert("ana lives in porto!", 0.9, "Ana")],
        kind="curate", source_message_ids=[],
    )  # fmt: skip
    assert outcome.inserted_fact_ids == ()
    assert outcome.dropped == (
        f"operation 1 (INSERT) dropped: already known as fact #{change.fact.id} (people)",
    )
    after = await kit.services.facts.get(USER, change.fact.id)
    assert after == change.fact  # untouched: active, the owner's, the same words


async def test_two_operations_of_one_pass_saying_the_same_store_one_fact(kit: Kit) -> None:
    outcome = await kit.services.curator.apply_ops(
        USER, "people",
        [Insert("Ana is a nurse", 0.9, "Ana"), Insert("Ana is a nurse.", 0.8, "Ana")],
        kind="curate", source_message_ids=[],
    )  # fmt: skip
    assert len(outcome.inserted_fact_ids) == 1
    assert outcome.dropped == (
        "operation 2 (INSERT) dropped: it says what operation 1 of this pass stores",
    )


async def test_a_replace_saying_what_another_categorys_fact_says_is_dropped(kit: Kit) -> None:
    """The REPLACE's new text is a copy of another category's fact: the merge is not done,
    and its facts stay as they were."""
    (held,) = await add_facts(kit, "people", ["Ana lives in Porto"], subject="Ana")
    one, two, _ = await add_facts(
        kit, "entities", ["Ana lives in Portugal", "Ana's home is Porto", "Porto is by the sea"]
    )
    copy = await kit.services.curator.apply_ops(
        USER, "entities", [Replace((one.id, two.id), "Ana lives in Porto.", 0.9, "Ana")],
        kind="curate", source_message_ids=[],
    )  # fmt: skip
    assert copy.dropped == (
        f"operation 1 (REPLACE) dropped: already known as fact #{held.id} (people)",
    )
    assert (await kit.services.facts.get(USER, one.id)).active
    assert (await kit.services.facts.get(USER, two.id)).active


async def test_a_replace_saying_what_one_of_its_own_facts_says_is_the_merge(kit: Kit) -> None:
    one, two, _ = await add_facts(
        kit, "entities", ["Rui lives in Braga", "Rui lives in Braga.", "Porto is by the sea"]
    )
    merge = await kit.services.curator.apply_ops(
        USER, "entities", [Replace((one.id, two.id), "Rui lives in Braga", 0.9)],
        kind="curate", source_message_ids=[],
    )  # fmt: skip
    assert merge.dropped == () and len(merge.inserted_fact_ids) == 1
    assert not (await kit.services.facts.get(USER, one.id)).active


async def test_same_words_other_subject_is_another_fact() -> None:
    """A text that does not name who it is about leans on its subject: kept apart."""

    class F:
        def __init__(self, subject: str, content: str) -> None:
            self.subject, self.content = subject, content

    assert says_same("Ana", "Lives in Porto", F("Ana", "lives in porto."))
    assert not says_same("Ana", "Lives in Porto", F("Rui", "Lives in Porto"))
    assert not says_same("Ana", "Lives in Porto", F("", "Lives in Porto"))  # the owner's
    assert says_same("Ana", "Ana lives in Porto", F("", "Ana lives in Porto"))
    assert says_same("", "The owner lives in Porto", F("", "Owner lives in Porto"))
    assert says_same("sister", "The Owner’s sister Ana", F("Ana", "owner's sister, Ana"))
    assert not says_same("Ana", "Ana lives in Porto", F("Ana", "Ana lives in Porto with Rui"))
    assert not says_same("Ana", "Ana lives in Porto", F("Ana", "Ana lived in Porto"))


async def test_a_fact_held_too_doubtfully_to_be_shown_does_not_block_the_same_news(
    kit: Kit,
) -> None:
    """Saying again what memory holds only in doubt (hidden) is news: it is stored."""
    (doubted,) = await add_facts(kit, "people", ["Ana lives in Porto"], subject="Ana")
    await kit.services.facts.update(
        USER, doubted.id, Provenance(actor="api", reason="test"), confidence=0.1
    )
    outcome = await kit.services.curator.apply_ops(
        USER, "entities", [Insert("Ana lives in Porto", 0.9, "Ana")],
        kind="curate", source_message_ids=[],
    )  # fmt: skip
    assert outcome.dropped == () and len(outcome.inserted_fact_ids) == 1


async def test_a_pass_is_shown_other_categories_facts_about_what_the_batch_names(
    kit: Kit, fake_llm: FakeLLM
) -> None:
    """So the model does not propose the copy at all: the entities pass sees (without ids)
    the people fact about Ana, whom the batch names; not the one about Rui, whom it does not;
    and a pass never sees its own category there."""
    await add_facts(kit, "people", [ANA], subject="Ana")
    await add_facts(kit, "people", ["Rui is the owner's cousin"], subject="Rui")
    await say(kit, "Ana says Porto is rainy this week.")
    await kit.services.curator.curate_user(USER)
    rules = {r.purpose: r.system[1].text for r in fake_llm.requests_for("curate:")}
    shown = f"- people | Ana | {ANA}"
    assert "Already known, in other categories" in rules["curate:entities"]
    assert shown in rules["curate:entities"] and "cousin" not in rules["curate:entities"]
    assert "Already known, in other categories" not in rules["curate:people"]


async def test_only_the_facts_that_may_say_the_same_are_read(kit: Kit) -> None:
    """`remember` and a pass read the live facts holding the stored text's longest word, not
    every fact the owner has; a copy worded a hair apart still holds that word."""
    copy, _, _ = await add_facts(
        kit,
        "entities",
        ["Owner's sister Ana lives in PORTO.", "Ana likes Porto", "Rui lives in Lisbon"],
    )
    assert probe(ANA) == "sister" and probe("Ünal") is None
    s = kit.services
    async with s.db.transaction() as tx:
        writer = s.facts.writer(tx, USER)
        read = await writer.live([probe(ANA) or ""])
        assert [f.id for f in read] == [copy.id]
        assert [f.content for f in await writer.live(["porto", "lisbon"])] == [
            "Owner's sister Ana lives in PORTO.",
            "Ana likes Porto",
            "Rui lives in Lisbon",
        ]
        assert await writer.live([]) == []
        assert len(await writer.live()) == 3


async def test_an_update_that_would_say_what_another_fact_says_is_dropped(kit: Kit) -> None:
    """The defect: an UPDATE rewrote one fact into another's words, leaving two rows saying
    the same. The update is dropped with which fact holds it; both facts stay as they were
    (merging them is a REPLACE's job)."""
    (held,) = await add_facts(kit, "people", ["Ana lives in Porto"], subject="Ana")
    (old,) = await add_facts(kit, "entities", ["Ana lives in Lisbon"], subject="Ana")
    outcome = await kit.services.curator.apply_ops(
        USER, "entities", [Update(old.id, content="ana lives in Porto.")],
        kind="curate", source_message_ids=[],
    )  # fmt: skip
    assert outcome.dropped == (
        f"operation 1 (UPDATE) dropped: already known as fact #{held.id} (people)",
    )
    assert (await kit.services.facts.get(USER, old.id)).content == "Ana lives in Lisbon"
    assert (await kit.services.facts.get(USER, held.id)).active


async def test_an_update_of_other_words_or_of_its_own_words_is_applied(kit: Kit) -> None:
    """Only a copy of another fact is dropped: a fact reworded to itself, or an update whose
    subject (its own, unchanged) makes it another fact, goes through."""
    await add_facts(kit, "people", ["Lives in Porto"], subject="Rui")
    (ana,) = await add_facts(kit, "entities", ["Lives in Lisbon"], subject="Ana")
    (same,) = await add_facts(kit, "entities", ["Bea is a nurse"], subject="Bea")
    outcome = await kit.services.curator.apply_ops(
        USER, "entities",
        [Update(ana.id, content="Lives in Porto"), Update(same.id, content="Bea is a nurse.")],
        kind="curate", source_message_ids=[],
    )  # fmt: skip
    assert outcome.dropped == ()
    assert (await kit.services.facts.get(USER, ana.id)).content == "Lives in Porto"


async def test_a_pass_reads_only_the_named_subjects_facts_for_other_categories(
    kit: Kit, fake_llm: FakeLLM, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What other categories know about whom the batch names is read by subject, not as every
    live fact the owner has (the defect: each pass read them all whenever one subject was
    named)."""
    await add_facts(kit, "people", [ANA], subject="Ana")
    await add_facts(kit, "people", [f"Owner's colleague {n} works in Braga" for n in range(5)])
    facts = kit.services.facts
    read: list[int] = []
    live = facts.live

    async def counted(*args: Any, **kwargs: Any) -> list[Fact]:
        found = await live(*args, **kwargs)
        read.append(len(found))
        return found

    monkeypatch.setattr(facts, "live", counted)
    await say(kit, "Ana says Porto is rainy this week.")
    await kit.services.curator.curate_user(USER)
    shown = f"- people | Ana | {ANA}"
    rules = {r.purpose: r.system[1].text for r in fake_llm.requests_for("curate:")}
    assert shown in rules["curate:entities"]
    assert read and max(read) == 1
