"""The embedding model loads on first use (kit/embed/lazy.py): a daemon's Kit opens without it,
loads it in the background at once when memory holds anything and otherwise when something
first needs it, and a turn meanwhile is answered by word search (the log says so once). A
command's Kit loads it before it is handed over. A model that cannot load turns embeddings off,
once, and nothing fails. Event-driven: each load is gated by an event the test opens."""

from __future__ import annotations

import asyncio
import dataclasses
import logging

import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.config import Settings
from kit.embed.base import Embedder
from kit.embed.fastembed import EmbeddingModelUnavailable
from kit.embed.hashing import HashingEmbedder
from kit.embed.lazy import LazyEmbedder, Notice
from kit.llm.fake import FakeLLM
from tests.support.shared_model import require_model

pytestmark = pytest.mark.stores  # the model and the warm-up read both engines


class GatedModel:
    """A loader for LazyEmbedder: counts its loads, each finishing when `gate` is open."""

    def __init__(self, fails: bool = False) -> None:
        self.gate = asyncio.Event()
        self.started = asyncio.Event()
        self.loads = 0
        self.fails = fails

    async def __call__(self) -> Embedder:
        self.loads += 1
        self.started.set()
        await self.gate.wait()
        if self.fails:
            raise EmbeddingModelUnavailable("embedding.model_path /nowhere has no model.onnx")
        return HashingEmbedder()


def lazy(model: GatedModel) -> LazyEmbedder:
    return LazyEmbedder(HashingEmbedder().model_id, model)


async def test_an_empty_daemon_loads_the_model_only_when_a_turn_asks_and_answers_meanwhile(
    settings: Settings, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    model = GatedModel()
    embedder = lazy(model)
    caplog.set_level(logging.INFO, logger="kit.retrieval.vectors")
    async with Kit.open(
        settings=settings,
        llm=FakeLLM(),
        embedder=embedder,
        clock=clock,
        background=False,
        model_later=True,
    ) as kit:
        vectors = kit.services.vectors
        vectors.model_in_background = True  # as kit/daemon/runner.py sets it
        await kit.settle()  # backfill: nothing to embed, so nothing asks for the model
        assert model.loads == 0 and not embedder.wanted.is_set()

        first = await kit.send("Where did I leave the kettle?")
        second = await kit.send("And the teapot?")
        assert not first.failed and not second.failed  # answered without the model
        assert embedder.wanted.is_set()
        await kit.settle()  # backfill leaves the load to `load_model`: the rows wait for it
        assert model.loads == 0

        loading = asyncio.create_task(vectors.load_model())
        await model.started.wait()
        model.gate.set()
        await loading
        assert model.loads == 1 and embedder.model is not None

        await kit.settle()  # the messages get their vectors now
        hits = await kit.search("kettle", kinds=("message",))
        assert any(h.cosine is not None for h in hits)
    said = [r for r in caplog.records if "model is still loading" in r.getMessage()]
    assert len(said) == 1


async def test_a_daemon_with_memory_loads_the_model_at_once(
    settings: Settings, clock: FakeClock
) -> None:
    async with Kit.open(
        settings=settings, llm=FakeLLM(), embedder=HashingEmbedder(), clock=clock
    ) as kit:
        await kit.remember("The kettle is in the attic", category="entities")
        await kit.settle()
    model = GatedModel()
    embedder = lazy(model)
    async with Kit.open(
        settings=settings,
        llm=FakeLLM(),
        embedder=embedder,
        clock=clock,
        background=False,
        model_later=True,
    ) as kit:
        kit.services.vectors.model_in_background = True
        loading = asyncio.create_task(kit.services.vectors.load_model())
        await model.started.wait()  # nobody asked: memory holds something to search
        model.gate.set()
        await loading
        hits = await kit.search("kettle attic", kinds=("fact",))
        assert [h.cosine is not None for h in hits] == [True]
    assert model.loads == 1


async def test_a_command_opens_kit_with_the_model_loaded(
    settings: Settings, clock: FakeClock
) -> None:
    model = GatedModel()
    model.gate.set()
    embedder = lazy(model)
    async with Kit.open(settings=settings, llm=FakeLLM(), embedder=embedder, clock=clock) as kit:
        assert model.loads == 0  # a given embedder is the caller's to load: it loads on use
        fact = await kit.remember("The boat is called Matilda", category="entities")
        await kit.settle()
        hits = await kit.search("boat", kinds=("fact",))
        assert [(h.id, h.cosine is not None) for h in hits] == [(fact.id, True)]
    assert model.loads == 1  # shared by backfill and the query


async def test_a_model_that_cannot_load_turns_embeddings_off_once_and_nothing_fails(
    settings: Settings, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    model = GatedModel(fails=True)
    model.gate.set()
    embedder = lazy(model)
    caplog.set_level(logging.WARNING, logger="kit.retrieval.vectors")
    async with Kit.open(
        settings=settings,
        llm=FakeLLM(),
        embedder=embedder,
        clock=clock,
        background=False,
        model_later=True,
    ) as kit:
        fact = await kit.remember("The boat is called Matilda", category="entities")
        await kit.settle()  # backfill tries to load it: it fails, embeddings go off
        turn = await kit.send("What is the boat called?")
        assert not turn.failed and fact.id in turn.fact_ids  # found by its words
        hits = await kit.search("boat", kinds=("fact",))
        assert [(h.id, h.cosine) for h in hits] == [(fact.id, None)]
        assert kit.services.vectors.embedder is None
        assert kit.services.embedding_problem is not None
        assert "no model.onnx" in kit.services.embedding_problem
    assert model.loads == 1
    said = [r for r in caplog.records if "embeddings are off" in r.getMessage()]
    assert len(said) == 1


async def test_kit_opens_with_the_configured_model_loaded_and_a_daemon_without_it(
    settings: Settings, clock: FakeClock
) -> None:
    """Commands and the API find the model loaded when Kit is handed over, as before; a
    daemon's Kit (`model_later`) opens without loading it."""
    configured = dataclasses.replace(
        settings,
        embedding=dataclasses.replace(settings.embedding, model_path=str(require_model())),
    )
    async with Kit.open(settings=configured, llm=FakeLLM(), clock=clock) as kit:
        embedder = kit.services.vectors.embedder
        assert isinstance(embedder, LazyEmbedder) and embedder.model is not None
    async with Kit.open(
        settings=configured, llm=FakeLLM(), clock=clock, model_later=True, background=False
    ) as kit:
        embedder = kit.services.vectors.embedder
        assert isinstance(embedder, LazyEmbedder) and embedder.model is None
        assert kit.services.embedding_problem is None


async def test_a_model_path_without_a_model_is_said_at_open_without_loading_anything(
    settings: Settings, clock: FakeClock
) -> None:
    broken = dataclasses.replace(
        settings,
        embedding=dataclasses.replace(settings.embedding, model_path=str(settings.data_dir)),
    )
    async with Kit.open(
        settings=broken, llm=FakeLLM(), clock=clock, model_later=True, background=False
    ) as kit:
        assert kit.services.vectors.embedder is None
        assert "no model.onnx" in (kit.services.embedding_problem or "")


async def test_any_error_while_loading_is_a_failure_said_once_not_raised() -> None:
    """A daemon loads the model in a task of its TaskGroup: an unexpected error there (a broken
    onnxruntime) must switch embeddings off, not end the daemon."""

    async def broken() -> Embedder:
        raise RuntimeError("onnxruntime: illegal instruction set")

    embedder = LazyEmbedder("some-model", broken)
    told: list[str] = []
    embedder.on_failure(told.append)
    assert await embedder.load() is None
    assert await embedder.load() is None  # tried once: later calls return at once
    assert len(told) == 1 and "RuntimeError: onnxruntime: illegal instruction set" in told[0]
    with pytest.raises(EmbeddingModelUnavailable, match="cannot load embedding model some-model"):
        await embedder.embed(["text"])


async def _one_command(settings: Settings, clock: FakeClock, model: GatedModel) -> None:
    """A command's Kit (its own process in life) that searches, loading the model."""
    model.gate.set()
    notice = Notice(settings.data_dir / "models" / "unavailable.txt")
    embedder = LazyEmbedder(HashingEmbedder().model_id, model, notice)
    async with Kit.open(
        settings=settings, llm=FakeLLM(), embedder=embedder, clock=clock, background=False
    ) as kit:
        vector = await kit.services.vectors.embed_query("coffee")
        assert (vector is None) == model.fails  # a failed load: word search only


async def test_offline_the_warning_is_said_once_not_by_every_command(
    settings: Settings, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    """The README promises the embedding warning once; every command said it again."""
    (settings.data_dir / "models").mkdir(parents=True, exist_ok=True, mode=0o700)
    caplog.set_level(logging.INFO, logger="kit.retrieval.vectors")

    def warned() -> list[int]:
        found = [r.levelno for r in caplog.records if "embeddings are off" in r.getMessage()]
        caplog.clear()
        return found

    await _one_command(settings, clock, GatedModel(fails=True))
    assert warned() == [logging.WARNING]
    for _ in range(2):
        await _one_command(settings, clock, GatedModel(fails=True))
        assert warned() == [logging.INFO]  # in the log file, not on the screen again
    await _one_command(settings, clock, GatedModel())  # it loads: the note is gone
    await _one_command(settings, clock, GatedModel(fails=True))
    assert warned() == [logging.WARNING]  # a new failure is news again
