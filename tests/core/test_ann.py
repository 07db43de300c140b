"""Big vector matrices search through an HNSW graph (kit/retrieval/ann.py): same neighbours as the
exact scan, exact scores, and nothing added, changed or deactivated since it was built is
missed or ranked by an old vector."""

from __future__ import annotations

import numpy as np
import pytest

from kit.api import Kit
from kit.retrieval import matrix as matrix_module
from kit.retrieval.matrix import Matrix

DIM = 32


def unit(rng: np.random.Generator, n: int) -> np.ndarray:
    rows = rng.normal(size=(n, DIM)).astype(np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


@pytest.fixture
def small_threshold(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(matrix_module, "ANN_MIN_ROWS", 500)
    monkeypatch.setattr(matrix_module, "ANN_MAX_TAIL", 100)


def exact(matrix: Matrix, query: np.ndarray, k: int) -> list[int]:
    scores = matrix.vectors(slice(0, matrix.size)) @ query
    return [int(matrix.ids[i]) for i in np.argsort(-scores)[:k]]


@pytest.mark.usefixtures("small_threshold")
def test_graph_finds_what_the_exact_scan_finds_with_exact_scores() -> None:
    rng = np.random.default_rng(1)
    matrix = Matrix(DIM)
    rows = unit(rng, 3000)
    matrix.upsert(list(range(1, 3001)), rows)
    assert matrix.needs_ann()
    matrix.build_ann()
    assert matrix.ann is not None and not matrix.needs_ann()
    found = 0
    for query in unit(rng, 50):
        hits = matrix.search(query, 15, -1.0)
        truth = exact(matrix, query, 15)
        found += len({i for i, _ in hits} & set(truth))
        for item, score in hits:  # the rows' own cosines (to int8 rounding), not the graph's
            assert score == pytest.approx(float(rows[item - 1] @ query), abs=0.01)
    assert found / (50 * 15) >= 0.95


@pytest.mark.usefixtures("small_threshold")
def test_rows_added_or_changed_after_the_graph_are_ranked_by_their_new_vector() -> None:
    rng = np.random.default_rng(2)
    matrix = Matrix(DIM)
    matrix.upsert(list(range(1, 1001)), unit(rng, 1000))
    matrix.build_ann()
    query = unit(rng, 1)[0]
    matrix.upsert([5000], query[None, :])  # new: not in the graph yet
    assert matrix.search(query, 3, -1.0)[0] == (5000, pytest.approx(1.0, abs=0.01))
    matrix.upsert([7], -query[None, :])  # changed: its old vector is in the graph
    matrix.upsert([5000], -query[None, :])
    matrix.upsert([9], query[None, :])
    hits = matrix.search(query, 1000, -1.0)
    assert hits[0] == (9, pytest.approx(1.0, abs=0.01))
    assert dict(hits).get(7, -1.0) == pytest.approx(-1.0, abs=0.01) or 7 not in dict(hits)
    assert matrix.search(query, 5, 0.3, skip={9})[0][0] != 9


async def test_deactivated_facts_do_not_come_back_through_the_graph(
    kit: Kit, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(matrix_module, "ANN_MIN_ROWS", 50)
    for n in range(120):
        await kit.remember(f"Filler fact number {n} about the weather", category="projects")
    gone = await kit.remember("The boat is called Matilda", category="entities")
    await kit.search("boat")  # loads the matrix
    await kit.settle()  # backfill, then the graph
    s = kit.services
    matrix = s.vectors.store._matrices[("owner", "fact")]
    assert matrix.ann is not None and matrix.ann.upto == matrix.size
    assert gone.id in {h.id for h in await kit.search("What is the boat called?")}
    await kit.forget_fact(gone.id, reason="sold it")
    assert gone.id not in {h.id for h in await kit.search("What is the boat called?")}


def test_the_graph_library_and_the_embedding_runtime_load_together() -> None:
    """usearch 2.26.2+ crashes the process when onnxruntime is imported after it (the order
    Kit loads them in); pyproject pins below that, and this catches an upgrade."""
    import subprocess
    import sys

    code = "import kit.retrieval.ann, onnxruntime; print('ok')"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.returncode
