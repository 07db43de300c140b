"""The derived vector index: embeddings of every fact, day and message, and their search.

Rows are written without waiting for an embedding; `backfill()` fills in whatever is missing
or stale (keyed by the source row's content hash and the model id), so the whole index can be
rebuilt from the source rows at any time. Where vectors are kept and how they are searched is
the engine's (`VectorStore`): on SQLite, BLOBs searched in memory with numpy, each (user,
kind) an in-memory matrix, loaded on first search and kept current by backfill (below); on
PostgreSQL, pgvector columns searched by the server (kit/memory/postgres/vectors.py).

A matrix (kit/memory/matrix.py) of `ANN_MIN_ROWS` or more also gets an HNSW graph
(kit/memory/ann.py), built and
extended by background work after backfill, never by a turn: until it exists, and for rows
added or changed since, the scan is exact. Graph candidates are rescored from the matrix, so
scores are always exact and a changed row is never ranked by its old vector. Graphs are saved
beside the database and adopted after a restart instead of rebuilt: every vector the saved
graph holds is compared with its row, and rows it lacks or holds differently are scanned
exactly like rows changed since (too many of them, and it is rebuilt). Forgetting deletes the
user's saved graphs, so no forgotten row's vector stays on disk.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Callable, Collection, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol

import numpy as np

from kit.embed.base import Embedder, Vectors
from kit.errors import StorageError
from kit.files import private_dir
from kit.memory.ann import Ann
from kit.memory.db import Database
from kit.memory.matrix import Matrix

log = logging.getLogger(__name__)

Kind = Literal["fact", "day", "message", "note"]
# The layers a turn's context retrieves from; notes (sections of the owner's documents) are
# searched only when asked for (`search_memory`, `kit search`), never put in every prompt.
KINDS: tuple[Kind, ...] = ("fact", "day", "message")
NOTES: Kind = "note"


def _fact_text(row: Sequence[Any]) -> str:
    subject, content = str(row[0]), str(row[1])
    if subject and subject.lower() not in content.lower():
        return f"{subject}: {content}"
    return content


def _day_text(row: Sequence[Any]) -> str:
    day, detailed, condensed = str(row[0]), str(row[1]), str(row[2])
    return f"{day}: {condensed or detailed}"


def _message_text(row: Sequence[Any]) -> str:
    speaker, text = str(row[0]), str(row[1])
    return f"{speaker}: {text}" if speaker else text


def _note_text(row: Sequence[Any]) -> str:
    name, heading, text = str(row[0]), str(row[1]), str(row[2])
    return f"{name} ({heading}): {text}" if heading else f"{name}: {text}"


# Messages are never edited, only added (and deleted with their vectors), so after one full
# sweep per process only rows above the newest vector need a look: a turn's backfill stays
# O(new rows) instead of scanning the whole archive (30 ms per turn at 20k messages).
# Facts and day summaries change in place and are swept whole every time (they are few).
_APPEND_ONLY: frozenset[Kind] = frozenset({"message"})


@dataclass(frozen=True)
class _Source:
    table: str
    columns: str
    text: Callable[[Sequence[Any]], str]


# What each kind embeds. Facts embed even when inactive, so undo needs no re-embedding.
_SOURCES: dict[Kind, _Source] = {
    "fact": _Source("facts", "subject, content", _fact_text),
    "day": _Source("days", "day, detailed, condensed", _day_text),
    "message": _Source("messages", "speaker, text", _message_text),
    "note": _Source("note_chunks", "name, heading, text", _note_text),
}


class VectorStore(Protocol):
    """Where vectors are kept and searched: one implementation per engine (store.py)."""

    embedder: Embedder | None  # whose vectors it holds and searches (set by VectorIndex)

    def encode(self, vector: Vectors) -> object:
        """One vector as the `embeddings.vector` column takes it."""
        ...

    def writing(self) -> AbstractAsyncContextManager[object]:
        """Held while a backfill batch is read, embedded, written and `stored`."""
        ...

    def stored(self, user_id: str, kind: Kind, ids: Sequence[int], vectors: Vectors) -> None:
        """A batch just committed (a per-process cache takes it in)."""
        ...

    async def search(
        self,
        user_id: str,
        kind: Kind,
        query: Vectors,
        k: int,
        threshold: float,
        only: Collection[int] | None,
        skip: Collection[int],
    ) -> list[tuple[int, float]]: ...

    async def index_large(self) -> None:
        """Background work after backfill: build or extend approximate indexes."""
        ...

    def forget_cache(self, user_id: str | None = None, *, saved: bool = True) -> None:
        """Drop what this process keeps of a user's vectors (all users': None), and with
        `saved` what it keeps on disk for them too (after rows were removed)."""
        ...


class MatrixVectors:
    """SQLite's: vectors as float32 BLOBs, searched in per-process matrices (numpy, and an
    HNSW graph for big ones)."""

    def __init__(self, db: Database, embedder: Embedder | None, graphs: Path | None = None) -> None:
        self._db = db
        self.embedder = embedder
        self._graphs = graphs  # where graphs are saved (None: not saved)
        self._matrices: dict[tuple[str, Kind], Matrix] = {}
        self._lock = asyncio.Lock()  # matrix loads vs backfill writes

    def encode(self, vector: Vectors) -> object:
        return vector.astype(np.float32).tobytes()

    def writing(self) -> AbstractAsyncContextManager[object]:
        # Per batch: searches loading a matrix wait one batch at most.
        return self._lock

    def stored(self, user_id: str, kind: Kind, ids: Sequence[int], vectors: Vectors) -> None:
        matrix = self._matrices.get((user_id, kind))
        if matrix is not None:
            matrix.upsert(ids, vectors)

    async def index_large(self) -> None:
        """Build or extend the approximate index of every loaded matrix that needs one, off
        the event loop. Background work: a turn never waits for it (it scans exactly)."""
        for (user_id, kind), matrix in list(self._matrices.items()):
            if matrix.needs_ann():
                await asyncio.to_thread(self._index_matrix, user_id, kind, matrix)

    def _index_matrix(self, user_id: str, kind: Kind, matrix: Matrix) -> None:
        """Adopt the saved graph, or build (or extend) one and save it (blocking)."""
        assert self.embedder is not None
        model_id, path = self.embedder.model_id, self.graph_path(user_id, kind)
        changed = False
        if matrix.ann is None and path is not None:
            saved = Ann.load(path, model_id, self.embedder.dim)
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

    def graph_path(self, user_id: str, kind: Kind) -> Path | None:
        """Where the graph of a user's layer is saved for this model (None: not saved)."""
        if self._graphs is None or self.embedder is None:
            return None
        return self._graphs / f"{_digest(user_id)}-{kind}-{_digest(self.embedder.model_id)}.usearch"

    async def search(
        self,
        user_id: str,
        kind: Kind,
        query: Vectors,
        k: int,
        threshold: float,
        only: Collection[int] | None,
        skip: Collection[int],
    ) -> list[tuple[int, float]]:
        matrix = await self._matrix(user_id, kind)
        return await asyncio.to_thread(matrix.search, query, k, threshold, only, skip)

    async def _matrix(self, user_id: str, kind: Kind) -> Matrix:
        key = (user_id, kind)
        matrix = self._matrices.get(key)
        if matrix is not None:
            return matrix
        async with self._lock:
            matrix = self._matrices.get(key)
            if matrix is not None:
                return matrix
            assert self.embedder is not None
            # In id order: the order backfill appends in, so a saved graph matches row for row.
            rows = await self._db.fetchall(
                "SELECT item_id, vector FROM embeddings WHERE user_id = ? AND kind = ?"
                " AND model_id = ? ORDER BY item_id",
                (user_id, kind, self.embedder.model_id),
            )
            matrix = Matrix(self.embedder.dim)
            if rows:
                vectors = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32)
                matrix.upsert([r[0] for r in rows], vectors.reshape(len(rows), -1))
            self._matrices[key] = matrix
            return matrix

    def forget_cache(self, user_id: str | None = None, *, saved: bool = True) -> None:
        """Drop in-memory matrices, and with `saved` the saved graphs (after rows were
        removed): the matrices reload on next search, the graphs are rebuilt without the
        removed rows' vectors. (A model swap keeps them: they are per model.)"""
        for key in list(self._matrices):
            if user_id is None or key[0] == user_id:
                del self._matrices[key]
        if saved and self._graphs is not None and self._graphs.is_dir():
            prefix = "" if user_id is None else _digest(user_id) + "-"
            for path in self._graphs.glob(f"{prefix}*.usearch*"):
                path.unlink(missing_ok=True)


class VectorIndex:
    def __init__(
        self,
        db: Database,
        embedder: Embedder | None,
        batch_size: int = 64,
        store: VectorStore | None = None,
    ) -> None:
        self._db = db
        self._batch_size = batch_size
        self.store = store or MatrixVectors(db, embedder)
        self.store.embedder = embedder
        self._swept: set[Kind] = set()  # kinds fully swept once by this process

    @property
    def embedder(self) -> Embedder | None:
        """The model queries and backfill use; the store searches the same model's vectors
        (one attribute, so a model loaded or swapped later reaches both)."""
        return self.store.embedder

    @embedder.setter
    def embedder(self, embedder: Embedder | None) -> None:
        self.store.embedder = embedder
        self.store.forget_cache(saved=False)  # cached matrices hold the previous model's vectors

    @property
    def available(self) -> bool:
        return self.embedder is not None

    async def embed_query(self, text: str) -> Vectors | None:
        if self.embedder is None:
            return None
        vectors = await self.embedder.embed([text])
        query: Vectors = vectors[0]
        return query

    async def pending_count(self) -> int:
        if self.embedder is None:
            return 0
        total = 0
        for kind, source in _SOURCES.items():
            total += int(
                await self._db.scalar(
                    f"SELECT COUNT(*) FROM {source.table} s LEFT JOIN embeddings e ON e.kind = ?"
                    " AND e.item_id = s.id AND e.model_id = ?"
                    " WHERE e.item_id IS NULL OR e.content_hash != s.content_hash",
                    (kind, self.embedder.model_id),
                )
            )
        return total

    async def backfill(
        self, limit: int | None = None, *, on_batch: Callable[[int], object] | None = None
    ) -> int:
        """Embed rows whose vector is missing or stale, in batches. Returns how many.
        `on_batch(n)` hears of each batch as it is stored (a command's progress bar)."""
        if self.embedder is None:
            return 0
        done = 0
        for kind in _SOURCES:
            after = 0  # ids below this are done in this call: a sweep, not a rescan per batch
            if kind in _APPEND_ONLY and kind in self._swept:
                after = await self._newest_embedded(kind)
            while limit is None or done < limit:
                batch = self._batch_size if limit is None else min(self._batch_size, limit - done)
                async with self.store.writing():
                    count, after = await self._backfill_batch(kind, batch, after)
                done += count
                if on_batch is not None and count:
                    on_batch(count)
                if count < batch:
                    self._swept.add(kind)
                    break
        await self.index_large()
        return done

    async def index_large(self) -> None:
        """Background work after backfill (approximate indexes); a turn never waits for it."""
        await self.store.index_large()

    async def _newest_embedded(self, kind: Kind) -> int:
        """The highest id of `kind` with a vector from this model. Rows are embedded in id
        order and forgetting a row removes its vector too, so every row above it is new."""
        assert self.embedder is not None
        newest = await self._db.scalar(
            "SELECT MAX(item_id) FROM embeddings WHERE kind = ? AND model_id = ?",
            (kind, self.embedder.model_id),
        )
        return int(newest or 0)

    async def _backfill_batch(self, kind: Kind, batch: int, after: int) -> tuple[int, int]:
        assert self.embedder is not None
        source = _SOURCES[kind]
        model_id = self.embedder.model_id
        columns = ", ".join("s." + c.strip() for c in source.columns.split(","))
        rows = await self._db.fetchall(
            f"SELECT s.id, s.user_id, s.content_hash, {columns}"
            f" FROM {source.table} s LEFT JOIN embeddings e ON e.kind = ? AND e.item_id = s.id"
            " AND e.model_id = ? WHERE s.id > ?"
            " AND (e.item_id IS NULL OR e.content_hash != s.content_hash)"
            " ORDER BY s.id LIMIT ?",
            (kind, model_id, after, batch),
        )
        if not rows:
            return 0, after
        texts = [source.text(tuple(r)[3:]) for r in rows]
        vectors = await self.embedder.embed(texts)
        async with self._db.transaction() as tx:
            await tx.executemany(
                "INSERT INTO embeddings (kind, item_id, user_id, model_id, content_hash, vector)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (kind, item_id, model_id) DO UPDATE"
                " SET user_id = excluded.user_id, content_hash = excluded.content_hash,"
                " vector = excluded.vector",
                [
                    (kind, r[0], r[1], model_id, r[2], self.store.encode(vectors[i]))
                    for i, r in enumerate(rows)
                ],
            )
        by_user: dict[str, list[int]] = {}
        for i, r in enumerate(rows):
            by_user.setdefault(r[1], []).append(i)
        for user_id, positions in by_user.items():
            self.store.stored(user_id, kind, [rows[p][0] for p in positions], vectors[positions])
        return len(rows), int(rows[-1][0])

    async def search(
        self,
        user_id: str,
        kind: Kind,
        query: Vectors,
        k: int,
        threshold: float,
        *,
        only: Collection[int] | None = None,
        skip: Collection[int] = (),
    ) -> list[tuple[int, float]]:
        """Ids and cosines of the `k` nearest items at or above `threshold`, best first;
        restricted to ids in `only` (when given) and never any in `skip`."""
        if self.embedder is None:
            return []
        return await self.store.search(user_id, kind, query, k, threshold, only, skip)

    def forget_cache(self, user_id: str | None = None) -> None:
        """Drop cached vectors and saved graphs (after rows were removed)."""
        self.store.forget_cache(user_id)


def _digest(text: str) -> str:
    """A short, file-name-safe stand-in for a user or model id."""
    return hashlib.sha256(text.encode()).hexdigest()[:16]
