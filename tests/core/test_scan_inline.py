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
