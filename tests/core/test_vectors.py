"""The vector index is derived state: keyed by content hash and model id, rebuildable."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta

import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.config import Settings
from kit.embed.base import Embedder
from kit.embed.hashing import HashingEmbedder
from kit.llm.fake import FakeLLM
from kit.memory.fact_writer import Provenance

pytestmark = pytest.mark.stores

QUERIES = ("garden beans", "Ana's sister", "boiler repair", "what did we plant")


@asynccontextmanager
async def open_kit(
    settings: Settings, clock: FakeClock, embedder: Embedder | None
) -> AsyncIterator[Kit]:
    async with Kit.open(
        settings=settings,
        llm=FakeLLM(),
        embedder=embedder,
        clock=clock,
        background=False,
        with_embedder=embedder is not None,
    ) as kit:
        yield kit


async def seed(kit: Kit, clock: FakeClock) -> int:
    """A small store of every kind; returns how many rows it wrote."""
    s = kit.services
    await kit.remember("Ana's sister Bea lives in Leeds", category="people")
    await kit.remember("The garden has beans and leeks", category="projects")
    await kit.remember("Boiler repair is booked for Friday", category="projects")
    conv = await s.messages.conversation("owner", "local", "default")
    for text in ("We planted beans today", "The boiler is making noise", "Bea called"):
        await s.messages.add(conv, "user", text)
    await s.days.put_detailed("owner", clock.now().date() - timedelta(days=1), "- planted beans", 2)
    return 3 + 3 + 1


async def rankings(kit: Kit) -> list[list[tuple[str, int, float, float | None]]]:
    out = []
    for query in QUERIES:
        hits = await kit.search(query)
        out.append([(h.kind, h.id, round(h.score, 6), h.cosine) for h in hits])
    return out


async def test_deleted_embeddings_are_rebuilt_to_identical_results(
    kit: Kit, clock: FakeClock
) -> None:
    rows = await seed(kit, clock)
    await kit.settle()
    before = await rankings(kit)
    assert any(h[3] is not None for ranking in before for h in ranking)

    async with kit.services.db.transaction() as tx:
        await tx.execute("DELETE FROM embeddings")
    kit.services.vectors.forget_cache()
    assert await kit.services.vectors.pending_count() == rows
    assert await kit.services.vectors.backfill() == rows
    assert await rankings(kit) == before


async def test_vectors_reload_from_the_file_to_identical_results(
    settings: Settings, clock: FakeClock
) -> None:
    async with open_kit(settings, clock, HashingEmbedder()) as kit:
        await seed(kit, clock)
        await kit.settle()
        before = await rankings(kit)
    async with open_kit(settings, clock, HashingEmbedder()) as kit:
        assert await kit.services.vectors.pending_count() == 0
        assert await rankings(kit) == before


async def test_changed_fact_content_is_re_embedded(kit: Kit, clock: FakeClock) -> None:
    await seed(kit, clock)
    await kit.settle()
    fact = (await kit.facts(category="people"))[0]
    await kit.search("Leeds")  # load the matrix, so the in-memory copy must follow too
    await kit.services.facts.update(
        "owner", fact.id, Provenance(actor="api"), content="Ana's sister Bea moved to Bristol"
    )
    assert await kit.services.vectors.pending_count() == 1
    stale = {h.id: h for h in await kit.search("Bristol moved", kinds=("fact",))}
    assert stale[fact.id].cosine is None  # found by words only: its vector is the old text

    embedder = kit.services.vectors.embedder
    assert isinstance(embedder, HashingEmbedder)
    embedder.calls.clear()
    assert await kit.services.vectors.backfill() == 1
    assert embedder.calls == [1]
    fresh = {h.id: h for h in await kit.search("Bristol moved", kinds=("fact",))}
    assert fresh[fact.id].cosine is not None and fresh[fact.id].cosine > 0.3
    assert fact.id not in {h.id for h in await kit.search("Leeds", kinds=("fact",))}


async def test_subject_change_and_condensing_make_vectors_stale(kit: Kit, clock: FakeClock) -> None:
    await seed(kit, clock)
    await kit.settle()
    fact = (await kit.facts(category="people"))[0]
    await kit.services.facts.update("owner", fact.id, Provenance(actor="api"), subject="Bea")
    await kit.services.days.put_condensed(
        "owner", clock.now().date() - timedelta(days=1), "- beans in"
    )
    assert await kit.services.vectors.pending_count() == 2
    await kit.services.facts.touch("owner", [fact.id], clock.now())  # stats are not content
    assert await kit.services.vectors.pending_count() == 2


async def test_a_different_model_never_mixes_vectors(settings: Settings, clock: FakeClock) -> None:
    """Another model re-embeds everything (`reindex`); until then the old model's vectors are
    searched, or words when it cannot be loaded (here: an injected model, gone), and once the
    new one serves the old one's vectors go."""
    wide, narrow = HashingEmbedder(256), HashingEmbedder(64)
    async with open_kit(settings, clock, wide) as kit:
        rows = await seed(kit, clock)
        await kit.settle()

    async with open_kit(settings, clock, narrow) as kit:
        vectors = kit.services.vectors
        assert kit.reindexing and await kit.pending_reindex() == rows
        hits = await kit.search("garden beans")
        assert hits and all(h.cosine is None for h in hits)  # words only until re-embedded
        assert await vectors.backfill() == 0  # a turn's backfill does not re-embed
        done = await kit.reindex()
        assert (done.previous, done.embedded, done.removed) == (wide.model_id, rows, rows)
        assert any(h.cosine is not None for h in await kit.search("garden beans"))
        conv = await kit.services.messages.conversation("owner", "local", "default")
        await kit.services.messages.add(conv, "user", "garden beans are sprouting")
        await kit.settle()
        counts = dict(
            await kit.services.db.fetchall(
                "SELECT model_id, COUNT(*) FROM embeddings GROUP BY model_id"
            )
        )
        assert counts == {narrow.model_id: rows + 1}

    async with open_kit(settings, clock, wide) as kit:
        assert await kit.pending_reindex() == rows + 1  # wide's vectors went: all again
        await kit.reindex()
        (hit, *_) = await kit.search("sprouting")
        assert hit.text == "garden beans are sprouting" and hit.cosine is not None


async def test_without_an_embedder_search_is_lexical_and_nothing_is_pending(
    settings: Settings, clock: FakeClock
) -> None:
    async with open_kit(settings, clock, None) as kit:
        await seed(kit, clock)
        assert not kit.services.vectors.available
        assert await kit.services.vectors.pending_count() == 0
        assert await kit.services.vectors.backfill() == 0
        hits = await kit.search("boiler")
        assert all(h.cosine is None and h.vector_rank is None for h in hits)
        matched = {(h.kind, h.text) for h in hits if h.lexical_rank is not None}
        assert matched == {
            ("fact", "Boiler repair is booked for Friday"),
            ("message", "The boiler is making noise"),
            ("message", "Bea called"),  # the reply, by the words of the turn before it
        }


async def test_a_model_set_after_opening_is_the_one_searched(
    settings: Settings, clock: FakeClock
) -> None:
    """The index and its store share one model: set later (a model that loads after start, a
    benchmark's swap), searching uses it instead of failing on the store's stale copy."""
    async with open_kit(settings, clock, None) as kit:
        rows = await seed(kit, clock)
        kit.services.vectors.embedder = HashingEmbedder(128)
        assert await kit.services.vectors.backfill() == rows
        hits = await kit.search("garden beans")
        assert any(h.cosine is not None for h in hits)


async def test_loaded_matrix_grows_with_backfill(kit: Kit, clock: FakeClock) -> None:
    """Rows embedded after a matrix was loaded are searchable without a reload (growth)."""
    s = kit.services
    conv = await s.messages.conversation("owner", "local", "default")
    await s.messages.add(conv, "user", "seed line")
    await kit.settle()
    query = await s.vectors.embed_query("anything")
    assert query is not None
    assert len(await s.vectors.search("owner", "message", query, 1000, -1.0)) == 1
    for i in range(150):
        await s.messages.add(conv, "user", f"line {i}")
    assert await s.vectors.backfill() == 150
    found = await s.vectors.search("owner", "message", query, 1000, -1.0)
    assert len(found) == 151 and len({i for i, _ in found}) == 151


async def test_backfill_respects_its_limit_and_batches(
    settings: Settings, clock: FakeClock
) -> None:
    embedder = HashingEmbedder()
    async with open_kit(settings, clock, embedder) as kit:
        conv = await kit.services.messages.conversation("owner", "local", "default")
        for i in range(10):
            await kit.services.messages.add(conv, "user", f"line {i}")
        assert await kit.services.vectors.backfill(limit=4) == 4
        assert await kit.services.vectors.pending_count() == 6
        assert await kit.services.vectors.backfill() == 6
        assert max(embedder.calls) <= kit.settings.embedding.batch_size


@pytest.mark.stores("postgres")
async def test_postgres_searches_a_large_user_through_the_models_hnsw_index(
    kit: Kit, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past ANN_MIN_ROWS the model's partial HNSW index is built in the database and the
    search can go through it, and forgotten rows do not come back through it."""
    from kit.retrieval import pg_vectors

    monkeypatch.setattr(pg_vectors, "ANN_MIN_ROWS", 50)
    for n in range(80):
        await kit.remember(f"Filler fact number {n} about the weather", category="projects")
    boat = await kit.remember("The boat is called Matilda", category="entities")
    await kit.settle()  # backfill, then the index
    db, embedder = kit.services.db, HashingEmbedder()
    name = pg_vectors.index_name(embedder.model_id)
    definition = await db.scalar("SELECT indexdef FROM pg_indexes WHERE indexname = ?", (name,))
    assert definition is not None and "USING hnsw" in str(definition)
    query = (await embedder.embed(["boat"]))[0]
    cast = f"CAST(vector AS vector({embedder.dim}))"
    # _approximate's statement can use the index (its expression and predicate match): at 81
    # rows the planner would rather sort, so sorting is ruled out
    async with db.transaction() as tx:
        await tx.execute("SET LOCAL enable_sort = off")
        plan = await tx.fetchall(
            "EXPLAIN SELECT item_id FROM embeddings WHERE user_id = ? AND kind = ?"
            f" AND model_id = ? ORDER BY {cast} <=> CAST(? AS vector({embedder.dim})) LIMIT 5",
            ("owner", "fact", embedder.model_id, query),
        )
    assert name in " ".join(str(r[0]) for r in plan)
    assert boat.id in {h.id for h in await kit.search("What is the boat called?")}
    await kit.forget_fact(boat.id, reason="sold it")
    assert boat.id not in {h.id for h in await kit.search("What is the boat called?")}
