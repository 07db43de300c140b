"""Where a vector scan runs (kit/retrieval/matrices.py): a small one on the event loop, since the
hop to a worker thread and back costs the loop more than the scan (issue 33, round 6); a big one
on a worker thread, where numkong works outside the GIL. The same hits either way."""

from __future__ import annotations

import threading
from datetime import UTC, datetime
from typing import Any

import pytest

from kit.api import Kit
from kit.memory.messages import NewMessage
from kit.retrieval import matrices
from kit.retrieval.kinds import VectorKind
from kit.retrieval.matrices import MatrixVectors
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


async def test_the_messages_scan_starts_before_the_facts_and_days(
    kit: Kit, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The messages' scan is the longest and runs on worker threads: started first when the
    query's vector comes, the facts' and days' scans on the event loop run beside it, not
    before it (issue 33, round 9)."""
    await _remember(kit)
    await kit.import_messages(
        [NewMessage("user", "Matilda needs new sails", datetime(2024, 3, 1, tzinfo=UTC), "Me")],
        conversation="boat",
    )
    await kit.settle()
    kinds: list[str] = []
    search = MatrixVectors.search

    async def record(self: MatrixVectors, user_id: str, kind: VectorKind, *args: Any) -> Any:
        kinds.append(kind)
        return await search(self, user_id, kind, *args)

    monkeypatch.setattr(MatrixVectors, "search", record)
    hits = await kit.search("what is the name of my sailing boat")
    assert {h.kind for h in hits} >= {"fact", "message"}
    assert kinds[0] == "message"
    assert {"fact", "day"} <= set(kinds)
