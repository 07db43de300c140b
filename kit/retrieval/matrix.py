"""One user's vectors of one kind, in memory: a growable int8 matrix scanned exactly, and for
very big ones an approximate index (kit/retrieval/ann.py) over a prefix of its rows. Used by the
SQLite store (kit/retrieval/vectors.py); the graph is built and extended by background work,
never by a turn.

Each row is kept as int8, scaled by its own largest component (a unit vector's components are
a few hundredths: a fixed 1/127 step would keep three bits of them), and a query is quantised
the same way, so a cosine is an integer dot product times two scales: within 0.002 of the
float32 cosine on real MiniLM vectors, a quarter of float32's memory, and a scan of 88k rows
in a few milliseconds (numkong's SIMD integer kernels; it releases the GIL). Measured on a
realistic 100k archive (bench/ann_levers.py, docs/measurements.md): the exact scan keeps
every one of the float32 top 15 among its 200 candidates, where an HNSW graph of any tested
shape kept 0.79-0.92 of them and lost most paraphrased outliers; at 500k and 1M rows
(bench/sandwich_scale.py) the graph kept 0.88 while the int8 scan kept all of them at a third
of a float32 BLAS scan's time. So matrices are scanned exactly up to `ANN_MIN_ROWS`, far above
any one owner's three years of chat. From `first_pass.FIRST_PASS_ROWS` (500k) a layer also
keeps each row's sign bits, and a search scores exactly only the rows nearest by them
(kit/retrieval/first_pass.py): the cosines are the scan's, for an eighth of its reading.
Between `packed.PACKED_ROWS` (65,536) and there a layer keeps its rows packed a second time
for numkong's pre-packed product (kit/retrieval/packed.py): the same dot products, read faster.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Collection, Sequence
from concurrent.futures import ThreadPoolExecutor
from itertools import pairwise
from typing import TYPE_CHECKING

import numkong
import numpy as np
import numpy.typing as npt

from kit.embed.base import Vectors
from kit.retrieval import first_pass, packed

if TYPE_CHECKING:
    from kit.retrieval.ann import Ann  # usearch: imported only when a graph is built or loaded

# Below this many rows a layer is scanned exactly: measured to 1M rows (docs/measurements.md,
# "Vectors at every size"), where the scan keeps the whole exact top 15 and a graph does not;
# the scan's cost is linear, so 2M rows cost twice 1M's. Above it a graph finds the candidates.
ANN_MIN_ROWS = 2_000_000
# From this many rows a scan is split in parts scanned side by side, one per core (up to 4):
# at 1M rows one part's wall time, where a core is free, against the float32 baseline's
# multi-threaded BLAS product (bench/sandwich_scale.py: p95 110 against 224 ms, load 6). The
# 100k archive's 87,600 messages are split too: their scan (~3.5 ms of CPU, reading 34 MB) is
# on a turn's critical path (issue 33, round 6).
SPLIT_ROWS = 65_536
_PARTS = max(1, min(4, os.cpu_count() or 1))
# Rows added (or changed) since the graph was last extended are scanned exactly; past this
# many, background work extends the graph (or rebuilds it, for changed rows).
ANN_MAX_TAIL = 2_000

Int8Rows = npt.NDArray[np.int8]
Scales = npt.NDArray[np.float32]


def quantise(vectors: Vectors) -> tuple[Int8Rows, Scales]:
    """Rows as int8, each scaled so its largest component is ±127, and those scales."""
    vectors = np.asarray(vectors, dtype=np.float32).reshape(len(vectors), -1)
    scales = np.abs(vectors).max(axis=1) / 127
    scales[scales == 0] = 1.0
    small = np.rint(vectors / scales[:, None]).astype(np.int8)
    return small, scales.astype(np.float32)


def cosines(
    rows: Int8Rows, scales: Scales, query: Vectors, blocks: packed.Blocks = ()
) -> npt.NDArray[np.float32]:
    """Each row's cosine with a unit `query` (rows quantised by `quantise`); the rows the
    packed `blocks` hold whole are read from them (kit/retrieval/packed.py)."""
    if len(rows) == 0:
        return np.zeros(0, dtype=np.float32)
    small, scale = quantise(query[None, :])
    # Each part's kernel writes into its slice of one array, scaled in place: at 1M rows the
    # parts' own outputs, their concatenation and two temporaries of the scaling were five
    # arrays of 4 MB a query, written and read again (issue 33, round 11).
    scores: npt.NDArray[np.float32] = np.empty(len(rows), dtype=np.float32)
    if blocks:
        _side_by_side(len(rows), lambda p: _part(rows, small, scores, p, blocks), packed.BLOCK)
    else:
        _side_by_side(len(rows), lambda p: _dots(rows[p], small, scores[p]))
    np.multiply(scores, scales * scale[0], out=scores)  # dots * (scales * scale), as before
    return scores


def _dots(rows: Int8Rows, small: Int8Rows, out: npt.NDArray[np.float32]) -> None:
    """Each row's integer dot product with the quantised query, written into `out`."""
    numkong.cdist(rows, small, metric="dot", out_dtype="float32", out=out.reshape(-1, 1))


def _part(
    rows: Int8Rows,
    small: Int8Rows,
    out: npt.NDArray[np.float32],
    part: slice,
    blocks: packed.Blocks,
) -> None:
    """One part's dot products: the rows whole blocks hold from the blocks, the others (a
    part's edges, the last partial block) from the rows."""
    start, stop = part.start, part.stop
    first, end = packed.covered(blocks, start, stop)
    for a, b in ((start, first), (end, stop)):
        if a < b:
            _dots(rows[a:b], small, out[a:b])
    if first < end:
        packed.dots(blocks, small, out[first:end], first)


def _side_by_side(count: int, work: Callable[[slice], None], align: int = 1) -> None:
    """`work` on every row of `count`: in one call, or from `SPLIT_ROWS` rows in parts side
    by side, one per core (each part starting at a multiple of `align` rows). The kernels
    run outside the GIL: the other parts go to their own threads, so a big scan takes the
    wall time of one part where a core is free (the same CPU)."""
    parts = _PARTS if count >= SPLIT_ROWS else 1
    if parts == 1:
        work(slice(0, count))
        return
    bounds = np.linspace(0, count, parts + 1).astype(int)
    bounds[1:-1] = np.minimum(np.rint(bounds[1:-1] / align).astype(int) * align, count)
    slices = [slice(int(a), int(b)) for a, b in pairwise(bounds)]
    rest = [_scanners().submit(work, p) for p in slices[1:]]
    work(slices[0])
    for part in rest:
        part.result()


def _first_pass(codes: first_pass.Codes, size: int, query: Vectors) -> npt.NDArray[np.int64]:
    """The positions a big layer's search scores exactly: the rows nearest the query by the
    Hamming distance of their sign codes (kit/retrieval/first_pass.py)."""
    small, _ = quantise(query[None, :])
    code = first_pass.sign_codes(small)
    dist = np.empty(size, dtype=np.uint16)
    _side_by_side(size, lambda p: first_pass.distances(codes[:, p], code, dist[p]))
    return first_pass.nearest(dist, first_pass.RESCORED_ROWS)


_scanner_pool: ThreadPoolExecutor | None = None
_scanner_lock = threading.Lock()


def _scanners() -> ThreadPoolExecutor:
    """The threads that scan the other parts of a big matrix (made on first use: most
    processes never hold a layer that big)."""
    global _scanner_pool
    with _scanner_lock:
        if _scanner_pool is None:
            _scanner_pool = ThreadPoolExecutor(_PARTS - 1, thread_name_prefix="kit-scan")
        return _scanner_pool


class RowIndex:
    """Item id -> row position: a sorted base (two int64 arrays, searched by numpy) and a dict
    of the rows added since it was last merged. 16 bytes a row where a dict of Python ints
    took ~90 (8.6 MB for the 100k archive's rows). Read by searches in worker threads while
    the event loop adds: each state is published whole, in one attribute."""

    MERGE = 4096  # rows added before they are merged into the sorted base

    def __init__(self) -> None:
        empty = np.zeros(0, dtype=np.int64)
        self._state: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], dict[int, int]] = (
            empty,
            empty,
            {},
        )

    def positions(self, ids: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """Each id's row position, -1 for an id that is not a row."""
        keys, places, recent = self._state
        out = np.full(len(ids), -1, dtype=np.int64)
        if len(keys) and len(ids):
            at = np.minimum(np.searchsorted(keys, ids), len(keys) - 1)
            hit = keys[at] == ids
            out[hit] = places[at[hit]]
        if recent:
            for i in np.flatnonzero(out < 0).tolist():
                out[i] = recent.get(int(ids[i]), -1)
        return out

    def add(self, ids: Sequence[int], start: int) -> None:
        """New rows: `ids` at positions `start`, `start + 1`, ..."""
        recent = self._state[2]
        for offset, item_id in enumerate(ids):
            recent[int(item_id)] = start + offset
        if len(recent) >= self.MERGE:
            self._merge()

    def _merge(self) -> None:
        keys, places, recent = self._state
        new_keys = np.fromiter(recent, dtype=np.int64, count=len(recent))
        new_places = np.fromiter(recent.values(), dtype=np.int64, count=len(recent))
        keys, places = np.concatenate([keys, new_keys]), np.concatenate([places, new_places])
        if not (len(keys) < 2 or bool(np.all(keys[1:] > keys[:-1]))):  # loads come in order
            order = np.argsort(keys, kind="stable")
            keys, places = keys[order], places[order]
        self._state = (keys, places, {})


class Matrix:
    """Growable int8 matrix with an id -> row index (amortised O(1) appends), and for very big
    ones an approximate index over a prefix of its rows."""

    def __init__(self, dim: int, capacity: int = 0) -> None:
        self.dim = dim
        self.ids = np.zeros(capacity, dtype=np.int64)
        self.rows = np.zeros((capacity, dim), dtype=np.int8)
        self.scales = np.ones(capacity, dtype=np.float32)
        self.size = 0
        self._index = RowIndex()
        self.ann: Ann | None = None
        # Sign codes of the rows (words x capacity), made once the layer reaches
        # `first_pass.FIRST_PASS_ROWS`: a search of it then reads them, not every row.
        self.codes: first_pass.Codes | None = None
        # The rows packed a second time, in blocks, from `packed.PACKED_ROWS` rows until the
        # sign codes take over: the exact scan reads them (kit/retrieval/packed.py).
        self.packed: packed.Blocks = ()
        # Rows rewritten in place since the graph was started: scanned exactly. Replaced,
        # never mutated, so a search in another thread reads one consistent set.
        self._changed: frozenset[int] = frozenset()

    @property
    def nbytes(self) -> int:
        """Memory the rows take (their capacity), their codes and packed copy, graph
        excluded."""
        codes = 0 if self.codes is None else self.codes.nbytes
        copy = sum(block.nbytes for block in self.packed)
        return self.rows.nbytes + self.ids.nbytes + self.scales.nbytes + codes + copy

    def vectors(self, positions: npt.NDArray[np.int64] | slice) -> Vectors:
        """Rows as float32 again (for a graph, and for checks)."""
        floats: Vectors = self.rows[positions].astype(np.float32) * self.scales[positions, None]
        return floats

    def upsert(self, ids: Sequence[int], vectors: Vectors) -> None:
        small, scales = quantise(vectors)
        fresh: dict[int, int] = {}  # new id -> its (last) index in the batch
        known = self._index.positions(_int_array(ids)).tolist()
        rewritten: list[int] = []
        for i, item_id in enumerate(ids):
            pos = known[i]
            if pos < 0:
                fresh[int(item_id)] = i
                continue
            rewritten.append(pos)
            self.rows[pos] = small[i]
            self.scales[pos] = scales[i]
            if self.codes is not None:
                self.codes[:, pos] = first_pass.sign_codes(small[i : i + 1])[:, 0]
            if self.size >= ANN_MIN_ROWS:
                self._changed = self._changed | {pos}
        if self.packed and rewritten:
            self.packed = packed.repacked(self.packed, self.rows, rewritten)
        if fresh:
            index = list(fresh.values())
            self._append(list(fresh), small[index], scales[index])

    def _append(self, ids: Sequence[int], small: Int8Rows, scales: Scales) -> None:
        start, end = self.size, self.size + len(ids)
        if end > len(self.ids):
            # An eighth more: a loaded matrix (sized to its rows) grows by a few MB, not half
            capacity = max(64, end, len(self.ids) + len(self.ids) // 8)
            self.ids = np.resize(self.ids, capacity)
            self.scales = np.resize(self.scales, capacity)
            grown = np.zeros((capacity, self.dim), dtype=np.int8)
            grown[:start] = self.rows[:start]
            self.rows = grown
            if self.codes is not None:
                codes = np.zeros((len(self.codes), capacity), dtype=np.uint64)
                codes[:, :start] = self.codes[:, :start]
                self.codes = codes
        self.ids[start:end] = ids
        self.rows[start:end] = small
        self.scales[start:end] = scales
        if self.codes is not None:
            self.codes[:, start:end] = first_pass.sign_codes(small)
        elif end >= first_pass.FIRST_PASS_ROWS:
            self.codes = self._coded(end)
        if self.codes is not None:
            self.packed = ()  # a search reads the codes and the rows they pick
        elif end >= packed.PACKED_ROWS:
            self.packed = packed.extended(self.packed, self.rows, end)
        self._index.add(ids, start)
        # Last: a search running in another thread sees only complete rows.
        self.size = end

    def _coded(self, end: int) -> first_pass.Codes:
        """Sign codes of the first `end` rows, in an array of the rows' capacity (made a
        chunk at a time: a bool temporary of every row would take as much as the rows)."""
        codes = np.zeros((first_pass.words(self.dim), len(self.ids)), dtype=np.uint64)
        for start in range(0, end, 65_536):
            stop = min(start + 65_536, end)
            codes[:, start:stop] = first_pass.sign_codes(self.rows[start:stop])
        return codes

    def needs_ann(self) -> bool:
        if self.size < ANN_MIN_ROWS:
            return False
        if self.ann is None or len(self._changed) > ANN_MAX_TAIL:
            return True
        return self.size - self.ann.upto > ANN_MAX_TAIL

    def build_ann(self) -> None:
        """Build or extend the graph (blocking: runs in a worker thread)."""
        from kit.retrieval.ann import Ann

        size = self.size
        if self.ann is None or len(self._changed) > ANN_MAX_TAIL:
            self._changed = frozenset()  # rows changed from here on are caught again
            ann = Ann(self.dim)
            ann.extend(self.vectors, self.ids, size)
            self.ann = ann
        else:
            self.ann.extend(self.vectors, self.ids, size)

    def adopt(self, ann: Ann) -> bool:
        """Take a graph saved by an earlier process (blocking: a worker thread). Its items
        that are no longer rows leave it; rows it lacks or holds another vector for are
        scanned exactly, like rows changed since. Returns whether the graph lost items (its
        file should be written again)."""
        size = self.size
        ids = self.ids[:size]
        keys = ann.keys()
        kept = np.isin(keys, ids)
        if not kept.all():
            ann.remove(keys[~kept])
        positions = np.sort(self._index.positions(np.asarray(keys[kept], dtype=np.int64)))
        upto = int(positions[-1]) + 1 if len(positions) else 0
        held = np.zeros(upto, dtype=bool)
        held[positions] = True
        differ = ann.differs(ids[positions], self.vectors(positions))
        self._changed = frozenset(np.flatnonzero(~held).tolist()) | frozenset(
            positions[differ].tolist()
        )
        ann.upto = upto
        self.ann = ann  # last: a search in another thread sees a graph with its exceptions
        return not kept.all()

    def search(
        self,
        query: Vectors,
        k: int,
        threshold: float,
        only: Collection[int] | None = None,
        skip: Collection[int] = (),
    ) -> list[tuple[int, float]]:
        # One consistent view: this runs in a worker thread while backfill may append rows
        # on the event loop (size is published after the row is written, arrays only grow).
        size = self.size
        if size == 0:
            return []
        rows, scales, ids = self.rows[:size], self.scales[:size], self.ids[:size]
        ann, codes, blocks = self.ann, self.codes, self.packed
        positions = None
        if only is not None:
            # Only the rows asked for are scored: a short list costs what it holds.
            positions = self._positions(_int_array(only))
        elif ann is None and codes is not None and size >= first_pass.FIRST_PASS_ROWS:
            # A big layer: the rows nearest by their sign codes, scored exactly (issue 33,
            # round 12); the codes are written before `size` is published.
            positions = _first_pass(codes, size, query)
        elif ann is not None:
            # The graph's candidates, plus every row it has not seen (new or changed since).
            found = self._positions(ann.search(query, k + len(skip)))
            unseen = np.arange(ann.upto, size, dtype=np.int64)
            changed = np.fromiter(self._changed, dtype=np.int64, count=len(self._changed))
            positions = np.unique(np.concatenate([found, unseen, changed]))
        if positions is not None:
            positions = positions[positions < size]
            # `take` copies the rows in half the time of an index (at 1M: ~35,000 rows)
            rows, scales, ids = rows.take(positions, axis=0), scales[positions], ids[positions]
            blocks = ()
        # The blocks whole within this view of the rows (an append may have packed more).
        scores = cosines(rows, scales, query, blocks[: size // packed.BLOCK])
        # Masked before ranking, so excluded items take neither a rank nor a top-k slot.
        if skip:
            scores = np.where(np.isin(ids, _int_array(skip)), -np.inf, scores)
        # Only rows at or above the threshold are ranked (usually a small share of them).
        above = np.flatnonzero(scores >= threshold)
        k = min(k, len(above))
        if k == 0:
            return []
        top = above[np.argpartition(-scores[above], k - 1)[:k]]
        top = top[np.argsort(-scores[top], kind="stable")]
        return [(int(ids[i]), float(scores[i])) for i in top]

    def position(self, item_id: int) -> int:
        """The row of `item_id`, -1 when it is not a row."""
        return int(self._index.positions(np.array([item_id], dtype=np.int64))[0])

    def _positions(self, ids: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """Row positions of the ids that are still rows."""
        found = self._index.positions(np.asarray(ids, dtype=np.int64))
        return found[found >= 0]


def _int_array(values: Collection[int]) -> npt.NDArray[np.int64]:
    return np.fromiter(values, dtype=np.int64, count=len(values))
