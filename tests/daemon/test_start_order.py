"""After a daemon is ready its background work starts in an order (kit/daemon/warm.py `start`,
issue 33): the stored vectors and the embedding model load at once, side by side, and only once
they are in does the warm-up import the model clients' SDKs and fill the caches; the scheduler's
catch-up and the re-embedding wait for the warm-up. At 100k items the vectors used to wait for
the warm-up (the SDK import), and search by meaning served 38.8 s after the start for 4.7 s of
CPU. Event-driven: the model's load is gated, the client's making is recorded."""

from __future__ import annotations

import asyncio
import time
from contextlib import AbstractAsyncContextManager

import pytest

from kit.api import Kit
from kit.app import Services
from kit.clock import FakeClock
from kit.config import Settings
from kit.daemon import warm as warm_module
from kit.daemon.warm import start
from kit.embed.hashing import HashingEmbedder
from kit.embed.lazy import LazyEmbedder
from kit.llm.base import LLMReply, LLMRequest, TextSink
from kit.llm.deferred import DeferredLLM
from kit.llm.fake import FakeLLM
from kit.retrieval.matrices import MatrixVectors
from tests.core.test_lazy_model import GatedModel


class Client:
    async def complete(self, request: LLMRequest, on_text: TextSink | None = None) -> LLMReply:
        return await FakeLLM(default="made").complete(request, on_text)

    async def aclose(self) -> None:
        return None


def daemon_like(services: Services) -> None:
    """As kit/daemon/runner.py sets a Kit up before `start`."""
    services.vectors.model_in_background = True
    services.warmed_up.clear()


async def stop(tasks: list[asyncio.Task[None]]) -> None:
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


async def remembered(
    settings: Settings, clock: FakeClock, *facts: str, category: str = "projects"
) -> None:
    """A memory holding `facts`, with their vectors, for the next open to load."""
    async with Kit.open(
        settings=settings, llm=FakeLLM(), embedder=HashingEmbedder(), clock=clock
    ) as kit:
        for fact in facts:
            await kit.remember(fact, category=category)
        await kit.settle()


def lazily(
    settings: Settings, clock: FakeClock, embedder: LazyEmbedder
) -> AbstractAsyncContextManager[Kit]:
    """The Kit a daemon opens: its model loaded later, by `start`."""
    return Kit.open(
        settings=settings,
        llm=FakeLLM(),
        embedder=embedder,
        clock=clock,
        background=False,
        model_later=True,
    )


async def test_vectors_and_model_load_before_the_warm_up_imports_the_sdk(
    settings: Settings, clock: FakeClock
) -> None:
    await remembered(
        settings, clock, *(f"Filler fact number {n} about the garden" for n in range(4))
    )
    model = GatedModel()
    embedder = LazyEmbedder(HashingEmbedder().model_id, model)
    # What the SDK's import saw of the loads when it ran (in a worker thread).
    seen: list[tuple[bool, bool]] = []
    async with lazily(settings, clock, embedder) as kit:
        s = kit.services
        store = s.vectors.store
        assert isinstance(store, MatrixVectors)

        def make() -> Client:
            seen.append((embedder.model is not None, store.load.done.is_set()))
            return Client()

        client = DeferredLLM(make)
        s.llm_clients = (client,)
        daemon_like(s)
        async with asyncio.TaskGroup() as group:
            tasks = start(s, group, time.perf_counter())
            # Both begin at once: neither waits for the warm-up.
            await model.started.wait()
            await store.load.done.wait()
            assert store.load.loaded == 4
            for _ in range(20):
                await asyncio.sleep(0)  # the warm-up has every chance to run early
            assert not client.ready and seen == []
            assert not s.warmed_up.is_set() and s.vector_search_since is None
            model.gate.set()
            await s.warmed_up.wait()
            assert client.ready and seen == [(True, True)]
            assert s.vector_search_since is not None  # search by meaning serves
            await stop(tasks)


async def test_an_empty_memory_warms_up_without_loading_the_model(
    settings: Settings, clock: FakeClock
) -> None:
    """Nothing to search: the warm-up does not wait for a model nobody asked for."""
    model = GatedModel()
    made: list[Client] = []
    async with lazily(settings, clock, LazyEmbedder(HashingEmbedder().model_id, model)) as kit:
        s = kit.services
        s.llm_clients = (DeferredLLM(lambda: made.append(Client()) or made[-1]),)
        daemon_like(s)
        async with asyncio.TaskGroup() as group:
            tasks = start(s, group, time.perf_counter())
            await s.warmed_up.wait()
            assert len(made) == 1 and model.loads == 0
            await stop(tasks)


async def test_a_model_that_fails_to_load_does_not_hold_the_warm_up(
    settings: Settings, clock: FakeClock
) -> None:
    await remembered(settings, clock, "The kettle is in the attic", category="entities")
    model = GatedModel(fails=True)
    async with lazily(settings, clock, LazyEmbedder(HashingEmbedder().model_id, model)) as kit:
        s = kit.services
        daemon_like(s)
        async with asyncio.TaskGroup() as group:
            tasks = start(s, group, time.perf_counter())
            await model.started.wait()
            model.gate.set()
            await s.warmed_up.wait()
            assert (
                s.vectors.embedder is None
            )  # embeddings off, said (tests/core/test_lazy_model.py)
            await stop(tasks)


async def test_a_model_load_that_hangs_holds_the_warm_up_only_so_long(
    settings: Settings, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The warm-up (and the catch-up after it) goes ahead beside a load that never ends."""
    await remembered(settings, clock, "The kettle is in the attic", category="entities")
    monkeypatch.setattr(warm_module, "FIRST_LOADS_WAIT", 0)
    model = GatedModel()  # its gate never opens
    async with lazily(settings, clock, LazyEmbedder(HashingEmbedder().model_id, model)) as kit:
        s = kit.services
        daemon_like(s)
        async with asyncio.TaskGroup() as group:
            tasks = start(s, group, time.perf_counter())
            await s.warmed_up.wait()
            await model.started.wait()  # the load is under way (in any order), and never ends
            assert model.loads == 1 and s.vector_search_since is None
            await stop(tasks)
