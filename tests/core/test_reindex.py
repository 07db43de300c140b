"""Changing the embedding model re-embeds every memory, resumably, and until that ends searches
use the previous model's vectors (or words), never some of one model and some of another.
The models are two tiny ONNX models the tests write (24 and 40 dimensions), loaded the way an
owner's local model is: `embedding.model_path` with its declared dimension and pooling."""

from __future__ import annotations

import asyncio
import logging
import shutil
import signal
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.config import Settings
from kit.daemon.reindex import reindex as daemon_reindex
from kit.llm.fake import FakeLLM
from tests.support.tiny_onnx import TinyModel, TinyModels

pytestmark = pytest.mark.stores

QUERIES = ("garden beans", "bea sister leeds", "boiler repair friday", "what did we plant")


class Stop(Exception):
    """Stands for a kill between two batches."""


@asynccontextmanager
async def open_kit(settings: Settings, clock: FakeClock) -> AsyncIterator[Kit]:
    async with Kit.open(settings=settings, llm=FakeLLM(), clock=clock, background=False) as kit:
        yield kit


async def seed(kit: Kit, clock: FakeClock) -> int:
    """Facts, messages and a day (7 rows); with batch_size 2, several batches of each."""
    s = kit.services
    await kit.remember("Ana's sister Bea lives in Leeds", category="people")
    await kit.remember("The garden has beans and tomatoes", category="projects")
    await kit.remember("Boiler repair is booked for Friday", category="projects")
    conv = await s.messages.conversation("owner", "local", "default")
    for text in ("We planted beans today", "The boiler is making noise", "Bea called"):
        await s.messages.add(conv, "user", text)
    await s.days.put_detailed("owner", clock.now().date() - timedelta(days=1), "- planted beans", 2)
    return 7


async def rankings(kit: Kit) -> list[list[tuple[str, int, float, float | None]]]:
    out = []
    for query in QUERIES:
        hits = await kit.search(query)
        out.append([(h.kind, h.id, round(h.score, 6), h.cosine) for h in hits])
    return out


async def vector_counts(kit: Kit) -> dict[str, int]:
    rows = await kit.services.db.fetchall(
        "SELECT model_id, COUNT(*) FROM embeddings GROUP BY model_id"
    )
    return {str(r[0]): int(r[1]) for r in rows}


def stop_after(batches: int) -> Any:
    seen = [0]

    def on_batch(count: int) -> None:
        seen[0] += 1
        if seen[0] == batches:
            raise Stop

    return on_batch


async def test_search_uses_the_old_vectors_until_the_reindex_ends_then_the_new_ones(
    settings: Settings, clock: FakeClock, tiny_models: TinyModels, elsewhere: Any
) -> None:
    """A -> B: searches rank exactly as with A until B covers everything (a run stopped after
    one batch included); then exactly as a store embedded with B from the start."""
    a, b = tiny_models.a.settings(settings, batch_size=2), tiny_models.b.settings(settings)
    b = tiny_models.b.settings(settings, batch_size=2)
    async with open_kit(a, clock) as kit:
        rows = await seed(kit, clock)
        await kit.settle()
        before = await rankings(kit)
        model_a = kit.embedding_model
    assert model_a is not None and model_a.startswith("test/tiny@")
    assert any(c is not None for ranked in before for *_, c in ranked)

    async with open_kit(b, clock) as kit:
        assert kit.reindexing and kit.embedding_model == model_a  # A still serves
        progress = await kit.reindex_progress()
        assert progress is not None and (progress.done, progress.total) == (0, rows)
        assert progress.serving == model_a and progress.target != model_a
        assert progress.serving_loads
        assert await rankings(kit) == before
        with pytest.raises(Stop):
            await kit.reindex(on_batch=stop_after(1))
        progress = await kit.reindex_progress()
        assert progress is not None and progress.done == 2
        model_b = progress.target
        assert await vector_counts(kit) == {model_a: rows, model_b: 2}
        assert await rankings(kit) == before  # never B's two vectors beside A's
        conv = await kit.services.messages.conversation("owner", "local", "default")
        await kit.services.messages.add(conv, "user", "the tomatoes are sprouting")
        await kit.settle()  # a turn's backfill: the new row gets A's vector, searched at once
        (hit, *_) = await kit.search("tomatoes sprouting", kinds=("message",))
        assert hit.text == "the tomatoes are sprouting" and hit.cosine is not None

    async with open_kit(b, clock) as kit:  # a restart resumes: only what lacks B's vector
        assert kit.reindexing
        done = await kit.reindex()
        assert (done.previous, done.model, done.embedded) == (model_a, model_b, rows + 1 - 2)
        assert done.removed == rows + 1  # A's vectors went when B began to serve
        assert not kit.reindexing and await kit.reindex_progress() is None
        assert kit.embedding_model == model_b
        assert await vector_counts(kit) == {model_b: rows + 1}
        after = await rankings(kit)

    async with open_kit(tiny_models.b.settings(elsewhere("fresh")), clock) as fresh:
        await seed(fresh, clock)
        conv = await fresh.services.messages.conversation("owner", "local", "default")
        await fresh.services.messages.add(conv, "user", "the tomatoes are sprouting")
        await fresh.settle()
        assert after == await rankings(fresh)
    assert after != before


async def test_words_alone_while_the_old_model_cannot_be_loaded(
    settings: Settings, clock: FakeClock, tiny_models: TinyModels, tmp_path: Path
) -> None:
    """The previous model's folder is gone (or holds another model): searches use words until
    the re-embedding ends, never the new model's first vectors."""
    moved = TinyModel(tmp_path / "a-copy", tiny_models.a.dim)
    shutil.copytree(tiny_models.a.folder, moved.folder)
    async with open_kit(moved.settings(settings, batch_size=2), clock) as kit:
        await seed(kit, clock)
        await kit.settle()
    b = tiny_models.b.settings(settings, batch_size=2)
    shutil.rmtree(moved.folder)
    for swap in ("gone", "another model"):
        if swap == "another model":  # same name and declaration, other bytes: another model
            shutil.copytree(tiny_models.b.folder, moved.folder)
            (moved.folder / "config.json").write_text("{}")
        async with open_kit(b, clock) as kit:
            if swap == "gone":
                with pytest.raises(Stop):
                    await kit.reindex(on_batch=stop_after(1))
            hits = [h for q in QUERIES for h in await kit.search(q)]
            assert hits and all(h.cosine is None and h.vector_rank is None for h in hits)
            progress = await kit.reindex_progress()
            assert progress is not None and not progress.serving_loads and progress.done == 2
    async with open_kit(b, clock) as kit:
        await kit.reindex()
        assert any(h.cosine is not None for h in await kit.search("garden beans"))


async def test_back_to_the_serving_model_gives_the_reindex_up(
    settings: Settings, clock: FakeClock, tiny_models: TinyModels, caplog: pytest.LogCaptureFixture
) -> None:
    a = tiny_models.a.settings(settings, batch_size=2)
    b = tiny_models.b.settings(settings, batch_size=2)
    async with open_kit(a, clock) as kit:
        rows = await seed(kit, clock)
        await kit.settle()
        model_a = kit.embedding_model
    async with open_kit(b, clock) as kit:
        with pytest.raises(Stop):
            await kit.reindex(on_batch=stop_after(1))
    with caplog.at_level(logging.INFO, logger="kit.retrieval.embedding_model"):
        async with open_kit(a, clock) as kit:
            assert not kit.reindexing and kit.embedding_model == model_a
            assert len(await vector_counts(kit)) == 2  # B's first batch, until pruned
            done = await kit.reindex()
            assert (done.previous, done.embedded, done.removed) == (None, 0, 2)
            assert await vector_counts(kit) == {model_a: rows}
    assert "serves again" in caplog.text


async def test_the_change_is_said_once_and_the_daemon_reindexes_in_the_background(
    settings: Settings, clock: FakeClock, tiny_models: TinyModels, caplog: pytest.LogCaptureFixture
) -> None:
    a = tiny_models.a.settings(settings, batch_size=2)
    b = tiny_models.b.settings(settings, batch_size=2)
    async with open_kit(a, clock) as kit:
        rows = await seed(kit, clock)
        await kit.settle()
    with caplog.at_level(logging.INFO):
        async with open_kit(b, clock) as kit:
            target = kit.services.reindex
            assert target is not None
            changed = [r for r in caplog.records if "changed from" in r.getMessage()]
            assert len(changed) == 1 and "re-embedded in the background" in changed[0].message
            warm = asyncio.Event()
            warm.set()
            await daemon_reindex(kit.services, warm)
            assert not kit.reindexing and kit.embedding_model == target.target.model_id
            assert await vector_counts(kit) == {target.target.model_id: rows}
        assert any("re-embedding done" in r.getMessage() for r in caplog.records)
        caplog.clear()
        async with open_kit(b, clock):
            assert not [r for r in caplog.records if "re-embed" in r.getMessage()]


async def test_a_model_that_cannot_load_leaves_search_as_it_was(
    settings: Settings, clock: FakeClock, tiny_models: TinyModels, tmp_path: Path
) -> None:
    """A wrong declaration is an error that says the fix; searches keep the old model."""
    async with open_kit(tiny_models.a.settings(settings), clock) as kit:
        await seed(kit, clock)
        await kit.settle()
        before = await rankings(kit)
    wrong = TinyModel(tiny_models.b.folder, dim=64)  # the folder's vectors are 40 long
    async with open_kit(wrong.settings(settings), clock) as kit:
        from kit.embed.spec import EmbeddingModelUnavailable

        with pytest.raises(EmbeddingModelUnavailable, match=r"embedding\.dimension = 40"):
            await kit.reindex()
        assert await rankings(kit) == before
        progress = await kit.reindex_progress()
        assert progress is not None and progress.problem is not None
        warm = asyncio.Event()
        warm.set()
        await daemon_reindex(kit.services, warm)  # logged, the daemon goes on
        assert kit.reindexing and await rankings(kit) == before


# Runs `Kit.reindex` in a child process and prints once two batches are committed (and how
# many rows they held), then
# blocks in the middle of the run (inside the progress callback) until it is killed.
CHILD = """
import asyncio, sys, time
from pathlib import Path
from kit.api import Kit
from kit.config import ScheduleSettings, Settings, StorageSettings
from kit.embedding_settings import EmbeddingSettings
from kit.llm.fake import FakeLLM

async def main(data_dir, url, folder, dim):
    embedding = EmbeddingSettings(model="test/tiny", model_path=folder, dimension=int(dim),
                                  pooling="mean", batch_size=2)
    settings = Settings(data_dir=Path(data_dir), schedule=ScheduleSettings(timezone="UTC"),
                        storage=StorageSettings(url=url), embedding=embedding)
    async with Kit.open(settings=settings, llm=FakeLLM(), background=False) as kit:
        seen = []
        def on_batch(count):
            seen.append(count)
            if len(seen) == 2:
                print("mid", sum(seen), flush=True)
                time.sleep(600)
        await kit.reindex(on_batch=on_batch)

asyncio.run(main(*sys.argv[1:]))
"""


async def test_a_kill_mid_reindex_resumes_where_it_stopped(
    settings: Settings, clock: FakeClock, tiny_models: TinyModels
) -> None:
    a = tiny_models.a.settings(settings, batch_size=2)
    b = tiny_models.b.settings(settings, batch_size=2)
    async with open_kit(a, clock) as kit:
        rows = await seed(kit, clock)
        await kit.settle()
        before = await rankings(kit)
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        CHILD,
        str(settings.data_dir),
        settings.storage.url,
        str(tiny_models.b.folder),
        str(tiny_models.b.dim),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    assert child.stdout is not None and child.stderr is not None
    try:
        async with asyncio.timeout(120):
            line = await child.stdout.readline()
        said = line.decode().split()
        if said[:1] != ["mid"]:
            error = await child.stderr.read()
            pytest.fail(f"the child did not get midway: {line!r} {error.decode()[-2000:]}")
    finally:
        if child.returncode is None:
            child.send_signal(signal.SIGKILL)
        await child.wait()
    assert child.returncode == -signal.SIGKILL

    async with open_kit(b, clock) as kit:
        progress = await kit.reindex_progress()
        landed = int(said[1])  # the two batches committed before the kill
        assert progress is not None and progress.done == landed and 0 < landed < rows
        assert await rankings(kit) == before
        done = await kit.reindex()
        assert done.embedded == rows - landed and done.previous is not None
        assert await vector_counts(kit) == {progress.target: rows}
        assert await rankings(kit) != before


async def test_the_old_models_approximate_index_goes_and_the_new_one_has_its_dimension(
    settings: Settings, clock: FakeClock, tiny_models: TinyModels, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Big layers are searched through an HNSW index per model (PostgreSQL: a partial index on
    the vector cast to the model's dimension; SQLite: a saved graph): after the switch the old
    model's is gone and the new model's is built for its own dimension."""
    from kit.retrieval import matrix, pg_vectors
    from kit.retrieval.matrices import MatrixVectors

    monkeypatch.setattr(pg_vectors, "ANN_MIN_ROWS", 20)
    monkeypatch.setattr(matrix, "ANN_MIN_ROWS", 20)
    a, b = tiny_models.a.settings(settings), tiny_models.b.settings(settings)

    async def indexes(kit: Kit) -> set[str]:
        store = kit.services.vectors.store
        if isinstance(store, MatrixVectors):
            folder = settings.data_dir / "graphs"
            return {p.name.rsplit("-", 1)[-1].split(".")[0] for p in folder.glob("*.usearch")}
        rows = await kit.services.db.fetchall(
            "SELECT indexname FROM pg_indexes WHERE indexname LIKE 'embeddings_hnsw_%'"
        )
        return {str(r[0]) for r in rows}

    def index_of(kit: Kit, model_id: str) -> str:
        from kit.retrieval.kinds import digest

        if isinstance(kit.services.vectors.store, MatrixVectors):
            return digest(model_id)
        return pg_vectors.index_name(model_id)

    async with open_kit(a, clock) as kit:
        for n in range(30):
            await kit.remember(f"Fact {n}: the garden beans and the tomatoes", category="projects")
        await kit.search("garden")  # SQLite: the matrix is loaded, so its graph is built
        await kit.settle()
        model_a = kit.embedding_model
        assert model_a is not None and await indexes(kit) == {index_of(kit, model_a)}
    async with open_kit(b, clock) as kit:
        done = await kit.reindex()
        assert done.previous == model_a and done.model is not None
        await kit.search("garden")
        await kit.settle()
        assert await indexes(kit) == {index_of(kit, done.model)}
        hits = await kit.search("garden beans", kinds=("fact",))
        assert hits and all(h.cosine is not None for h in hits)


async def test_a_kit_that_records_no_model_writes_no_model_state(
    settings: Settings, clock: FakeClock, tiny_models: TinyModels
) -> None:
    """`kit mcp --read-only` opens with `record_model=False`: a store that never recorded its
    model gets no row then (the state is said as it would be), and the next Kit records it."""
    a = tiny_models.a.settings(settings, batch_size=2)
    async with Kit.open(
        settings=a, llm=FakeLLM(), clock=clock, background=False, record_model=False
    ) as kit:
        assert not kit.reindexing
        assert await kit.services.db.fetchall("SELECT serving FROM vector_models") == []
    async with open_kit(a, clock) as kit:
        rows = await kit.services.db.fetchall("SELECT serving FROM vector_models")
        assert [str(r[0]) for r in rows] == [kit.embedding_model]
