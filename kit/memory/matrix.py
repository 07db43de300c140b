"""One user's vectors of one kind, in memory: a growable float32 matrix searched exactly with
numpy, and for big ones an approximate index (kit/memory/ann.py) over a prefix of its rows,
whose candidates are rescored from the matrix. Used by the SQLite store (kit/memory/vectors.py);
the graph is built and extended by background work, never by a turn.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

import numpy as np
import numpy.typing as npt

from kit.embed.base import Vectors
from kit.memory.ann import Ann

# Below this many rows an exact scan takes a millisecond or two: exact, and nothing to build.
ANN_MIN_ROWS = 20_000
# Rows added (or changed) since the graph was last extended are scanned exactly; past this
# many, background work extends the graph (or rebuilds it, for changed rows).
ANN_MAX_TAIL = 2_000


class Matrix:
    """Growable float32 matrix with an id -> row map (amortised O(1) appends), and for big
    ones an approximate index over a prefix of its rows."""

    def __init__(self, dim: int) -> None:
        self.ids = np.zeros(0, dtype=np.int64)
        self.rows = np.zeros((0, dim), dtype=np.float32)
        self.size = 0
        self._pos: dict[int, int] = {}
        self.ann: Ann | None = None
        # Rows rewritten in place since the graph was started: scanned exactly. Replaced,
        # never mutated, so a search in another thread reads one consistent set.
        self._changed: frozenset[int] = frozenset()

    def upsert(self, ids: Sequence[int], vectors: Vectors) -> None:
        for item_id, vector in zip(ids, vectors, strict=True):
            pos = self._pos.get(item_id)
            if pos is None:
                if self.size == len(self.ids):
                    capacity = max(64, 2 * len(self.ids))
                    self.ids = np.resize(self.ids, capacity)
                    grown = np.zeros((capacity, self.rows.shape[1]), dtype=np.float32)
                    grown[: self.size] = self.rows[: self.size]
                    self.rows = grown
                pos = self.size
                self.ids[pos] = item_id
                self.rows[pos] = vector
                self._pos[item_id] = pos
                # Last: a search running in another thread sees only complete rows.
                self.size += 1
            else:
                self.rows[pos] = vector
                if self.size >= ANN_MIN_ROWS:
                    self._changed = self._changed | {pos}

    def needs_ann(self) -> bool:
        if self.size < ANN_MIN_ROWS:
            return False
        if self.ann is None or len(self._changed) > ANN_MAX_TAIL:
            return True
        return self.size - self.ann.upto > ANN_MAX_TAIL

    def build_ann(self) -> None:
        """Build or extend the graph (blocking: runs in a worker thread)."""
        size, rows = self.size, self.rows
        if self.ann is None or len(self._changed) > ANN_MAX_TAIL:
            self._changed = frozenset()  # rows changed from here on are caught again
            ann = Ann(rows.shape[1])
            ann.extend(rows, self.ids, size)
            self.ann = ann
        else:
            self.ann.extend(rows, self.ids, size)

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
        positions = np.sort(
            np.fromiter((self._pos[int(k)] for k in keys[kept]), np.int64, int(kept.sum()))
        )
        upto = int(positions[-1]) + 1 if len(positions) else 0
        held = np.zeros(upto, dtype=bool)
        held[positions] = True
        differ = ann.differs(ids[positions], self.rows[positions])
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
        rows, ids = self.rows[:size], self.ids[:size]
        ann = self.ann
        positions = None
        if ann is not None and only is None:
            # The graph's candidates, plus every row it has not seen (new or changed since),
            # all scored exactly below.
            found = self._positions(ann.search(query, k + len(skip)))
            unseen = np.arange(ann.upto, size, dtype=np.int64)
            changed = np.fromiter(self._changed, dtype=np.int64, count=len(self._changed))
            positions = np.unique(np.concatenate([found, unseen, changed]))
            positions = positions[positions < size]
            rows, ids = rows[positions], ids[positions]
        # einsum, not `@`: a matrix-vector product is memory-bound, and BLAS threads only
        # fight the embedding model and everything else for the cores (measured: 3-10x
        # slower and erratic on a busy 2-core machine; bench/sandwich.py).
        scores: npt.NDArray[np.float32] = np.einsum("ij,j->i", rows, query)
        # Masked before ranking, so excluded items take neither a rank nor a top-k slot.
        if only is not None:
            scores = np.where(np.isin(ids, _int_array(only)), scores, -np.inf)
        if skip:
            scores = np.where(np.isin(ids, _int_array(skip)), -np.inf, scores)
        k = min(k, len(ids))
        if k == 0:
            return []
        top = np.argpartition(-scores, k - 1)[:k]
        top = top[np.argsort(-scores[top])]
        return [(int(ids[i]), float(scores[i])) for i in top if scores[i] >= threshold]

    def _positions(self, ids: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """Row positions of the ids that are still rows."""
        found = np.fromiter((self._pos.get(int(i), -1) for i in ids), np.int64, len(ids))
        return found[found >= 0]


def _int_array(values: Collection[int]) -> npt.NDArray[np.int64]:
    return np.fromiter(values, dtype=np.int64, count=len(values))
