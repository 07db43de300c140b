"""Approximate nearest neighbours over a very big vector matrix: an HNSW graph (usearch, the only
module importing it; imported only when a matrix reaches `ANN_MIN_ROWS`, kit/retrieval/matrix.py).
Keys are the items' ids, so callers score candidates from their own rows and nothing stale is
ever returned as a score.

A graph is derived state, saved next to the database so a restart does not rebuild it: one
file per user, layer and model, holding the model id, a SHA-256 of the graph and the graph
itself (with the vectors it was built from). A file that is missing, for another model or
dimension, damaged or cut short is not used (`load` says None); what it holds is checked
against the rows by whoever adopts it (kit/retrieval/matrices.py).

The graph holds its vectors as int8 (each component of a unit vector to 1/127). Measured on a
realistic 100k archive of real MiniLM vectors (bench/ann_levers.py, docs/measurements.md),
a graph keeps only 0.79 of the exact top 15 among 200 candidates (0.80 with float32 vectors,
0.86-0.92 with M 32 or a beam of 400) and misses most paraphrased outliers: near-duplicate
chat lines crowd each other's neighbour lists. That is why matrices are scanned exactly up to
`ANN_MIN_ROWS`; the graph is for layers far bigger than one owner's archive.

Chosen by measuring (docs/measurements.md): usearch, hnswlib and faiss-cpu find the same
neighbours at the same speed here; usearch ships wheels for Python 3.11 (hnswlib builds from
source, faiss-cpu is ten times the size and cannot remove items from an HNSW graph).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import threading
from collections.abc import Callable
from pathlib import Path

import numpy as np
import numpy.typing as npt
from usearch.index import Index

log = logging.getLogger(__name__)

CONNECTIVITY = 16
EXPANSION_ADD = 64
EXPANSION_SEARCH = 128
_CHUNK = 512  # rows added per lock hold: a search waits at most one chunk
_MAGIC = b"kit-ann 2\n"  # 1: float32 graphs (rebuilt once, in the background)
# A component the graph stores is within 1/127 of the float it was made from, and one the
# matrix keeps (kit/retrieval/matrix.py) within half its row's step (at most 0.5/127): vectors
# further apart than that, with a margin, were changed since the graph took them.
_QUANTUM = 3 / 127


class Ann:
    def __init__(self, dim: int, index: Index | None = None) -> None:
        if index is None:
            index = Index(
                ndim=dim,
                metric="ip",  # rows are unit length: inner product is cosine
                dtype="i8",
                connectivity=CONNECTIVITY,
                expansion_add=EXPANSION_ADD,
                expansion_search=EXPANSION_SEARCH,
            )
        self._index = index
        self._lock = threading.Lock()
        self.upto = 0  # matrix rows [0, upto) are in the graph (or known not to be)

    def extend(
        self,
        rows: Callable[[slice], npt.NDArray[np.float32]],
        ids: npt.NDArray[np.int64],
        upto: int,
    ) -> None:
        """Add rows [self.upto, upto), as `rows(positions)` gives them as floats, keyed by
        `ids` (blocking: a worker thread)."""
        for start in range(self.upto, upto, _CHUNK):
            end = min(start + _CHUNK, upto)
            keys = ids[start:end].astype(np.uint64)
            vectors = np.ascontiguousarray(rows(slice(start, end)))
            with self._lock:
                self._index.add(keys, vectors, threads=1)
                self.upto = end

    def search(self, query: npt.NDArray[np.float32], k: int) -> npt.NDArray[np.int64]:
        """Ids of (about) the `k` nearest rows, best first. (usearch widens its beam to at
        least `k`, so asking for 200 candidates explores 200.)"""
        with self._lock:
            if len(self._index) == 0:
                return np.zeros(0, dtype=np.int64)
            found = self._index.search(query, min(k, len(self._index)), threads=1)
        return np.asarray(found.keys, dtype=np.int64)

    def keys(self) -> npt.NDArray[np.int64]:
        with self._lock:
            return np.asarray(self._index.keys, dtype=np.int64)

    def vectors(self, ids: npt.NDArray[np.int64]) -> npt.NDArray[np.float32]:
        """The vectors the graph holds for `ids` (all of them must be in it), as floats."""
        with self._lock:
            found = self._index.get(ids.astype(np.uint64), dtype="f32")
        return np.asarray(found, dtype=np.float32).reshape(len(ids), -1)

    def differs(
        self, ids: npt.NDArray[np.int64], rows: npt.NDArray[np.float32]
    ) -> npt.NDArray[np.bool_]:
        """Per id, whether the graph holds another vector than `rows` (beyond rounding)."""
        changed: npt.NDArray[np.bool_] = np.any(np.abs(self.vectors(ids) - rows) > _QUANTUM, axis=1)
        return changed

    def remove(self, ids: npt.NDArray[np.int64]) -> None:
        with self._lock:
            self._index.remove(ids.astype(np.uint64), threads=1)

    def save(self, path: Path, model_id: str) -> None:
        """Write the graph to `path` atomically (blocking: a worker thread)."""
        with self._lock:
            payload = self._index.save()
        assert payload is not None  # no path given: usearch returns the bytes
        header = {
            "model": model_id,
            "dim": int(self._index.ndim),
            "sha256": hashlib.sha256(payload).hexdigest(),
        }
        partial = path.with_name(path.name + ".partial")
        with open(partial, "wb", opener=_private) as out:
            out.write(_MAGIC + json.dumps(header).encode() + b"\n")
            out.write(payload)
            out.flush()
            os.fsync(out.fileno())
        os.replace(partial, path)

    @classmethod
    def load(cls, path: Path, model_id: str, dim: int) -> Ann | None:
        """The graph saved at `path`, or None when there is none usable for this model."""
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:
            log.warning("cannot read %s (%s); the graph is rebuilt", path.name, exc.strerror)
            return None
        payload, problem = _checked(memoryview(data), model_id, dim)
        if payload is not None:
            try:
                return cls(dim, Index.restore(payload, expansion_search=EXPANSION_SEARCH))
            except (RuntimeError, ValueError, TypeError) as exc:
                problem = f"usearch: {exc}"
        log.info("graph file %s not used (%s); it is rebuilt", path.name, problem)
        return None


def saved_keys(path: Path) -> frozenset[int] | None:
    """The ids a saved graph holds vectors for, whatever its model (`kit forget --verify`);
    None when the file cannot be read as a graph."""
    try:
        data = memoryview(path.read_bytes())
    except OSError:
        return None
    header = _header(data)
    if header is None:
        return None
    model, dim = header.get("model"), header.get("dim")
    if not isinstance(model, str) or not isinstance(dim, int):
        return None
    payload, _ = _checked(data, model, dim)
    if payload is None:
        return None
    try:
        index = Index.restore(payload)
    except (RuntimeError, ValueError, TypeError):
        return None
    if index is None:
        return None
    return frozenset(int(k) for k in np.asarray(index.keys, dtype=np.int64))


def _header(data: memoryview) -> dict[str, object] | None:
    if data[: len(_MAGIC)] != _MAGIC:
        return None
    end = bytes(data[: len(_MAGIC) + 4096]).find(b"\n", len(_MAGIC))
    try:
        header = json.loads(bytes(data[len(_MAGIC) : end])) if end > 0 else None
    except ValueError:
        header = None
    return header if isinstance(header, dict) else None


def _checked(data: memoryview, model_id: str, dim: int) -> tuple[memoryview | None, str]:
    """The graph bytes of a saved file, if its header matches them and this model."""
    if data[: len(_MAGIC)] != _MAGIC:
        return None, "not a graph file"
    header = _header(data)
    if header is None:
        return None, "unreadable header"
    end = bytes(data[: len(_MAGIC) + 4096]).find(b"\n", len(_MAGIC))
    payload = data[end + 1 :]
    if header.get("model") != model_id:
        return None, "another model"
    if header.get("dim") != dim:
        return None, "another dimension"
    if header.get("sha256") != hashlib.sha256(payload).hexdigest():
        return None, "damaged or cut short"
    return payload, ""


def _private(path: str, flags: int) -> int:
    return os.open(path, flags, 0o600)
