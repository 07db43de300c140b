"""SQLite's vector store: float32 BLOBs in `embeddings`, searched in per-process matrices.

Each (user, kind) is a matrix (kit/retrieval/matrix.py: int8 rows scanned exactly), read from the
database in id order a chunk at a time (peak memory is one chunk, not the layer twice over)
and kept current by backfill (`stored`). A daemon loads every matrix in the background at
start (`warm`): a search that comes first is answered with the rows loaded so far (lexical
search does the rest), and the log says so once. Without a warm-up (a command, a test) a
matrix loads on its first search, which waits for it.

A matrix of `ANN_MIN_ROWS` or more also gets an HNSW graph (kit/retrieval/ann.py), built and
extended by background work after backfill, never by a turn: until it exists, and for rows
added or changed since, the scan is exact; graph candidates are scored from the matrix, so a
changed row is never ranked by its old vector. Graphs are saved beside the database and
adopted after a restart instead of rebuilt: every vector the saved graph holds is compared
with its row, and rows it lacks or holds differently are scanned exactly like rows changed
since (too many of them, and it is rebuilt). Forgetting deletes the user's saved graphs, so no
forgotten row's vector stays on disk. usearch is imported only when a graph is needed.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Collection, Sequence
from contextlib import AbstractAsyncContextManager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from kit.embed.base import Embedder, Vectors
from kit.errors import StorageError
from kit.files import private_dir
from kit.retrieval.kinds import KINDS, NOTES, PASSAGES, VectorKind, digest
from kit.retrieval.matrix import Matrix
from kit.store.db import Database

log = logging.getLogger(__name__)

# Scans of at most this many rows (a layer, or the rows asked for by id) run on the event loop,
# bigger ones on a worker thread (numkong releases the GIL there). Issue 33, round 6.
INLINE_ROWS = 16_384

LOAD_CHUNK = 256  # rows read at a time while a matrix loads (bigger chunks leave heap behind)


@dataclass
class VectorLoad:
    """Progress of the background load at start (`MatrixVectors.warm`)."""

    total: int = 0  # vectors to load, counted when it started
    loaded: int = 0
    started: asyncio.Event = field(default_factory=asyncio.Event)
    done: asyncio.Event = field(default_factory=asyncio.Event)
    seconds: float = 0.0  # how long it took, once done


class MatrixVectors:
    """SQLite's: vectors as float32 BLOBs, searched in per-process int8 matrices (an exact
    scan, and an HNSW graph for very big ones)."""

    def __init__(self, db: Database, embedder: Embedder | None, graphs: Path | None = None) -> None:
        self._db = db
        self.embedder = embedder
        self._graphs = graphs  # where graphs are saved (None: not saved)
        self._matrices: dict[tuple[str, VectorKind], Matrix] = {}
        self._loading: set[tuple[str, VectorKind]] = set()  # registered, still being filled
        self._lock = asyncio.Lock()  # matrix loads vs backfill writes
        self.load = VectorLoad()
        self._told = False  # a search met a matrix still loading: logged once

    def encode(self, vector: Vectors) -> object:
        return vector.astype(np.float32).tobytes()

    def writing(self) -> AbstractAsyncContextManager[object]:
        # Per batch: a loading matrix waits one batch at most, and a batch one chunk.
        return self._lock

    def stored(self, user_id: str, kind: VectorKind, ids: Sequence[int], vectors: Vectors) -> None:
        matrix = self._matrices.get((user_id, kind))
        if matrix is not None:
            matrix.upsert(ids, vectors)

    async def warm(self) -> None:
        """Load every user's matrices now (background work at daemon start). They are
        registered first, so a search from here on never loads one itself: it scans what is
        loaded so far. A failure is logged; the matrices then load on first search."""
        if self.embedder is None:
            self.load.started.set()
            self.load.done.set()
            return
        began = time.perf_counter()
        try:
            await self._register()
            self.load.started.set()
            for key in [k for k in self._matrices if k in self._loading]:
                await self._fill(key, self._matrices[key])
            await self.index_large()
        except Exception:  # background work: the daemon runs on, matrices load on demand
            log.exception("vectors could not be loaded at start; they load on first search")
            for key in self._loading:
                self._matrices.pop(key, None)
        finally:
            self._loading.clear()
            self.load.seconds = time.perf_counter() - began
            self.load.started.set()
            self.load.done.set()
        log.info("vectors loaded: %d in %.1f s", self.load.loaded, self.load.seconds)

    async def _register(self) -> None:
        """A matrix for every layer of every user with vectors, empty until filled. Under
        the writing lock: a batch backfill commits later reaches them through `stored`."""
        assert self.embedder is not None
        model = self.embedder.model_id
        async with self._lock:
            counts = await self._db.fetchall(
                "SELECT user_id, kind, COUNT(*) FROM embeddings WHERE model_id = ?"
                " GROUP BY user_id, kind",
                (model,),
            )
            found = {(str(r[0]), str(r[1])): int(r[2]) for r in counts}
            # The length of the stored vectors: the model itself may still be loading.
            size = await self._db.scalar(
                "SELECT length(vector) FROM embeddings WHERE model_id = ? LIMIT 1", (model,)
            )
            dim = int(size or 0) // 4  # float32
            for user_id in sorted({user for user, _ in found}):
                for kind in (*KINDS, NOTES, PASSAGES):  # the order they load in: facts first
                    key = (user_id, kind)
                    count = found.get(key, 0)
                    if key in self._matrices:
                        continue
                    self._matrices[key] = Matrix(dim, capacity=count)
                    if count:
                        self._loading.add(key)
                        self.load.total += count

    async def _fill(
        self, key: tuple[str, VectorKind], matrix: Matrix, *, held: bool = False
    ) -> None:
        """Read a matrix's rows in id order (the order backfill appends in, so a saved graph
        matches row for row), a chunk at a time, each under the writing lock; `held`: the
        caller holds it throughout, and registers the matrix once it is full."""
        assert self.embedder is not None
        model, after, count = self.embedder.model_id, 0, LOAD_CHUNK
        try:
            while count == LOAD_CHUNK:
                async with nullcontext() if held else self._lock:
                    if not held and self._matrices.get(key) is not matrix:
                        return  # forgotten, or another model set, meanwhile
                    rows = await self._db.fetchall(
                        "SELECT item_id, vector FROM embeddings WHERE user_id = ? AND kind = ?"
                        " AND model_id = ? AND item_id > ? ORDER BY item_id LIMIT ?",
                        (key[0], key[1], model, after, LOAD_CHUNK),
                    )
                    count = len(rows)
                    if rows:
                        ids = [int(r[0]) for r in rows]
                        blobs = b"".join(r[1] for r in rows)
                        del rows  # one chunk's BLOBs at a time, not two copies of the layer
                        await asyncio.to_thread(_take, matrix, ids, blobs)
                        after = ids[-1]
                        if not held:
                            self.load.loaded += count
        finally:
            self._loading.discard(key)

    async def index_large(self) -> None:
        """Build or extend the approximate index of every loaded matrix that needs one, off
        the event loop. Background work: a turn never waits for it (it scans exactly)."""
        for (user_id, kind), matrix in list(self._matrices.items()):
            if (user_id, kind) not in self._loading and matrix.needs_ann():
                await asyncio.to_thread(self._index_matrix, user_id, kind, matrix)

    def _index_matrix(self, user_id: str, kind: VectorKind, matrix: Matrix) -> None:
        """Adopt the saved graph, or build (or extend) one and save it (blocking)."""
        from kit.retrieval.ann import Ann  # usearch: only for matrices this big

        assert self.embedder is not None
        model_id, path = self.embedder.model_id, self.graph_path(user_id, kind)
        changed = False
        if matrix.ann is None and path is not None:
            saved = Ann.load(path, model_id, matrix.dim)
            if saved is not None:
                changed = matrix.adopt(saved)
        if matrix.needs_ann():
            matrix.build_ann()
            changed = True
        if changed and path is not None and matrix.ann is not None:
            try:
                matrix.ann.save(private_dir(path.parent) / path.name, model_id)
            except (OSError, StorageError) as exc:
                log.warning("cannot save %s (%s); it is rebuilt next start", path.name, exc)

    def graph_path(self, user_id: str, kind: VectorKind) -> Path | None:
        """Where the graph of a user's layer is saved for this model (None: not saved)."""
        if self._graphs is None or self.embedder is None:
            return None
        return self._graphs / f"{digest(user_id)}-{kind}-{digest(self.embedder.model_id)}.usearch"

    async def search(
        self,
        user_id: str,
        kind: VectorKind,
        query: Vectors,
        k: int,
        threshold: float,
        only: Collection[int] | None,
        skip: Collection[int],
    ) -> list[tuple[int, float]]:
        matrix = await self._matrix(user_id, kind, len(query))
        if (user_id, kind) in self._loading and not self._told:
            self._told = True
            log.info(
                "vectors are still loading (%d of %d): searches meanwhile use word search "
                "and the vectors loaded so far",
                self.load.loaded,
                self.load.total,
            )
        # A small scan runs here: the hop to a worker thread and back costs the event loop
        # more than the scan itself (a 16k-row int8 scan is ~0.3 ms; docs/measurements.md).
        scanned = matrix.size if only is None else len(only)
        if scanned <= INLINE_ROWS:  # (a graph is built only for millions of rows)
            return matrix.search(query, k, threshold, only, skip)
        return await asyncio.to_thread(matrix.search, query, k, threshold, only, skip)

    async def _matrix(self, user_id: str, kind: VectorKind, dim: int) -> Matrix:
        """The layer's matrix (of `dim` columns, the query's); loaded now (and waited for)
        unless it exists or is loading in the background."""
        key = (user_id, kind)
        matrix = self._matrices.get(key)
        if matrix is not None:
            return matrix
        assert self.embedder is not None
        async with self._lock:  # backfill's batches wait for the whole load
            matrix = self._matrices.get(key)
            if matrix is None:
                matrix = Matrix(dim)
                await self._fill(key, matrix, held=True)
                self._matrices[key] = matrix  # complete: a search waiting on the lock takes it
        return matrix

    def forget_cache(self, user_id: str | None = None, *, saved: bool = True) -> None:
        """Drop in-memory matrices, and with `saved` the saved graphs (after rows were
        removed): the matrices reload on next search, the graphs are rebuilt without the
        removed rows' vectors. (A model swap keeps them: they are per model.)"""
        for key in list(self._matrices):
            if user_id is None or key[0] == user_id:
                del self._matrices[key]
                self._loading.discard(key)
        if saved and self._graphs is not None and self._graphs.is_dir():
            prefix = "" if user_id is None else digest(user_id) + "-"
            for path in self._graphs.glob(f"{prefix}*.usearch*"):
                path.unlink(missing_ok=True)

    async def dropped(self, model_id: str) -> None:
        if self._graphs is not None and self._graphs.is_dir():
            for path in self._graphs.glob(f"*-{digest(model_id)}.usearch*"):
                path.unlink(missing_ok=True)

    def held(self, user_id: str, kind: VectorKind) -> frozenset[int]:
        matrix = self._matrices.get((user_id, kind))
        if matrix is None:
            return frozenset()
        return frozenset(int(i) for i in matrix.ids[: matrix.size])

    def saved(self, user_id: str) -> list[tuple[VectorKind, Path]]:
        if self._graphs is None or not self._graphs.is_dir():
            return []
        found: list[tuple[VectorKind, Path]] = []
        for path in sorted(self._graphs.glob(f"{digest(user_id)}-*.usearch*")):
            kind = path.name.split("-")[1]
            if kind in (*KINDS, NOTES, PASSAGES):
                found.append((kind, path))
        return found


def _take(matrix: Matrix, ids: list[int], blobs: bytes) -> None:
    """One chunk of float32 BLOBs into the matrix (a worker thread: quantising is numpy)."""
    vectors = np.frombuffer(blobs, dtype=np.float32).reshape(len(ids), -1)
    matrix.upsert(ids, vectors)
