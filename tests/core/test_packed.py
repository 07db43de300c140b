"""A big layer's rows packed a second time for numkong's pre-packed dot product
(kit/retrieval/packed.py): its scan scores every row as the plain scan of the rows does, bit
for bit, as rows are appended, rewritten and scanned in parts across the blocks' edges."""

from __future__ import annotations

import numpy as np
import pytest

from kit.retrieval import first_pass, packed
from kit.retrieval import matrix as matrix_module
from kit.retrieval.matrix import Matrix, cosines

DIM = 48


@pytest.fixture(autouse=True)
def small_layers(monkeypatch: pytest.MonkeyPatch) -> None:
    """A copy from 10,000 rows in blocks of 8,192, scanned in three parts."""
    monkeypatch.setattr(packed, "PACKED_ROWS", 10_000)
    monkeypatch.setattr(packed, "BLOCK", 8_192)
    monkeypatch.setattr(matrix_module, "SPLIT_ROWS", 1_000)
    monkeypatch.setattr(matrix_module, "_PARTS", 3)


def unit_rows(seed: int, n: int) -> np.ndarray:
    rows = np.random.default_rng(seed).normal(size=(n, DIM)).astype(np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def plain(matrix: Matrix, query: np.ndarray) -> np.ndarray:
    """The layer's cosines by the scan of its rows (no copy)."""
    size = matrix.size
    return cosines(matrix.rows[:size], matrix.scales[:size], query)


def packed_scan(matrix: Matrix, query: np.ndarray) -> np.ndarray:
    size = matrix.size
    blocks = matrix.packed[: size // packed.BLOCK]
    return cosines(matrix.rows[:size], matrix.scales[:size], query, blocks)


def assert_same_scan(matrix: Matrix, seed: int) -> None:
    """Bit for bit the plain scan's cosines, and the same search results."""
    for query in unit_rows(seed, 5):
        expected = plain(matrix, query)
        assert np.array_equal(packed_scan(matrix, query).view(np.int32), expected.view(np.int32))
        found = matrix.search(query, 50, -1.0)
        top = np.argsort(-expected, kind="stable")[:50]
        assert [c for _, c in found] == [float(expected[i]) for i in top]


def test_random_rows_score_as_the_plain_scan_and_the_search_reads_the_copy(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """30,000 rows: three whole blocks packed, the last 5,424 rows scanned as rows."""
    matrix = Matrix(DIM)
    matrix.upsert(range(1, 30_001), unit_rows(1, 30_000))
    assert len(matrix.packed) == 3
    assert_same_scan(matrix, seed=2)
    read: list[int] = []
    dots = packed.dots

    def counted(blocks: packed.Blocks, small: np.ndarray, out: np.ndarray, first: int) -> None:
        read.append(len(out))
        dots(blocks, small, out, first)

    monkeypatch.setattr(packed, "dots", counted)
    matrix.search(unit_rows(3, 1)[0], 10, 0.0)
    assert sum(read) == 3 * packed.BLOCK


def test_appends_pack_only_the_blocks_they_fill() -> None:
    """Rows arriving in batches that cross the threshold and the blocks' edges: each whole
    block is packed once, the blocks packed earlier are kept as they were."""
    matrix = Matrix(DIM)
    rows = unit_rows(4, 40_000)
    seen: dict[int, object] = {}
    for start in range(0, 40_000, 3_001):
        stop = min(start + 3_001, 40_000)
        matrix.upsert(range(start + 1, stop + 1), rows[start:stop])
        expected = stop // packed.BLOCK if stop >= packed.PACKED_ROWS else 0
        assert len(matrix.packed) == expected
        for i, block in enumerate(matrix.packed):
            assert seen.setdefault(i, block) is block
    assert_same_scan(matrix, seed=5)


def test_a_rewritten_row_repacks_its_block_only() -> None:
    matrix = Matrix(DIM)
    matrix.upsert(range(1, 30_001), unit_rows(6, 30_000))
    before = matrix.packed
    new = unit_rows(7, 3)
    # Row 8,200 (block 1), row 8,191 (block 0's last) and row 29,000 (past the blocks).
    matrix.upsert([8_201, 8_192, 29_001], new)
    assert matrix.packed[2] is before[2]
    assert matrix.packed[0] is not before[0] and matrix.packed[1] is not before[1]
    assert_same_scan(matrix, seed=8)
    # The new vectors are what the copy scores: each is its own nearest row.
    for item, vector in zip([8_201, 8_192, 29_001], new, strict=True):
        assert matrix.search(vector, 1, 0.0)[0][0] == item


@pytest.mark.parametrize(
    ("start", "stop"), [(0, 30_000), (100, 20_000), (8_191, 8_193), (8_192, 16_384), (5, 9)]
)
def test_a_part_across_the_blocks_edges_scores_every_row_once(start: int, stop: int) -> None:
    matrix = Matrix(DIM)
    matrix.upsert(range(1, 30_001), unit_rows(9, 30_000))
    small = matrix_module.quantise(unit_rows(10, 1))[0]
    rows = matrix.rows[:30_000]
    expected = np.full(30_000, np.nan, dtype=np.float32)
    matrix_module._dots(rows[start:stop], small, expected[start:stop])
    out = np.full(30_000, np.nan, dtype=np.float32)
    matrix_module._part(rows, small, out, slice(start, stop), matrix.packed)
    assert np.array_equal(out, expected, equal_nan=True)


def test_parts_start_at_a_block_edge(monkeypatch: pytest.MonkeyPatch) -> None:
    """The 100k archive's 87,600 messages on two cores: 40,960 and 46,640 rows (five blocks;
    five and the rest)."""
    monkeypatch.setattr(matrix_module, "_PARTS", 2)
    bounds: list[tuple[int, int]] = []
    matrix_module._side_by_side(87_600, lambda p: bounds.append((p.start, p.stop)), 8_192)
    assert sorted(bounds) == [(0, 40_960), (40_960, 87_600)]


def test_small_layers_keep_no_copy_and_big_ones_hand_it_to_the_sign_codes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(first_pass, "FIRST_PASS_ROWS", 30_000)
    matrix = Matrix(DIM)
    rows = unit_rows(11, 31_000)
    matrix.upsert(range(1, 9_001), rows[:9_000])
    assert matrix.packed == () and matrix.nbytes == 9_000 * (DIM + 8 + 4)
    matrix.upsert(range(9_001, 20_001), rows[9_000:20_000])
    assert len(matrix.packed) == 2
    assert matrix.nbytes > 20_000 * (DIM + 8 + 4) + 2 * packed.BLOCK * DIM
    matrix.upsert(range(20_001, 31_001), rows[20_000:])
    assert matrix.codes is not None and matrix.packed == ()
