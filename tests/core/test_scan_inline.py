"""Where a vector scan runs (kit/retrieval/matrices.py): a small one on the event loop, since the
hop to a worker thread and back costs the loop more than the scan (issue 33, round 6); a big one
on a worker thread, where numkong works outside the GIL. The same hits either way."""

from __future__ import annotations

import threading

import pytest

from kit.api import Kit
from kit.retrieval import matrices
from kit.retrieval.matrix import Matrix


@pytest.fixture
def scan_threads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The thread of every matrix scan from here on."""
    seen: list[int] = []
    scan = Matrix.search

    def search(self: Matrix, *args: object, **kwargs: object) -> list[tuple[int, float]]:
        seen.append(threading.get_ident())
        return scan(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Matrix, "search", search)
    return seen


async def _remember(kit: Kit) -> int:
    for n in range(5):
        await kit.remember(f"Filler fact number {n} about the kitchen", category="projects")
    boat = await kit.remember("The boat is called Matilda", category="entities")
    await kit.settle()
    return boat.id


async def test_a_small_layer_is_scanned_on_the_event_loop(
    kit: Kit, scan_threads: list[int]
) -> None:
    boat = await _remember(kit)
    hits = await kit.search("what is the name of my sailing boat", kinds=("fact",))
    assert boat in [h.id for h in hits if h.cosine is not None]
    assert scan_threads and set(scan_threads) == {threading.get_ident()}


async def test_a_big_layer_is_scanned_on_a_worker_thread_with_the_same_hits(
    kit: Kit, scan_threads: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    await _remember(kit)
    query = "what is the name of my sailing boat"
    here = [(h.id, h.cosine) for h in await kit.search(query, kinds=("fact",))]
    monkeypatch.setattr(matrices, "INLINE_ROWS", 0)  # every layer counts as big
    scan_threads.clear()
    there = [(h.id, h.cosine) for h in await kit.search(query, kinds=("fact",))]
    assert there == here
    assert scan_threads and threading.get_ident() not in scan_threads


async def test_the_messages_scan_is_handed_over_before_any_other_layer_is_scanned(
    kit: Kit, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The messages' layer is the big one (88k of the 100k archive's rows): when the query's
    vector is ready its scan goes to its thread first, not after the other layers' scans
    and the passages' search have run on the loop (issue 33, round 18). The same hits."""
    await _remember(kit)
    conv = await kit.services.messages.conversation("owner", "local", "default")
    await kit.services.messages.add(conv, "user", "Matilda needs new sails before spring")
    await kit.settle()
    query = "what is the name of my sailing boat"
    before = [(h.kind, h.id, h.cosine) for h in await kit.search(query)]  # matrices loaded
    scanned: list[str] = []
    store = kit.services.vectors.store
    search = store.search

    async def recorded(user_id: str, kind: str, *args: object) -> list[tuple[int, float]]:
        scanned.append(kind)
        return await search(user_id, kind, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(store, "search", recorded)
    monkeypatch.setattr(matrices, "INLINE_ROWS", 0)  # every layer counts as big
    after = [(h.kind, h.id, h.cosine) for h in await kit.search(query)]
    assert after == before
    assert scanned[0] == "message"
    assert {"fact", "day", "message", "passage"} <= set(scanned)
