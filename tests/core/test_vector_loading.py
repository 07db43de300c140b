"""Vectors load in the background at daemon start (kit/retrieval/matrices.py): a turn before they
are in is answered with word search and the vectors loaded so far, the log says so once, and
nothing is lost or doubled when backfill writes during the load. Event-driven: the load takes
the store's writing lock for each chunk, and a waiter on that lock goes first (asyncio locks
are fair), so a test that asks for it as the load starts holds the load after one chunk."""

from __future__ import annotations

import asyncio
import logging

import pytest

from kit.api import Kit
from kit.llm.fake import FakeLLM
from kit.retrieval import matrices
from kit.retrieval.matrices import MatrixVectors


def sqlite_store(kit: Kit) -> MatrixVectors:
    store = kit.services.vectors.store
    assert isinstance(store, MatrixVectors)
    return store


async def test_a_turn_during_the_load_is_answered_with_what_is_loaded_and_the_log_says_so_once(
    kit: Kit, fake_llm: FakeLLM, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(matrices, "LOAD_CHUNK", 1)
    for n in range(20):
        await kit.remember(f"Filler fact number {n} about the garden", category="projects")
    boat = await kit.remember("The boat is called Matilda", category="entities")  # loads last
    await kit.settle()
    store = sqlite_store(kit)
    store.forget_cache(saved=False)  # as after a restart: nothing in memory yet
    caplog.set_level(logging.INFO, logger="kit.retrieval.matrices")

    warming = asyncio.create_task(kit.services.vectors.warm())
    await store.load.started.wait()  # counted; its first chunk is being read
    async with store.writing():  # the load waits here after that chunk
        assert store.load.total == 21 and store.load.loaded == 1
        turn = await kit.send("What is the boat called?")
        assert not turn.failed and boat.id in turn.fact_ids  # found by its words
        hits = await kit.search("boat", kinds=("fact",))
        assert [h.cosine for h in hits if h.id == boat.id] == [None]  # no vector yet
    await warming

    said = [r for r in caplog.records if "still loading" in r.getMessage()]
    assert len(said) == 1 and "1 of 21" in said[0].getMessage()
    assert store.load.done.is_set() and store.load.loaded == 21
    hits = await kit.search("boat", kinds=("fact",))
    assert [h.cosine is not None for h in hits if h.id == boat.id] == [True]
    assert len(fake_llm.requests) == 1


async def test_rows_written_while_the_load_runs_are_kept_once(
    kit: Kit, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(matrices, "LOAD_CHUNK", 3)  # several chunks, so backfill lands between
    for n in range(10):
        await kit.remember(f"Old fact number {n} about the shed", category="projects")
    await kit.settle()
    store = sqlite_store(kit)
    store.forget_cache(saved=False)
    warming = asyncio.create_task(kit.services.vectors.warm())
    await store.load.started.wait()
    async with store.writing():  # the load waits after its first chunk
        new = await kit.remember("A new fact about the lighthouse", category="projects")
    await kit.settle()  # its batch lands between two chunks: stored, then read by the load
    await warming
    assert store.load.loaded == 11  # the load read the new row too
    matrix = store._matrices[("owner", "fact")]
    ids = sorted(matrix.ids[: matrix.size].tolist())
    assert ids == sorted({*ids}) and len(ids) == 11 and new.id in ids
    assert new.id in {h.id for h in await kit.search("lighthouse") if h.cosine is not None}


async def test_without_a_warm_up_the_first_search_loads_and_waits(kit: Kit) -> None:
    fact = await kit.remember("The kettle is in the attic", category="entities")
    await kit.settle()
    store = sqlite_store(kit)
    store.forget_cache(saved=False)
    hits = await kit.search("kettle attic")
    assert [h.cosine is not None for h in hits if h.id == fact.id] == [True]
    assert not store.load.started.is_set()  # no background load was asked for
