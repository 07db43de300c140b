"""The context plan: capped core facts, the memory index (byte-stable, rebuilt on change),
caching by memory version, and `Kit.context` showing exactly what a turn sends."""

from __future__ import annotations

import dataclasses
import time
from datetime import timedelta
from pathlib import Path

from kit.api import Kit
from kit.clock import FakeClock
from kit.config import Settings
from kit.context.plan import Sandwich
from kit.embed.hashing import HashingEmbedder
from kit.llm.fake import FakeLLM
from kit.llm.tokens import estimate_tokens


def _index(plan: Sandwich) -> str:
    section = plan.section("index")
    assert section is not None and section.items
    return section.items[0].text


async def test_core_facts_are_capped_pinned_first_then_confidence_and_use(
    kit: Kit, clock: FakeClock
) -> None:
    """The core no longer grows with memory: past memory.core_tokens the owner's facts are
    cut (pinned first, then confidence, then use) and found by search like any other."""
    pinned = await kit.remember("Keeps bees on the roof", category="preferences", pinned=True)
    for n in range(200):
        await kit.remember(f"Owner detail number {n} about daily routines", confidence=0.6)
    sure = await kit.remember("Was born in Porto", confidence=0.99)
    used = await kit.remember("Runs on Sundays", confidence=0.6)
    await kit.services.facts.touch("owner", [used.id] * 1, clock.now())
    await kit.settle()
    plan = await kit.context("hello")
    core = plan.section("core")
    assert core is not None
    assert core.tokens <= kit.settings.memory.core_tokens
    assert [f.id for f in plan.core_facts[:3]] == [pinned.id, sure.id, used.id]
    assert len(plan.core_facts) < 40 and len(core.dropped) > 160
    assert all("core_tokens" in d.reason for d in core.dropped)
    cut = core.dropped[-1]
    found = await kit.context("Owner detail number 177 about daily routines")
    assert cut.id in {h.id for h in found.relevant if h.kind == "fact"} or any(
        "number 177" in h.text for h in found.relevant
    )


async def test_core_facts_are_read_through_their_partial_index(kit: Kit) -> None:
    """`category = 'person' OR pinned = 1` alone defeats facts_user_active; facts_core fits."""
    plan = await kit.services.db.fetchall(
        "EXPLAIN QUERY PLAN SELECT id FROM facts WHERE user_id = ? AND active = 1"
        " AND (category = 'person' OR pinned = 1) AND (expires_at IS NULL OR expires_at > ?)"
        " ORDER BY pinned DESC, confidence DESC, access_count DESC, updated_at DESC, id LIMIT 200",
        ("owner", "2026-03-02T00:00:00+00:00"),
    )
    detail = " ".join(str(row[3]) for row in plan)
    assert "facts_core" in detail and "TEMP B-TREE" not in detail


async def test_memory_index_lists_what_memory_holds_alphabetised(kit: Kit) -> None:
    for subject, category in (
        ("Zoe", "people"),
        ("ana", "people"),
        ("Ana", "people"),
        ("Kitchen renovation", "projects"),
        ("coffee", "preferences"),
    ):
        await kit.remember(f"Something about {subject}", category=category, subject=subject)
    await kit.services.days.put_detailed("owner", kit.services.clock.now().date(), "- x", 1)
    text = _index(await kit.context("hello"))
    assert "- People: Ana, Zoe\n" in text  # merged case-insensitively, alphabetised
    assert "- Projects: Kitchen renovation\n" in text
    assert "- Topics: coffee\n" in text
    assert "- Day summaries: 1 day," in text
    assert "search_memory" in text


async def test_memory_index_bytes_are_identical_until_memory_changes(
    kit: Kit, clock: FakeClock
) -> None:
    """The index is in the cached prefix: same bytes turn after turn (other messages, other
    minutes, access counts bumped), new bytes after a fact or day summary changes."""
    ana = await kit.remember("Ana likes figs", category="people", subject="Ana")
    first = await kit.context("What does Ana like?")
    clock.advance(timedelta(minutes=9))
    await kit.services.facts.touch("owner", [ana.id], clock.now())
    second = await kit.context("Anything new about the garden?")
    assert _index(first) == _index(second)
    assert first.system[:2] == second.system[:2]
    assert dict((s.name, s.note) for s in second.stages)["index, core facts, recent days"] == (
        "cached"
    )

    await kit.remember("Bruno plays chess", category="people", subject="Bruno")
    third = await kit.context("Anything new about the garden?")
    assert "Ana, Bruno" in _index(third) and _index(third) != _index(second)

    day = clock.now().date() - timedelta(days=1)
    await kit.services.days.put_detailed(
        "owner", day, "- Met Carla at the market\n- Bought figs from Carla", 3
    )
    fourth = await kit.context("Anything new about the garden?")
    assert _index(fourth) != _index(third) and "Carla" in _index(fourth)

    await kit.add_note("# Fig jam\n- figs\n- sugar", name="jam")
    fifth = await kit.context("Anything new about the garden?")
    assert _index(fifth) != _index(fourth) and "- Notes (`read_note` reads one): jam (Fig jam)" in (
        _index(fifth)
    )
    await kit.services.tools.run(
        "read_note", {"name": "jam"}, user_id="owner", now=clock.now(), message_id=1
    )
    await kit.add_note("# Fig jam\n- figs\n- sugar", name="jam", replace=True)  # unchanged
    sixth = await kit.context("Anything new about the garden?")
    assert _index(sixth) == _index(fifth) and fifth.system[:2] == sixth.system[:2]
    await kit.add_note("# Fig and plum jam\n- figs", name="jam", replace=True)
    seventh = await kit.context("Anything new about the garden?")
    assert "jam (Fig and plum jam)" in _index(seventh)
    await kit.remove_note("jam")
    eighth = await kit.context("Anything new about the garden?")
    assert "Notes" not in _index(eighth) and _index(eighth) == _index(fourth)


async def test_a_write_by_another_process_invalidates_the_cache(
    settings: Settings, clock: FakeClock, tmp_path: Path
) -> None:
    """The cache is keyed by counters the database bumps (triggers), so a daemon sees a fact
    another process wrote on its next turn."""
    opened = {"settings": settings, "llm": FakeLLM(), "clock": clock, "background": False}
    async with (
        Kit.open(embedder=HashingEmbedder(), **opened) as daemon,  # type: ignore[arg-type]
        Kit.open(embedder=HashingEmbedder(), **opened) as cli,  # type: ignore[arg-type]
    ):
        await daemon.remember("Ana likes figs", category="people", subject="Ana")
        before = await daemon.context("hello")
        await cli.remember("Dora paints", category="people", subject="Dora")
        await cli.remember("Lives by the sea", category="person", pinned=True)
        after = await daemon.context("hello")
        assert "Dora" not in _index(before) and "Dora" in _index(after)
        assert "Lives by the sea" in after.system[1].text


async def test_memory_index_stays_under_its_cap_cutting_the_least_mentioned(kit: Kit) -> None:
    s = kit.services
    async with s.db.transaction() as tx:
        writer = s.facts.writer(tx, "owner")
        from kit.memory.fact_writer import Provenance

        for n in range(400):
            for _ in range(1 + (n == 7) * 5):  # Person007 is mentioned most
                await writer.insert(
                    category="people",
                    content=f"fact about person {n}",
                    subject=f"Person{n:03d}",
                    provenance=Provenance(actor="api"),
                )
    plan = await kit.context("hello")
    text = _index(plan)
    assert estimate_tokens(text) <= kit.settings.memory.index_tokens
    assert "Person007" in text and "more)" in text
    people = text.split("- People: ")[1].split(" (+")[0].split(", ")
    assert people == sorted(people)
    again = await s.context._index.build("owner")  # a rebuild cuts the same way
    assert again.text == text


async def test_kit_context_is_what_the_turn_sends_and_changes_nothing(
    kit: Kit, fake_llm: FakeLLM, clock: FakeClock
) -> None:
    s = kit.services
    fact = await kit.remember("Ana's birthday is on 3 May", category="people", subject="Ana")
    await kit.send("Hello there")
    await kit.settle()
    counts = {
        table: await s.db.scalar(f"SELECT COUNT(*) FROM {table}")
        for table in ("messages", "conversations", "facts", "fact_history", "embeddings")
    }
    before = await s.facts.get("owner", fact.id)
    requests = len(fake_llm.requests)

    plan = await kit.context("When is Ana's birthday?")
    assert len(fake_llm.requests) == requests  # no model call
    assert await s.facts.get("owner", fact.id) == before  # no access bump
    for table, count in counts.items():
        assert await s.db.scalar(f"SELECT COUNT(*) FROM {table}") == count, table
    assert fact.id in {h.id for h in plan.relevant}
    facts = plan.section("facts")
    assert facts is not None and facts.items[0].score is not None
    assert "vector #" in facts.items[0].reason or "words #" in facts.items[0].reason

    await kit.send("When is Ana's birthday?")
    assert fake_llm.requests_for("chat")[-1].system == plan.system


async def test_context_report_carries_sections_tokens_and_stages(kit: Kit) -> None:
    await kit.remember("Ana likes figs", category="people", subject="Ana")
    report = (await kit.context("figs?")).report()
    names = [s.name for s in report.sections]
    assert names[:2] == ["prompt", "index"] and names[-2:] == ["facts", "activity"]
    assert report.memory_tokens <= report.budget_tokens
    assert {s.name for s in report.stages} >= {"search facts, days, messages", "fit and render"}
    assert all(st.ms >= 0 for st in report.stages)
    assert dataclasses.asdict(report)  # plain data all the way down


async def test_stages_that_overlap_are_not_added_to_the_total(kit: Kit) -> None:
    """The cached part is built while the search runs (which embeds the message meanwhile):
    its time is inside the search's, so a total of the stages counts it once."""
    await kit.remember("Ana likes figs", category="people", subject="Ana")
    began = time.perf_counter()
    plan = await kit.context("figs?")
    wall = (time.perf_counter() - began) * 1000
    alongside = [s.name for s in plan.stages if s.alongside]
    assert alongside == ["index, core facts, recent days"]
    assert sum(s.ms for s in plan.stages if not s.alongside) <= wall
    search = next(s for s in plan.stages if s.name == "search facts, days, messages")
    assert search.note.startswith("embedding ")  # the embedding's share, inside the search


async def test_retrieved_day_summaries_show_their_matching_bullets(
    kit: Kit, clock: FakeClock
) -> None:
    old = clock.now().date() - timedelta(days=20)
    bullets = [f"- routine note {n}" for n in range(30)] + ["- Bought seeds for the tomatoes"]
    await kit.services.days.put_detailed("owner", old, "\n".join(bullets), 10)
    for back in (1, 2):  # the recent days, shown whole
        await kit.services.days.put_detailed("owner", old + timedelta(days=10 + back), "- x", 1)
    await kit.settle()
    plan = await kit.context("Where are the tomatoes seeds from?")
    lines = [i.text for i in plan.section("activity").items if i.kind == "day"]  # type: ignore[union-attr]
    assert lines and "Bought seeds for the tomatoes" in lines[0]
    assert "routine note 29" not in lines[0]
