"""A daemon has two moments (issue 33): its socket accepts, and search by meaning serves (the
embedding model and the stored vectors are in). Until the second, a turn's record says what
its search went without ("words only: ..."), `Kit.vector_search` says the same, and the
daemon's announcement (kit/daemon/warm.py `announce_serving`) logs the second moment when it
comes and keeps it for `kit status`. Event-driven: the model's load is gated, and the vectors'
load is held on the store's writing lock (as in tests/core/test_vector_loading.py)."""

from __future__ import annotations

import asyncio
import logging
import time

import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.config import Settings
from kit.context.render import render
from kit.daemon.warm import announce_serving
from kit.embed.hashing import HashingEmbedder
from kit.embed.lazy import LazyEmbedder
from kit.llm.fake import FakeLLM
from kit.retrieval import matrices
from kit.retrieval.matrices import MatrixVectors
from tests.core.test_lazy_model import GatedModel


async def test_a_turn_before_search_by_meaning_serves_says_so_and_the_moment_is_announced(
    settings: Settings,
    clock: FakeClock,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(matrices, "LOAD_CHUNK", 1)
    async with Kit.open(
        settings=settings, llm=FakeLLM(), embedder=HashingEmbedder(), clock=clock
    ) as kit:
        for n in range(5):
            await kit.remember(f"Filler fact number {n} about the garden", category="projects")
        await kit.remember("The kettle is in the attic", category="entities")
        await kit.settle()
    model = GatedModel()
    embedder = LazyEmbedder(HashingEmbedder().model_id, model)
    caplog.set_level(logging.INFO)
    async with Kit.open(
        settings=settings,
        llm=FakeLLM(),
        embedder=embedder,
        clock=clock,
        background=False,
        model_later=True,
    ) as kit:
        s = kit.services
        s.vectors.model_in_background = True  # as kit/daemon/runner.py sets it
        store = s.vectors.store
        assert isinstance(store, MatrixVectors)
        announcing = asyncio.create_task(announce_serving(s, time.perf_counter()))
        assert kit.vector_search == "words only: the embedding model is not loaded yet"

        # 1. neither the model nor the vectors: the search is lexical, and the turn says so
        loading = asyncio.create_task(s.vectors.load_model())  # memory holds facts: at once
        await model.started.wait()
        assert kit.vector_search == "words only: the embedding model is loading"
        first = await kit.send("Where is the kettle?")
        assert not first.failed
        assert first.vector_search == "words only: the embedding model is loading"
        plan = await kit.context("Where is the kettle?")
        assert plan.report().vector_search == "words only: the embedding model is loading"
        assert "searched on words only: the embedding model is loading" in render(plan.report())

        # 2. the model is in, the vectors are still loading (held after their first chunk)
        model.gate.set()
        await loading
        warming = asyncio.create_task(s.vectors.warm())
        await store.load.started.wait()
        async with store.writing():
            lacking = "words and the vectors loaded so far: vectors loading, 1 of 6"
            assert kit.vector_search == lacking
            second = await kit.send("And the teapot?")
            assert second.vector_search == lacking
            assert not announcing.done() and kit.vector_search_since is None
        await warming

        # 3. both in: the announcement logs the moment and keeps it; turns search by meaning
        await announcing
        assert kit.vector_search == "" and kit.vector_search_since == clock.now()
        third = await kit.send("Where is the kettle?")
        assert third.vector_search == ""
    said = [r.getMessage() for r in caplog.records]
    assert sum("search by meaning serves" in m for m in said) == 1
    assert any("searched memory on words only: the embedding model" in m for m in said)


async def test_a_kit_outside_a_daemon_serves_at_once(kit: Kit) -> None:
    """A command's Kit searches by meaning from the start (its search waits for the model)."""
    await kit.remember("The kettle is in the attic", category="entities")
    turn = await kit.send("Where is the kettle?")
    assert kit.vector_search == "" and turn.vector_search == ""


async def test_embeddings_off_is_said_and_never_announced_as_serving(
    settings: Settings, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="kit.daemon.warm")
    async with Kit.open(
        settings=settings, llm=FakeLLM(), clock=clock, with_embedder=False, background=False
    ) as kit:
        assert kit.vector_search.startswith("words only: embeddings are off")
        await announce_serving(kit.services, time.perf_counter())
        assert kit.vector_search_since is None
    assert any("search by meaning is off" in r.getMessage() for r in caplog.records)
