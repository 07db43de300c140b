"""A big layer's first pass (kit/retrieval/first_pass.py): from FIRST_PASS_ROWS rows a search
reads each row's sign bits (48 bytes at 384 dimensions) and scores exactly, in int8, only the
rows nearest by Hamming distance; below it every row is scanned as before. The cosines it
reports are the exact scan's."""

from __future__ import annotations

import numpy as np
import pytest

from kit.retrieval import first_pass
from kit.retrieval import matrix as matrix_module
from kit.retrieval.first_pass import distances, nearest, sign_codes
from kit.retrieval.matrix import Matrix, quantise


def unit(rows: np.ndarray) -> np.ndarray:
    rows = np.asarray(rows, dtype=np.float32)
    return rows / np.linalg.norm(rows, axis=-1, keepdims=True)


def layer(rows: np.ndarray) -> Matrix:
    matrix = Matrix(rows.shape[1])
    matrix.upsert(list(range(1, len(rows) + 1)), rows)
    return matrix


def exact(matrix: Matrix, query: np.ndarray, k: int, floor: float) -> list[tuple[int, float]]:
    """The same search with the codes hidden: every row scanned."""
    codes, matrix.codes = matrix.codes, None
    try:
        return matrix.search(query, k, floor)
    finally:
        matrix.codes = codes


@pytest.mark.parametrize("dim", [8, 100, 384])
def test_hamming_distances_count_the_sign_bits_that_differ(
    monkeypatch: pytest.MonkeyPatch, dim: int
) -> None:
    """Any width (a part word is zero bits on both sides), block by block."""
    rng = np.random.default_rng(dim)
    small = rng.integers(-127, 128, size=(1000, dim), dtype=np.int8)
    query = rng.integers(-127, 128, size=(1, dim), dtype=np.int8)
    want = ((small > 0) != (query > 0)).sum(axis=1)
    monkeypatch.setattr(first_pass, "_BLOCK", 300)
    out = np.empty(1000, dtype=np.uint16)
    distances(sign_codes(small), sign_codes(query), out)
    assert np.array_equal(out, want)
    assert sign_codes(small).shape == ((dim + 63) // 64, 1000)


def test_the_nearest_rows_include_every_row_as_near_as_the_last_one() -> None:
    """Ties at the cut are all kept (never split by position), in position order."""
    dist = np.array([5, 1, 3, 1, 9, 3, 3, 0], dtype=np.uint16)
    assert nearest(dist, 2).tolist() == [1, 3, 7]  # 0, 1, 1
    assert nearest(dist, 4).tolist() == [1, 2, 3, 5, 6, 7]  # and the three at 3
    assert nearest(dist, 8).tolist() == list(range(8))


def test_a_big_layer_reports_the_exact_scans_top_rows_and_cosines(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Rows in topics with near-duplicates: the first pass (here from 5,000 rows, 1,024
    rescored) returns the exact scan's 20 best rows with the same cosines, at the floor."""
    monkeypatch.setattr(first_pass, "FIRST_PASS_ROWS", 5_000)
    monkeypatch.setattr(first_pass, "RESCORED_ROWS", 1_024)
    rng = np.random.default_rng(3)
    centres = unit(rng.normal(size=(30, 64)))
    rows = unit(centres[rng.integers(0, 30, 8_000)] + 0.4 * rng.normal(size=(8_000, 64)) / 8)
    matrix = layer(rows)
    assert matrix.codes is not None
    for query in unit(centres[:10] + 0.3 * rng.normal(size=(10, 64)) / 8):
        assert matrix.search(query, 20, 0.3) == exact(matrix, query, 20, 0.3)


def test_rows_the_code_ranks_below_thirty_thousand_others_are_still_found(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The answer's sign bits differ from the query's in 16 of 64 dimensions, while 30,000
    decoys match every bit at a cosine of ~0.2: only a rescoring depth past the decoys finds
    the answer (16,384 rows rescored would lose it; Kit rescores RESCORED_ROWS)."""
    monkeypatch.setattr(first_pass, "FIRST_PASS_ROWS", 20_000)
    n, dim = 40_000, 64
    rng = np.random.default_rng(4)
    query = unit(np.ones(dim))
    rows = rng.normal(size=(n, dim))  # ~32 bits from the query's: far by the code
    rows[:30_000] = 0.01
    rows[np.arange(30_000), rng.integers(0, dim, 30_000)] = 1.0  # cosine ~0.2, distance 0
    rows[-10:] = 0.3 + 0.01 * rng.random((10, dim))
    rows[-10:, 48:] = -0.01  # cosine ~0.85, distance 16
    matrix = layer(unit(rows))
    assert matrix.codes is not None
    found = matrix.search(query, 10, 0.3)
    assert {item for item, _ in found} == set(range(n - 9, n + 1))
    assert found == exact(matrix, query, 10, 0.3)


def test_below_the_threshold_every_row_is_scanned_and_from_it_only_the_nearest(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The switch: a layer one row short of FIRST_PASS_ROWS holds no codes and its scan
    scores every row; at FIRST_PASS_ROWS it holds codes and scores the rows nearest by them."""
    monkeypatch.setattr(first_pass, "FIRST_PASS_ROWS", 3_000)
    monkeypatch.setattr(first_pass, "RESCORED_ROWS", 500)
    monkeypatch.setattr(matrix_module, "SPLIT_ROWS", 10**9)
    scored: list[int] = []
    dots = matrix_module._dots

    def counted(rows: np.ndarray, q: np.ndarray, out: np.ndarray) -> None:
        scored.append(len(rows))
        dots(rows, q, out)

    monkeypatch.setattr(matrix_module, "_dots", counted)
    rows = unit(np.random.default_rng(5).normal(size=(3_000, 32)))
    matrix = layer(rows[:2_999])
    assert matrix.codes is None
    matrix.search(rows[0], 10, 0.3)
    assert scored == [2_999]
    matrix.upsert([3_000], rows[2_999:])
    assert matrix.codes is not None
    scored.clear()
    found = matrix.search(rows[0], 10, 0.3)
    assert 500 <= scored[0] < 3_000 and found[0][0] == 1


def test_codes_take_48_bytes_a_row_at_384_dimensions_and_follow_every_write(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No codes below the threshold (the memory of a 100k layer is unchanged); from it one
    code per row of capacity, kept equal to the rows' signs through growth and rewrites."""
    monkeypatch.setattr(first_pass, "FIRST_PASS_ROWS", 1_000)
    rng = np.random.default_rng(6)
    matrix = Matrix(384, capacity=900)
    matrix.upsert(list(range(1, 901)), unit(rng.normal(size=(900, 384))))
    before = matrix.nbytes
    assert matrix.codes is None
    matrix.upsert(list(range(901, 1_101)), unit(rng.normal(size=(200, 384))))  # grows
    assert matrix.codes is not None
    capacity = len(matrix.ids)
    assert matrix.codes.nbytes == 48 * capacity
    assert matrix.nbytes == before * capacity // 900 + 48 * capacity
    moved = unit(rng.normal(size=(2, 384)))
    matrix.upsert([5, 1_000], moved)  # rewritten in place
    assert np.array_equal(matrix.codes[:, : matrix.size], sign_codes(matrix.rows[: matrix.size]))
    small, _ = quantise(moved)
    assert np.array_equal(matrix.rows[[4, 999]], small)
    assert matrix.search(moved[1], 1, 0.3)[0][0] == 1_000
