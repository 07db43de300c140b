"""Approximate nearest neighbours over a big vector matrix: an HNSW graph (usearch, the only
module importing it). Keys are row positions in the matrix it indexes, so callers rescore
candidates exactly from their own rows and nothing stale is ever returned as a score.

Chosen by measuring (README, "Measured memory"): usearch, hnswlib and faiss-cpu find the same
neighbours at the same speed here; usearch ships wheels for Python 3.11 (hnswlib builds from
source, faiss-cpu is ten times the size and cannot remove items from an HNSW graph).
"""

from __future__ import annotations

import threading

import numpy as np
import numpy.typing as npt
from usearch.index import Index

CONNECTIVITY = 16
EXPANSION_ADD = 64
EXPANSION_SEARCH = 128
_CHUNK = 512  # rows added per lock hold: a search waits at most one chunk


class Ann:
    def __init__(self, dim: int) -> None:
        self._index = Index(
            ndim=dim,
            metric="ip",  # rows are unit length: inner product is cosine
            dtype="f32",
            connectivity=CONNECTIVITY,
            expansion_add=EXPANSION_ADD,
            expansion_search=EXPANSION_SEARCH,
        )
        self._lock = threading.Lock()
        self.upto = 0  # rows [0, upto) are in the graph

    def extend(self, rows: npt.NDArray[np.float32], upto: int) -> None:
        """Add rows [self.upto, upto) of `rows` (blocking; run it in a worker thread)."""
        for start in range(self.upto, upto, _CHUNK):
            end = min(start + _CHUNK, upto)
            keys = np.arange(start, end, dtype=np.uint64)
            with self._lock:
                self._index.add(keys, np.ascontiguousarray(rows[start:end]), threads=1)
                self.upto = end

    def search(self, query: npt.NDArray[np.float32], k: int) -> npt.NDArray[np.int64]:
        """Positions of (about) the `k` nearest rows, best first. (usearch widens its beam
        to at least `k`, so asking for 200 candidates explores 200.)"""
        with self._lock:
            if self.upto == 0:
                return np.zeros(0, dtype=np.int64)
            found = self._index.search(query, min(k, self.upto), threads=1)
        return np.asarray(found.keys, dtype=np.int64)
