"""A big layer's rows packed a second time for numkong's pre-packed dot product
(kit/retrieval/packed.py): its scan scores every row as the plain scan of the rows does, bit
for bit, as rows are appended, rewritten and scanned in parts across the blocks' edges."""

from __future__ import annotations

from itertools import pairwise

import numpy as np
import pytest

from kit.retrieval import first_pass, packed
from kit.retrieval import matrix as matrix_module
from kit.retrieval.matrix import Matrix, cosines

DIM = 48


@pytest.fixture(autouse=True)
def small_layers(monkeypatch: pytest.MonkeyPatch) -> None:
    """A copy from 10,000 rows in prefix blocks of at most 8,192 and small blocks of 2,048,
    scanned in three parts."""
    monkeypatch.setattr(packed, "PACKED_ROWS", 10_000)
    monkeypatch.setattr(packed, "BIG", 8_192)
    monkeypatch.setattr(packed, "SMALL", 2_048)
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
    return cosines(matrix.rows[:size], matrix.scales[:size], query, matrix.packed)


def assert_same_scan(matrix: Matrix, seed: int) -> None:
    """Bit for bit the plain scan's cosines, and the same search results."""
    for query in unit_rows(seed, 5):
        expected = plain(matrix, query)
        assert np.array_equal(packed_scan(matrix, query).view(np.int32), expected.view(np.int32))
        found = matrix.search(query, 50, -1.0)
        top = np.argsort(-expected, kind="stable")[:50]
        assert [c for _, c in found] == [float(expected[i]) for i in top]


def spans(copy: packed.Copy | None) -> list[tuple[int, int]]:
    return [] if copy is None else [(b.start, b.stop) for b in copy.blocks]


def test_random_rows_score_as_the_plain_scan_and_the_search_reads_the_copy(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """30,000 rows at once: packed whole, one block of 5,000 rows a part and a core (six:
    a block holds at most 8,192), every row read from the copy."""
    matrix = Matrix(DIM)
    matrix.upsert(range(1, 30_001), unit_rows(1, 30_000))
    assert spans(matrix.packed) == [(i, i + 5_000) for i in range(0, 30_000, 5_000)]
    assert_same_scan(matrix, seed=2)
    read: list[int] = []
    dots = packed.dots

    def counted(block: packed.Block, small: np.ndarray, out: np.ndarray) -> None:
        read.append(block.stop - block.start)
        dots(block, small, out)

    monkeypatch.setattr(packed, "dots", counted)
    matrix.search(unit_rows(3, 1)[0], 10, 0.0)
    assert sum(read) == 30_000


def test_appends_pack_small_blocks_and_the_whole_copy_again_past_a_quarter(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Rows arriving in batches that cross the threshold and the blocks' edges: the blocks
    packed earlier are kept as they were until the rows past the prefix reach a quarter of
    it; then it is packed again, in whole blocks a part; no more than a small block's rows
    are left unpacked, and the scan stays bit for bit the plain one."""
    packed_rows: list[int] = []
    pack = packed._pack

    def counted(rows: np.ndarray, start: int, stop: int) -> packed.Block:
        packed_rows.append(stop - start)
        return pack(rows, start, stop)

    monkeypatch.setattr(packed, "_pack", counted)
    matrix = Matrix(DIM)
    rows = unit_rows(4, 60_000)
    before: packed.Copy | None = None
    for start in range(0, 60_000, 1_501):
        stop = min(start + 1_501, 60_000)
        matrix.upsert(range(start + 1, stop + 1), rows[start:stop])
        copy = matrix.packed
        if stop < packed.PACKED_ROWS:
            assert copy is None
            continue
        assert copy is not None
        assert spans(copy)[0][0] == 0 and stop - spans(copy)[-1][1] < packed.SMALL
        assert all(a[1] == b[0] for a, b in pairwise(spans(copy)))
        if before is not None and 4 * (stop - before.prefix) < before.prefix:
            assert copy.prefix == before.prefix
            assert copy.blocks[: len(before.blocks)] == before.blocks  # the same objects
        else:
            assert copy.prefix == stop
            assert len(copy.blocks) % 3 == 0
            assert all(b.stop - b.start <= packed.BIG for b in copy.blocks)
        before = copy
        if stop in (10_507, 30_020, 60_000):
            assert_same_scan(matrix, seed=stop)
    assert sum(packed_rows) < 7 * 60_000


def test_a_rewritten_row_repacks_its_block_only() -> None:
    matrix = Matrix(DIM)
    matrix.upsert(range(1, 30_001), unit_rows(6, 30_000))
    matrix.upsert(range(30_001, 35_001), unit_rows(12, 5_000))  # two small blocks, 904 rows
    before = matrix.packed
    assert before is not None and spans(before)[6:] == [(30_000, 32_048), (32_048, 34_096)]
    new = unit_rows(7, 4)
    # Row 5,000 (block 1), row 4,999 (block 0's last), row 32,048 (the second small block)
    # and row 34,500 (past the blocks).
    changed = [5_001, 5_000, 32_049, 34_501]
    matrix.upsert(changed, new)
    after = matrix.packed
    assert after is not None and spans(after) == spans(before)
    kept = [a is b for a, b in zip(after.blocks, before.blocks, strict=True)]
    assert kept == [False, False, True, True, True, True, True, False]
    assert_same_scan(matrix, seed=8)
    # The new vectors are what the copy scores: each is its own nearest row.
    for item, vector in zip(changed, new, strict=True):
        assert matrix.search(vector, 1, 0.0)[0][0] == item


@pytest.mark.parametrize(("size", "more"), [(30_000, 0), (30_000, 5_000), (30_000, 7_400)])
@pytest.mark.parametrize("parts", [1, 2, 3])
def test_the_parts_read_every_row_once_and_cost_alike(size: int, more: int, parts: int) -> None:
    """The parts' blocks and ranges cover every row once; their costs (a `cdist` row at
    `ROW_COST`) differ by less than a small block."""
    matrix = Matrix(DIM)
    matrix.upsert(range(1, size + 1), unit_rows(9, size))
    if more:
        matrix.upsert(range(size + 1, size + more + 1), unit_rows(13, more))
    assert matrix.packed is not None
    plan = packed.plan(matrix.packed, size + more, parts)
    assert len(plan) == parts
    pieces = sorted(
        [(b.start, b.stop) for part in plan for b in part.blocks]
        + [r for part in plan for r in part.ranges]
    )
    assert pieces[0][0] == 0 and pieces[-1][1] == size + more
    assert all(a[1] == b[0] for a, b in pairwise(pieces))
    costs = [
        sum(b.stop - b.start for b in part.blocks)
        + packed.ROW_COST * sum(b - a for a, b in part.ranges)
        for part in plan
    ]
    assert max(costs) - min(costs) <= packed.SMALL
    small = matrix_module.quantise(unit_rows(10, 1))[0]
    rows = matrix.rows[: size + more]
    expected = np.empty(size + more, dtype=np.float32)
    matrix_module._dots(rows, small, expected)
    out = np.full(size + more, np.nan, dtype=np.float32)
    for part in plan:
        matrix_module._part(rows, small, out, part)
    assert np.array_equal(out, expected)


def test_the_archive_s_messages_in_two_equal_parts(monkeypatch: pytest.MonkeyPatch) -> None:
    """The 100k archive's 87,600 messages loaded 256 rows at a time on two cores: packed
    again at 81,920 rows, one 40,960-row block a part and 2,840 rows each by `cdist`."""
    monkeypatch.setattr(packed, "PACKED_ROWS", 65_536)
    monkeypatch.setattr(packed, "BIG", 65_536)
    monkeypatch.setattr(packed, "SMALL", 8_192)
    copy = None
    rows = np.zeros((87_600, 8), dtype=np.int8)
    for stop in range(65_536, 87_600 + 256, 256):
        copy = packed.extended(copy, rows, min(stop, 87_600), 2)
    assert copy is not None and spans(copy) == [(0, 40_960), (40_960, 81_920)]
    plan = packed.plan(copy, 87_600, 2)
    assert [([(b.start, b.stop) for b in p.blocks], p.ranges) for p in plan] == [
        ([(0, 40_960)], [(81_920, 84_760)]),
        ([(40_960, 81_920)], [(84_760, 87_600)]),
    ]


def test_small_layers_keep_no_copy_and_big_ones_hand_it_to_the_sign_codes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(first_pass, "FIRST_PASS_ROWS", 30_000)
    matrix = Matrix(DIM)
    rows = unit_rows(11, 31_000)
    matrix.upsert(range(1, 9_001), rows[:9_000])
    assert matrix.packed is None and matrix.nbytes == 9_000 * (DIM + 8 + 4)
    matrix.upsert(range(9_001, 20_001), rows[9_000:20_000])
    assert matrix.packed is not None and len(matrix.packed.blocks) == 3
    assert matrix.nbytes > 20_000 * (DIM + 8 + 4) + 20_000 * DIM
    matrix.upsert(range(20_001, 31_001), rows[20_000:])
    assert matrix.codes is not None and matrix.packed is None
