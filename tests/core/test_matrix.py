"""A layer's matrix (kit/retrieval/matrix.py) keeps what an exact float32 scan finds: on a clustered
archive full of near-duplicates, the 200 candidates Kit keeps hold the exact top 15 and the
outlier a paraphrased question is after (an HNSW graph over the same rows did not), in int8
rows a quarter of float32's size, with cosines within int8 rounding."""

from __future__ import annotations

import numpy as np
import pytest

from kit.retrieval import matrix as matrix_module
from kit.retrieval.matrix import Matrix, cosines, quantise

CANDIDATES = 200  # what the search asks each layer for (RankingParams.candidates)


def clustered(
    seed: int, n: int = 24_000, dim: int = 64, outliers: int = 30
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rows in 40 tight topics with many exact duplicates (short chat lines repeat), a few
    outliers, and per outlier a question that leans towards the everyday topics."""
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(40, dim))
    centres /= np.linalg.norm(centres, axis=1, keepdims=True)
    base = int(n * 0.4)
    distinct = centres[rng.integers(0, 40, base)] + 0.35 * rng.normal(size=(base, dim)) / dim**0.5
    rows = distinct[rng.integers(0, base, n)]
    odd = rng.normal(size=(outliers, dim))
    odd /= np.linalg.norm(odd, axis=1, keepdims=True)
    where = rng.choice(n, outliers, replace=False)
    rows[where] = odd
    rows /= np.linalg.norm(rows, axis=1, keepdims=True)
    lean = centres[rng.integers(0, 40, outliers)]
    questions = 0.75 * odd + 0.6 * lean + 0.25 * rng.normal(size=(outliers, dim)) / dim**0.5
    questions /= np.linalg.norm(questions, axis=1, keepdims=True)
    return rows.astype(np.float32), where, questions.astype(np.float32)


def test_a_clustered_archive_keeps_the_exact_top_15_and_its_outliers() -> None:
    """24k rows: where the int8 HNSW graph (built past 20k rows) kept 0.91 of the exact top
    15 and 3 of 30 outliers that the exact scan ranks in its top 10."""
    rows, where, questions = clustered(seed=0)
    matrix = Matrix(rows.shape[1])
    matrix.upsert(list(range(1, len(rows) + 1)), rows)
    if matrix.needs_ann():  # what background work does after loading
        matrix.build_ann()
    missed: list[int] = []
    for question, outlier in zip(questions, where, strict=True):
        exact = rows @ question
        bar = np.partition(exact, -15)[-15] - 1e-6
        assert exact[outlier] >= bar  # the fixture's premise: the scan ranks it in its top 15
        kept = {item for item, _ in matrix.search(question, CANDIDATES, -1.0)}
        missed += [int(i) for i in np.flatnonzero(exact >= bar) + 1 if int(i) not in kept]
    assert missed == []


def test_rows_are_int8_and_cosines_stay_within_rounding_of_float32() -> None:
    rng = np.random.default_rng(5)
    rows = rng.normal(size=(2000, 384)).astype(np.float32)
    rows /= np.linalg.norm(rows, axis=1, keepdims=True)
    matrix = Matrix(384)
    matrix.upsert(list(range(1, 2001)), rows)
    assert matrix.rows.dtype == np.int8 and matrix.nbytes < rows.nbytes / 3
    query = rows[7]
    hits = dict(matrix.search(query, 2000, -1.0))
    exact = rows @ query
    assert max(abs(hits[i + 1] - exact[i]) for i in range(2000)) < 2e-3
    assert next(iter(hits)) == 8  # the row itself ranks first


def test_quantise_scales_each_row_by_its_largest_component() -> None:
    vectors = np.array([[0.5, -0.25, 0.0], [0.0, 0.0, 0.0], [-0.01, 0.02, 0.005]], np.float32)
    small, scales = quantise(vectors)
    assert small[0].tolist() == [127, -64, 0] and small[1].tolist() == [0, 0, 0]
    assert np.abs(small[2]).max() == 127  # a row of small components keeps its resolution
    assert np.allclose(small * scales[:, None], vectors, atol=scales.max() / 2 + 1e-9)
    assert cosines(small[:0], scales[:0], vectors[0]).shape == (0,)


def test_a_batch_with_an_id_twice_keeps_its_last_vector_once() -> None:
    matrix = Matrix(3)
    matrix.upsert([4, 4], np.array([[1, 0, 0], [0, 1, 0]], np.float32))
    assert matrix.size == 1
    assert matrix.search(np.array([0, 1, 0], np.float32), 5, 0.5)[0][0] == 4


def test_the_row_index_finds_every_row_however_ids_arrive() -> None:
    """Ids in order (a load), out of order (backfill during a load), rewritten in place, past
    several merges of the sorted base: each is found at its row, and absent ids are not."""
    rng = np.random.default_rng(3)
    ids = [
        *range(1, 5001),
        *rng.permutation(np.arange(20_000, 26_000)).tolist(),
        *range(5001, 9001),
    ]
    matrix = Matrix(8)
    for start in range(0, len(ids), 700):
        chunk = ids[start : start + 700]
        matrix.upsert(chunk, rng.normal(size=(len(chunk), 8)).astype(np.float32))
    again = [7, 20_500, 8_999]  # rewritten in place: no new rows
    matrix.upsert(again, rng.normal(size=(3, 8)).astype(np.float32))
    assert matrix.size == len(ids)
    assert [matrix.position(i) for i in ids] == list(range(len(ids)))
    assert [matrix.position(i) for i in (0, 9_001, 19_999, 26_000)] == [-1, -1, -1, -1]
    only = matrix.search(matrix.vectors(slice(0, 1))[0], 3, -1.0, only=[9_000, 20_000, 15_000])
    assert {item for item, _ in only} == {9_000, 20_000}


def test_a_layer_of_a_million_rows_is_scanned_exactly_and_a_graph_comes_at_the_switch() -> None:
    """Measured (bench/sandwich_scale.py, docs/measurements.md): at 500k and 1M rows the exact
    int8 scan keeps every one of the float32 top 15, at a third of the float32 baseline's time,
    where the graph Kit switched to at 500k kept 0.88 of them; so no graph is asked for up to
    1M rows, and one is from `ANN_MIN_ROWS` on."""
    million = 1_000_000
    matrix = Matrix(2, capacity=million)
    rows = np.full((million, 2), np.sqrt(0.5), dtype=np.float32)
    matrix.upsert(range(1, million + 1), rows)
    assert matrix.size == million and not matrix.needs_ann()
    more = matrix_module.ANN_MIN_ROWS - million
    assert more > 0
    matrix.upsert(range(million + 1, million + more + 1), np.resize(rows, (more, 2)))
    assert matrix.size == matrix_module.ANN_MIN_ROWS and matrix.needs_ann()


def test_a_big_scan_split_across_threads_scores_every_row_as_one_scan_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """From SPLIT_ROWS rows a scan runs in parts side by side: the same cosines, in order."""
    rng = np.random.default_rng(5)
    rows = rng.normal(size=(1001, 32)).astype(np.float32)
    rows /= np.linalg.norm(rows, axis=1, keepdims=True)
    small, scales = quantise(rows)
    query = rows[17]
    whole = cosines(small, scales, query)
    monkeypatch.setattr(matrix_module, "SPLIT_ROWS", 100)
    monkeypatch.setattr(matrix_module, "_PARTS", 3)
    split = cosines(small, scales, query)
    assert np.array_equal(whole, split) and int(np.argmax(split)) == 17


def test_a_hundred_thousand_item_archives_messages_are_scanned_in_parts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The 100k archive's 87,600 messages are scanned on both cores (their scan is on a turn's
    critical path; issue 33, round 6), with the cosines of one scan."""
    rng = np.random.default_rng(6)
    small = rng.integers(-127, 128, size=(87_600, 8), dtype=np.int8)
    scales = np.full(87_600, 0.01, dtype=np.float32)
    query = rng.normal(size=8).astype(np.float32)
    query /= np.linalg.norm(query)
    parts: list[int] = []
    dots = matrix_module._dots

    def counted(rows: np.ndarray, q: np.ndarray, out: np.ndarray) -> None:
        parts.append(len(rows))
        dots(rows, q, out)

    monkeypatch.setattr(matrix_module, "_PARTS", 2)
    monkeypatch.setattr(matrix_module, "_dots", counted)
    split = cosines(small, scales, query)
    assert sorted(parts) == [43_800, 43_800]
    monkeypatch.setattr(matrix_module, "SPLIT_ROWS", 10**9)
    assert np.array_equal(cosines(small, scales, query), split)


@pytest.mark.parametrize("parts", [1, 2])
def test_a_scan_holds_its_scores_and_one_scaling_array_and_nothing_more(
    monkeypatch: pytest.MonkeyPatch, parts: int
) -> None:
    """A big scan's parts write into one array of scores, scaled in place: at 1M rows the old
    scan made five arrays of 4 MB a query (the parts' outputs, their concatenation, the
    scaling's two temporaries), each written and read again (issue 33, round 11). Peak
    memory while scoring: the scores and the scales times the query's scale, with the same
    cosines as a row-by-row float product."""
    import tracemalloc

    rng = np.random.default_rng(8)
    n = 200_000
    small = rng.integers(-127, 128, size=(n, 16), dtype=np.int8)
    scales = rng.uniform(0.001, 0.01, n).astype(np.float32)
    query = rng.normal(size=16).astype(np.float32)
    query /= np.linalg.norm(query)
    monkeypatch.setattr(matrix_module, "_PARTS", parts)
    monkeypatch.setattr(matrix_module, "SPLIT_ROWS", 1000)
    cosines(small, scales, query)  # the scanner threads made before memory is counted
    tracemalloc.start()
    try:
        scores = cosines(small, scales, query)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2.2 * 4 * n  # scores + scales * scale; the old split scan: 2.5x
    q_small, q_scale = quantise(query[None, :])
    dots = small.astype(np.float32) @ q_small[0].astype(np.float32)
    assert np.array_equal(scores, dots * (scales * q_scale[0]))
