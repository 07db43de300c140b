"""A layer of ~100k rows searched through an int4 copy (kit/retrieval/nibbles.py): from
NIBBLE_ROWS rows each row is also kept at four bits a dimension, a search ranks every row by
it and scores exactly, in int8, only the nearest; the results are the exact scan's."""

from __future__ import annotations

import numkong
import numpy as np
import pytest

from kit.retrieval import first_pass, nibbles
from kit.retrieval import matrix as matrix_module
from kit.retrieval.matrix import Matrix, quantise
from kit.retrieval.nibbles import nearest


def unit(rows: np.ndarray) -> np.ndarray:
    rows = np.asarray(rows, dtype=np.float32)
    return rows / np.linalg.norm(rows, axis=-1, keepdims=True)


def layer(rows: np.ndarray) -> Matrix:
    matrix = Matrix(rows.shape[1])
    for start in range(0, len(rows), 256):  # in chunks, as a layer loads
        batch = rows[start : start + 256]
        matrix.upsert(list(range(start + 1, start + len(batch) + 1)), batch)
    return matrix


def exact(matrix: Matrix, query: np.ndarray, k: int, floor: float) -> list[tuple[int, float]]:
    """The same search with the int4 copy hidden: every row scanned."""
    copy, matrix.nibbles = matrix.nibbles, None
    try:
        return matrix.search(query, k, floor)
    finally:
        matrix.nibbles = copy


@pytest.mark.parametrize("dim", [7, 64, 384])
def test_the_copy_packs_each_levels_nibble_low_first_and_numkong_reads_it(dim: int) -> None:
    """Two signed nibbles a byte, the even dimension low (an odd last one beside a zero), the
    level times 7.5/127 rounded and clipped to [-8, 7]; numkong's int4 dot of two copies is
    the dot product of those levels."""
    rng = np.random.default_rng(dim)
    small = rng.integers(-128, 128, size=(300, dim), dtype=np.int8)
    small[0, :2] = [-128, 127]
    levels = np.clip(np.rint(small * (7.5 / 127)), -8, 7).astype(np.int64)
    copy = nibbles.nibbles(small)
    assert copy.shape == (300, nibbles.width(dim))
    low = (copy & 0xF).astype(np.int8)
    high = (copy >> 4).astype(np.int8)
    unpacked = np.stack([np.where(low > 7, low - 16, low), np.where(high > 7, high - 16, high)], 2)
    assert np.array_equal(unpacked.reshape(300, -1)[:, :dim], levels)
    assert unpacked[0, 0].tolist()[:2] == [-8, 7]
    if dim % 2 == 0:
        dots = numkong.cdist(copy, copy[:1], metric="dot", dtype="int4", out_dtype="float32")
        assert np.array_equal(np.asarray(dots).ravel(), levels @ levels[0])


def test_the_nearest_rows_include_every_row_scored_as_high_as_the_last_one() -> None:
    """Ties at the cut are all kept (never split by position), in position order."""
    approx = np.array([0.5, 0.9, 0.7, 0.9, 0.1, 0.7, 0.7, 1.0], dtype=np.float32)
    assert nearest(approx, 2).tolist() == [1, 3, 7]  # 1.0, 0.9, 0.9
    assert nearest(approx, 4).tolist() == [1, 2, 3, 5, 6, 7]  # and the three at 0.7
    assert nearest(approx, 8).tolist() == list(range(8))


def test_a_layer_of_random_rows_reports_the_exact_scans_rows_and_cosines(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Unrelated rows (here from 6,000 rows, 200 rescored for 20 asked): the 20 best rows and
    their cosines are the exact scan's, at the floor and with rows skipped."""
    monkeypatch.setattr(nibbles, "NIBBLE_ROWS", 6_000)
    rng = np.random.default_rng(1)
    rows = unit(rng.normal(size=(6_400, 64)))
    matrix = layer(rows)
    assert matrix.nibbles is not None
    for query in unit(rows[:10] + 0.8 * rng.normal(size=(10, 64)) / 8):
        assert matrix.search(query, 20, 0.1) == exact(matrix, query, 20, 0.1)
    skip = {item for item, _ in exact(matrix, rows[3], 5, 0.1)}
    assert matrix.search(rows[3], 20, 0.1, skip=skip) == matrix.search(
        rows[3], 20, 0.1, skip=skip, only=range(1, 6_401)
    )


def test_near_duplicates_and_exact_repeats_give_the_scans_rows_ties_included(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Topics of near-duplicate rows and a line repeated word for word (the same vector 61
    times, so the k-th cosine is shared by more rows than fit): the same rows as the exact
    scan, the tied ones taken first in position order by both. (Repeats eat the depth: with
    more of them than rows rescored, rows scored higher than them could be missed.)"""
    monkeypatch.setattr(nibbles, "NIBBLE_ROWS", 6_000)
    rng = np.random.default_rng(2)
    centres = unit(rng.normal(size=(20, 64)))
    rows = unit(centres[rng.integers(0, 20, 8_000)] + 0.3 * rng.normal(size=(8_000, 64)) / 8)
    rows[rng.choice(8_000, 60, replace=False)] = rows[17]  # one line said 60 more times
    matrix = layer(rows)
    for query in [rows[17], *unit(centres[:8] + 0.3 * rng.normal(size=(8, 64)) / 8)]:
        found = matrix.search(query, 50, 0.2)
        assert found == exact(matrix, query, 50, 0.2)
    repeats = matrix.search(rows[17], 50, 0.2)
    tied = np.flatnonzero((rows == rows[17]).all(axis=1)) + 1
    assert [item for item, _ in repeats] == tied[:50].tolist()


def test_below_the_threshold_every_row_is_scanned_and_from_it_only_the_nearest(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The switch: a layer one row short of NIBBLE_ROWS holds no copy and its scan scores
    every row; at NIBBLE_ROWS it holds one and scores a 32nd of the rows (at least 8 a result
    asked); from FIRST_PASS_ROWS the sign codes take over and the copy is let go."""
    monkeypatch.setattr(nibbles, "NIBBLE_ROWS", 4_000)
    monkeypatch.setattr(first_pass, "FIRST_PASS_ROWS", 8_000)
    monkeypatch.setattr(matrix_module, "SPLIT_ROWS", 10**9)
    scored: list[int] = []
    dots = matrix_module._dots

    def counted(rows: np.ndarray, q: np.ndarray, out: np.ndarray) -> None:
        scored.append(len(rows))
        dots(rows, q, out)

    monkeypatch.setattr(matrix_module, "_dots", counted)
    rows = unit(np.random.default_rng(5).normal(size=(8_000, 32)))
    matrix = layer(rows[:3_999])
    assert matrix.nibbles is None
    matrix.search(rows[0], 10, 0.3)
    assert scored == [3_999]
    matrix.upsert([4_000], rows[3_999:4_000])
    assert matrix.nibbles is not None
    scored.clear()
    found = matrix.search(rows[0], 10, 0.3)
    assert 125 <= scored[0] < 4_000 and found[0][0] == 1
    scored.clear()
    matrix.search(rows[0], 100, 0.3)
    assert 800 <= scored[0] < 4_000
    matrix.upsert(list(range(4_001, 8_001)), rows[4_000:])
    assert matrix.codes is not None and matrix.nibbles is None


def test_the_copy_takes_192_bytes_a_row_at_384_dimensions_and_follows_every_write(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No copy below the threshold (a 16k layer's memory is unchanged); from it one row of
    192 bytes per row of capacity, kept equal to the rows through growth and rewrites."""
    monkeypatch.setattr(nibbles, "NIBBLE_ROWS", 1_000)
    rng = np.random.default_rng(6)
    matrix = Matrix(384, capacity=900)
    matrix.upsert(list(range(1, 901)), unit(rng.normal(size=(900, 384))))
    before = matrix.nbytes
    assert matrix.nibbles is None
    matrix.upsert(list(range(901, 1_101)), unit(rng.normal(size=(200, 384))))  # grows
    assert matrix.nibbles is not None
    capacity = len(matrix.ids)
    assert matrix.nibbles.nbytes == 192 * capacity
    assert matrix.nbytes == before * capacity // 900 + 192 * capacity
    moved = unit(rng.normal(size=(2, 384)))
    matrix.upsert([5, 1_000], moved)  # rewritten in place
    size = matrix.size
    assert np.array_equal(matrix.nibbles[:size], nibbles.nibbles(matrix.rows[:size]))
    small, _ = quantise(moved)
    assert np.array_equal(matrix.rows[[4, 999]], small)
    assert matrix.search(moved[1], 1, 0.3)[0][0] == 1_000
