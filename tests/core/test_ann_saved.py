"""Saved HNSW graphs (kit/retrieval/ann.py, kit/retrieval/vectors.py): a restart adopts the graph
instead of rebuilding it, a stale one is corrected by exact scans or rebuilt, a damaged one is
never used, and forgetting deletes the saved graphs."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.config import Settings
from kit.embed.hashing import HashingEmbedder
from kit.llm.fake import FakeLLM
from kit.retrieval import matrix as matrix_module
from kit.retrieval.ann import Ann
from kit.retrieval.matrices import MatrixVectors
from kit.retrieval.matrix import Matrix

DIM = 32
MODEL = "test-model"


def unit(rng: np.random.Generator, n: int) -> np.ndarray:
    rows = rng.normal(size=(n, DIM)).astype(np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


@pytest.fixture(autouse=True)
def small_threshold(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(matrix_module, "ANN_MIN_ROWS", 500)
    monkeypatch.setattr(matrix_module, "ANN_MAX_TAIL", 100)


def built(rows: np.ndarray, ids: list[int]) -> Matrix:
    matrix = Matrix(DIM)
    matrix.upsert(ids, rows)
    matrix.build_ann()
    return matrix


def exact_top(matrix: Matrix, query: np.ndarray, k: int) -> list[int]:
    scores = matrix.vectors(slice(0, matrix.size)) @ query
    return [int(matrix.ids[i]) for i in np.argsort(-scores)[:k]]


def test_a_saved_graph_is_adopted_whole(tmp_path: Path) -> None:
    rng = np.random.default_rng(1)
    rows = unit(rng, 1000)
    path = tmp_path / "g.usearch"
    built(rows, list(range(1, 1001))).ann.save(path, MODEL)  # type: ignore[union-attr]

    fresh = Matrix(DIM)
    fresh.upsert(list(range(1, 1001)), rows)
    saved = Ann.load(path, MODEL, DIM)
    assert saved is not None
    assert fresh.adopt(saved) is False  # nothing to drop: the file stays as it is
    assert fresh.ann is saved and saved.upto == 1000 and not fresh.needs_ann()
    assert fresh._changed == frozenset()
    found = 0
    for query in unit(rng, 20):
        found += len(
            {i for i, _ in fresh.search(query, 10, -1.0)} & set(exact_top(fresh, query, 10))
        )
    assert found / 200 >= 0.95


def test_a_stale_graph_never_ranks_by_an_old_vector_nor_returns_a_removed_row(
    tmp_path: Path,
) -> None:
    rng = np.random.default_rng(2)
    rows = unit(rng, 1000)
    path = tmp_path / "g.usearch"
    built(rows, list(range(1, 1001))).ann.save(path, MODEL)  # type: ignore[union-attr]

    query = unit(rng, 1)[0]
    now = rows.copy()
    now[6] = -query  # id 7 changed since the graph was saved
    now[8] = query  # id 9 too
    ids = [i for i in range(1, 1001) if i != 500]  # id 500 was forgotten
    keep = np.array([i - 1 for i in ids])
    fresh = Matrix(DIM)
    fresh.upsert([*ids, 2000], np.vstack([now[keep], query[None, :] * 0.99]))  # id 2000 is new
    saved = Ann.load(path, MODEL, DIM)
    assert saved is not None
    assert fresh.adopt(saved) is True  # it lost id 500: to be written again
    assert 500 not in set(saved.keys().tolist())
    assert {fresh.position(7), fresh.position(9)} <= fresh._changed
    hits = dict(fresh.search(query, 1000, -1.0))
    assert hits[9] == pytest.approx(1.0, abs=0.01) and 2000 in hits and 500 not in hits
    assert hits.get(7, -1.0) == pytest.approx(-1.0, abs=0.01)


def test_a_graph_with_too_many_stale_rows_is_rebuilt(tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    path = tmp_path / "g.usearch"
    built(unit(rng, 1000), list(range(1, 1001))).ann.save(path, MODEL)  # type: ignore[union-attr]
    fresh = Matrix(DIM)
    fresh.upsert(list(range(1, 1001)), unit(rng, 1000))  # every row re-embedded since
    saved = Ann.load(path, MODEL, DIM)
    assert saved is not None
    fresh.adopt(saved)
    assert fresh.needs_ann()
    fresh.build_ann()
    assert fresh.ann is not saved and fresh._changed == frozenset()


@pytest.mark.parametrize(
    "damage",
    ["flip a byte", "cut short", "another model", "another dimension", "not a graph", "empty"],
)
def test_a_damaged_or_foreign_graph_file_is_never_used(tmp_path: Path, damage: str) -> None:
    rng = np.random.default_rng(4)
    path = tmp_path / "g.usearch"
    built(unit(rng, 600), list(range(1, 601))).ann.save(path, MODEL)  # type: ignore[union-attr]
    data = bytearray(path.read_bytes())
    model, dim = MODEL, DIM
    if damage == "flip a byte":
        data[len(data) // 2] ^= 0xFF
    elif damage == "cut short":
        data = data[: len(data) * 2 // 3]
    elif damage == "another model":
        model = "other-model"
    elif damage == "another dimension":
        dim = DIM * 2
    elif damage == "not a graph":
        data = bytearray(b"SQLite format 3\x00" + bytes(data[16:]))
    else:
        data = bytearray()
    path.write_bytes(bytes(data))
    assert Ann.load(path, model, dim) is None
    assert Ann.load(tmp_path / "missing.usearch", MODEL, DIM) is None


async def test_a_restart_adopts_the_saved_graph_and_forgetting_deletes_it(
    settings: Settings, fake_llm: FakeLLM, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(matrix_module, "ANN_MIN_ROWS", 60)
    builds: list[int] = []
    build = Matrix.build_ann

    def counted(matrix: Matrix) -> None:
        builds.append(matrix.size)
        build(matrix)

    monkeypatch.setattr(Matrix, "build_ann", counted)

    async def opened() -> Kit:
        return Kit.open(
            settings=settings,
            llm=fake_llm,
            embedder=HashingEmbedder(),
            clock=clock,
            background=False,
        )

    async with await opened() as kit:
        for n in range(80):
            await kit.remember(f"Filler fact number {n} about the garden", category="projects")
        await kit.search("garden")  # loads the matrix
        await kit.settle()  # backfill, then the graph, saved
        store = kit.services.vectors.store
        assert isinstance(store, MatrixVectors)
        path = store.graph_path("owner", "fact")
        assert path is not None and path.exists() and builds == [80]
        assert path.stat().st_mode & 0o077 == 0

    async with await opened() as kit:
        await kit.search("garden")
        await kit.settle()
        store = kit.services.vectors.store
        assert isinstance(store, MatrixVectors)
        matrix = store._matrices[("owner", "fact")]
        assert matrix.ann is not None and matrix.ann.upto == 80
        assert builds == [80]  # adopted, not built again
        kit.services.vectors.embedder = HashingEmbedder()  # a model set later keeps graphs
        assert path.exists()  # (they are per model)
        kit.services.vectors.forget_cache("owner")
        assert not path.exists()


def test_a_float32_graph_saved_by_an_earlier_version_is_rebuilt_not_used(
    tmp_path: Path,
) -> None:
    """Graphs are int8 now: a file of the earlier float32 format is not adopted."""
    path = tmp_path / "g.usearch"
    built(unit(np.random.default_rng(4), 600), list(range(1, 601))).ann.save(  # type: ignore[union-attr]
        path, MODEL
    )
    data = path.read_bytes()
    assert data.startswith(b"kit-ann 2\n")
    path.write_bytes(b"kit-ann 1\n" + data[len(b"kit-ann 2\n") :])
    assert Ann.load(path, MODEL, DIM) is None
