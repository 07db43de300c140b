"""Ranking: fused relevance weighted by confidence, plus bounded recency and usage boosts."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta

import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.config import Settings
from kit.embed.base import Embedder
from kit.llm.fake import FakeLLM
from kit.memory.fact_rows import MIN_SHOWN_CONFIDENCE, Fact
from kit.memory.messages import Message
from tests.core.embedders import CosineTable

pytestmark = pytest.mark.stores


@asynccontextmanager
async def open_kit(settings: Settings, clock: FakeClock, embedder: Embedder) -> AsyncIterator[Kit]:
    async with Kit.open(
        settings=settings, llm=FakeLLM(), embedder=embedder, clock=clock, background=False
    ) as kit:
        yield kit


async def only_hit_score(kit: Kit, query: str, **kwargs: object) -> float:
    (hit,) = await kit.search(query, **kwargs)  # type: ignore[arg-type]
    return hit.score


async def test_recency_boost_fades_linearly_to_zero_at_seven_days(
    kit: Kit, clock: FakeClock
) -> None:
    """One message, first in both rankings (relevance 1.0): only the boost changes with age."""
    conv = await kit.services.messages.conversation("owner", "local", "default")
    written = clock.now()
    await kit.services.messages.add(conv, "user", "The boiler service is booked")
    await kit.settle()
    scores = {
        days: await only_hit_score(kit, "boiler service", now=written + timedelta(days=days))
        for days in (0, 1, 3.5, 7, 7.5, 10, 400)
    }
    assert scores[0] == pytest.approx(1.0 + 0.1)
    assert scores[1] == pytest.approx(1.0 + 0.1 * 6 / 7)
    assert scores[3.5] == pytest.approx(1.0 + 0.05)
    for days in (7, 7.5, 10, 400):
        assert scores[days] == pytest.approx(1.0)


async def test_item_from_today_beats_identical_item_from_ten_days_ago(
    kit: Kit, clock: FakeClock
) -> None:
    messages = kit.services.messages
    now = clock.now()

    async def alone(text: str, age: timedelta) -> Message:
        """Each in its own conversation: no neighbouring turn to tell them apart."""
        conv = await messages.conversation("owner", "local", f"{text} {age}")
        return await messages.add(conv, "user", text, at=now - age)

    # inserted in both orders, so neither rank tie-break can explain the result; the same
    # words, not the same line (identical lines are one hit: tests/retrieval/test_fusion.py)
    old_first = await alone("Dentist at ten", timedelta(days=10))
    new_second = await alone("Dentist at ten.", timedelta(hours=1))
    new_first = await alone("Vet at noon", timedelta(hours=1))
    old_second = await alone("Vet at noon.", timedelta(days=10))
    await kit.settle()
    for query, new, old in (("dentist", new_second, old_first), ("vet", new_first, old_second)):
        hits = [h for h in await kit.search(query) if h.lexical_rank is not None]
        assert [h.id for h in hits] == [new.id, old.id]
        assert 0.0 < hits[0].score - hits[1].score <= 0.1 + 0.02  # boost, plus a rank tie-break


async def test_confidence_weights_otherwise_equal_facts(kit: Kit, clock: FakeClock) -> None:
    low_first = await kit.remember("Ana likes green tea", category="preferences", confidence=0.3)
    high_second = await kit.remember("Ana likes green tea", category="preferences", confidence=0.9)
    await kit.settle()
    hits = await kit.search("green tea", kinds=("fact",))
    assert [h.id for h in hits] == [high_second.id, low_first.id]


@pytest.mark.parametrize("confidence", [MIN_SHOWN_CONFIDENCE, 0.3, 0.9, 1.0])
async def test_confidence_weight_is_half_plus_half_confidence(
    kit: Kit, clock: FakeClock, confidence: float
) -> None:
    await kit.remember("Ben plays the cello", category="people", confidence=confidence)
    await kit.settle()
    later = clock.now() + timedelta(days=30)  # past the recency window
    score = await only_hit_score(kit, "cello", kinds=("fact",), now=later)
    assert score == pytest.approx(0.5 + 0.5 * confidence)


async def test_a_fact_below_the_shown_confidence_is_not_shown_unless_pinned(
    kit: Kit, clock: FakeClock
) -> None:
    """The threshold the curation guard counts a confidence cut against: one constant."""
    low = MIN_SHOWN_CONFIDENCE - 0.01
    await kit.remember("Ben plays the cello", category="person", confidence=low)
    pinned = await kit.remember(
        "Ben tunes the cello", category="person", confidence=low, pinned=True
    )
    await kit.settle()
    hits = await kit.search("cello", kinds=("fact",))
    assert [h.id for h in hits] == [pinned.id]
    assert [f.id for f in await kit.services.facts.core("owner", clock.now())] == [pinned.id]


async def set_access_count(kit: Kit, fact: Fact, count: int) -> None:
    async with kit.services.db.transaction() as tx:
        await tx.execute("UPDATE facts SET access_count = ? WHERE id = ?", (count, fact.id))


async def test_usage_boost_is_small_bounded_and_monotonic(kit: Kit, clock: FakeClock) -> None:
    fact = await kit.remember("Carla's cat is called Miso", category="people", confidence=1.0)
    await kit.settle()
    later = clock.now() + timedelta(days=30)
    boosts = []
    for count in (0, 1, 5, 20, 1000):
        await set_access_count(kit, fact, count)
        boosts.append(await only_hit_score(kit, "Miso", kinds=("fact",), now=later) - 1.0)
    assert boosts[0] == pytest.approx(0.0)
    assert boosts[0] < boosts[1] < boosts[2] < boosts[3]
    assert boosts[3] == pytest.approx(0.05) and boosts[4] == pytest.approx(0.05)


async def test_usage_cannot_outrank_a_clearly_better_match(kit: Kit, clock: FakeClock) -> None:
    used = await kit.remember("Ana bought a bike", category="projects")
    exact = await kit.remember("Ana bought a red bike helmet", category="projects")
    await set_access_count(kit, used, 1000)
    await kit.settle()
    hits = await kit.search("red bike helmet", kinds=("fact",))
    assert [h.id for h in hits] == [exact.id, used.id]


async def test_threshold_drops_low_cosine_vector_only_candidates(
    settings: Settings, clock: FakeClock
) -> None:
    query = "zebra"
    table = CosineTable(
        query,
        {"giraffe facts": 0.31, "okapi facts": 0.29, "zebra crossing": 0.05, "lion facts": 0.9},
    )
    async with open_kit(settings, clock, table) as kit:
        for text in ("giraffe facts", "okapi facts", "zebra crossing", "lion facts"):
            await kit.remember(text, category="entities")
        await kit.settle()
        hits = {h.text: h for h in await kit.search(query, kinds=("fact",))}
    assert set(hits) == {"lion facts", "giraffe facts", "zebra crossing"}
    # (rows are kept as int8: a cosine is within half a step of the row's largest component)
    assert hits["giraffe facts"].cosine == pytest.approx(0.31, abs=5e-3)
    assert hits["giraffe facts"].lexical_rank is None
    # a word match survives a low cosine: that is what the lexical ranking is for
    assert hits["zebra crossing"].cosine is None and hits["zebra crossing"].lexical_rank == 1
    assert hits["lion facts"].vector_rank == 1


async def test_threshold_is_taken_from_the_settings(settings: Settings, clock: FakeClock) -> None:
    from tests.conftest import with_memory

    table = CosineTable("zebra", {"giraffe facts": 0.31})
    async with open_kit(with_memory(settings, similarity_threshold=0.5), clock, table) as kit:
        await kit.remember("giraffe facts", category="entities")
        await kit.settle()
        assert await kit.search("zebra") == []


async def test_facts_shown_to_the_model_get_their_access_counted(
    kit: Kit, clock: FakeClock
) -> None:
    core = await kit.remember("Ana lives in Porto")  # person: always in context
    relevant = await kit.remember("Ana's sister Bea is a chemist", category="people")
    unrelated = await kit.remember("The router password hint is the dog", category="technical")
    await kit.settle()
    clock.advance(timedelta(minutes=5))
    result = await kit.send("What does Bea do for work? chemist?")
    assert set(result.fact_ids) == {core.id, relevant.id}
    by_id = {f.id: f for f in await kit.facts()}
    assert by_id[core.id].access_count == 1 and by_id[relevant.id].access_count == 1
    assert by_id[relevant.id].last_accessed_at == clock.now()
    assert by_id[unrelated.id].access_count == 0 and by_id[unrelated.id].last_accessed_at is None
    # access stats are not content changes: no history row, no new embedding needed
    assert [h.operation for h in await kit.fact_history(relevant.id)] == ["insert"]
    assert await kit.services.vectors.pending_count() == 2  # the two new messages only
    await kit.settle()
    assert await kit.services.vectors.pending_count() == 0


async def test_replaced_fact_versions_do_not_push_the_live_one_down(
    settings: Settings, clock: FakeClock
) -> None:
    """Inactive facts keep their vectors (for undo) but never take a live fact's rank or slot."""
    old_versions = [f"Ana worked at firm number {i}" for i in range(70)]
    table = CosineTable(
        "zebra", {**{t: 0.9 for t in old_versions}, "Ana works at Acme": 0.8}, dim=128
    )
    async with open_kit(settings, clock, table) as kit:
        for text in old_versions:
            fact = await kit.remember(text, category="projects")
            await kit.forget_fact(fact.id, reason="replaced")
        live = await kit.remember("Ana works at Acme", category="projects")
        await kit.settle()
        hits = await kit.search("zebra", kinds=("fact",), k=5)
    assert [(h.id, h.vector_rank) for h in hits] == [(live.id, 1)]
    # best by meaning alone: the vector share of the fusion (2 of 3), times its confidence
    p = kit.services.search.params
    share = p.vector_weight / (p.vector_weight + p.lexical_weight)
    assert hits[0].score == pytest.approx(share * (0.5 + 0.5 * 0.9) + 0.1)


async def test_window_messages_do_not_take_ranks_from_older_ones(
    kit: Kit, clock: FakeClock
) -> None:
    """The window is already in front of the model; the archive ranks without it."""
    conv = await kit.services.messages.conversation("owner", "local", "default")
    old = await kit.services.messages.add(
        conv, "user", "kayak trip planning", at=clock.now() - timedelta(days=30)
    )
    window = [await kit.services.messages.add(conv, "user", "kayak kayak") for _ in range(3)]
    await kit.settle()
    result = await kit.services.search.search(
        "owner",
        "kayak",
        now=clock.now(),
        k=5,
        kinds=("message",),
        exclude_message_ids=frozenset(m.id for m in window),
    )
    assert [(h.id, h.vector_rank, h.lexical_rank) for h in result.hits] == [(old.id, 1, 1)]
    assert result.hits[0].score == pytest.approx(1.0)


async def test_the_models_cosine_quantile_is_taken_from_the_settings(
    settings: Settings, clock: FakeClock
) -> None:
    """`embedding.cosine_quantile` (declared with the model): a vector score is measured from
    that quantile of the candidates' cosines, so a cosine in the crowd counts for less than
    its share of the best one."""
    query = "zebra"
    cosines = {"lion facts": 0.9, "giraffe facts": 0.6, "okapi facts": 0.5, "tapir facts": 0.4}
    scores = {}
    for quantile in (0.0, 0.25):
        table = CosineTable(query, cosines)
        model = dataclasses.replace(settings.embedding, cosine_quantile=quantile)
        async with open_kit(dataclasses.replace(settings, embedding=model), clock, table) as kit:
            assert kit.services.search.params.vector_floor == (quantile or None)
            for text in cosines:
                await kit.remember(text, category="entities")
            await kit.settle()
            hits = await kit.search(query, kinds=("fact",), now=clock.now() + timedelta(days=30))
            scores[quantile] = {h.text: h.score for h in hits}
    # from zero: 0.6 / 0.9 of the best one's; from the second of the four cosines (0.5 up to
    # 0.9): a quarter of it, and nothing for the cosine the scale starts at
    zero, quarter = scores[0.0], scores[0.25]
    assert zero["giraffe facts"] == pytest.approx(zero["lion facts"] * 0.6 / 0.9, rel=0.02)
    assert quarter["giraffe facts"] == pytest.approx(quarter["lion facts"] * 0.25, rel=0.05)
    assert quarter["okapi facts"] == pytest.approx(0.0, abs=0.01)


async def test_the_models_message_floor_is_taken_from_the_settings(
    settings: Settings, clock: FakeClock
) -> None:
    """`embedding.message_floor` (declared with the model) is the cosine a message needs to be
    a vector candidate; 0 leaves memory.message_similarity_threshold (MiniLM's 0.2)."""
    query = "zebra"
    cosines = {"lion trip": 0.9, "okapi trip": 0.25}
    found = {}
    for floor in (0.0, 0.3):
        table = CosineTable(query, cosines)
        model = dataclasses.replace(settings.embedding, message_floor=floor)
        async with open_kit(dataclasses.replace(settings, embedding=model), clock, table) as kit:
            params = kit.services.search.params
            assert params.message_threshold == (
                floor or settings.memory.message_similarity_threshold
            )
            conv = await kit.services.messages.conversation("owner", "local", "default")
            for text in cosines:
                await kit.services.messages.add(
                    conv, "user", text, at=clock.now() - timedelta(days=30)
                )
            await kit.settle()
            hits = await kit.services.search.search(
                "owner", query, now=clock.now(), k=5, kinds=("message",)
            )
            found[floor] = {h.text: h.vector_rank for h in hits.hits}
    assert found[0.0] == {"lion trip": 1, "okapi trip": 2}  # 0.25 is over memory's 0.2
    assert found[0.3] == {"lion trip": 1}  # under the model's own floor
