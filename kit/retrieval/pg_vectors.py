"""Vectors on PostgreSQL: pgvector columns, searched by the server (no per-process matrix).

A search reads one user's rows of one kind and model: below `ANN_MIN_ROWS` exactly (the
`embeddings_user` index finds the rows, the server ranks them by cosine distance), at or
above it through the model's HNSW index, which background work builds once the first user
gets there (`index_large`, `CREATE INDEX CONCURRENTLY`: writes go on meanwhile). The index is
partial, one per model id (`WHERE model_id = ...`), on the vector cast to the model's
dimension: rows of another model are never in it, and a new model gets its own. An HNSW scan
meets the user filter after the graph (pgvector before 0.8 has no filtered scans), so it
explores widely (`hnsw.ef_search`) and its candidates are the k best of those it found —
approximate, like SQLite's graph above the same threshold.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import AsyncIterator, Collection, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

from kit.embed.base import Embedder, Vectors
from kit.retrieval.vectors import VectorKind
from kit.store.postgres.database import PostgresDatabase

log = logging.getLogger(__name__)

# HNSW candidates explored per search (pgvector's default is 40). Measured on the realistic
# archive's 87,600 real MiniLM message vectors (bench/pg_levers.py): 400 kept 0.93-0.95 of
# the exact top 15 among 200 candidates, 1,000 kept 0.99 (36-51 ms a search instead of 19-25,
# at load average 8-10); clustered chat needs the wider beam.
EF_SEARCH = 1000
# A user's layer of this many rows is searched through the HNSW index (the server's exact
# scan reads every row of it); SQLite scans exactly far beyond (kit/retrieval/matrix.py).
ANN_MIN_ROWS = 20_000


def index_name(model_id: str) -> str:
    """The HNSW index of one model (a short hash: model ids hold '/' and '-')."""
    return "embeddings_hnsw_" + hashlib.sha256(model_id.encode()).hexdigest()[:12]


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


class PgVectors:
    def __init__(self, db: PostgresDatabase, embedder: Embedder | None) -> None:
        self._db = db
        self.embedder = embedder
        self._indexed: set[str] = set()  # models whose HNSW index this process saw

    def encode(self, vector: Vectors) -> object:
        return vector  # the connection's codec writes numpy arrays as pgvector values

    @asynccontextmanager
    async def writing(self) -> AsyncIterator[object]:
        yield None  # nothing cached in this process: nothing to keep in step

    def stored(self, user_id: str, kind: VectorKind, ids: Sequence[int], vectors: Vectors) -> None:
        return None

    def forget_cache(self, user_id: str | None = None, *, saved: bool = True) -> None:
        return None

    def held(self, user_id: str, kind: VectorKind) -> frozenset[int]:
        return frozenset()  # the server holds the vectors, this process none

    def saved(self, user_id: str) -> list[tuple[VectorKind, Path]]:
        return []  # the HNSW index is the server's, derived from the rows

    async def warm(self) -> None:
        return None  # the server holds the vectors: nothing to load into this process

    async def dropped(self, model_id: str) -> None:
        """The model's HNSW index indexes no row any more: drop it (writes go on meanwhile)."""
        self._indexed.discard(model_id)
        await self._db.run_outside_transaction(
            f"DROP INDEX CONCURRENTLY IF EXISTS {index_name(model_id)}"
        )

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
        assert self.embedder is not None
        model = self.embedder.model_id
        where = "user_id = ? AND kind = ? AND model_id = ?"
        params: list[object] = [user_id, kind, model]
        if only is not None:
            if not only:
                return []
            where += f" AND item_id IN ({','.join(str(int(i)) for i in only)})"
        if skip:
            where += f" AND item_id NOT IN ({','.join(str(int(i)) for i in skip)})"
        if only is None and await self._large(user_id, kind, model):
            return await self._approximate(where, params, query, k, threshold)
        # Exact: `vector <=> ?` on the bare column, which no HNSW index matches.
        rows = await self._db.fetchall(
            f"SELECT item_id, 1 - (vector <=> ?) AS cosine FROM embeddings WHERE {where}"
            " ORDER BY vector <=> ?, item_id LIMIT ?",
            (query, *params, query, k),
        )
        return [(int(r[0]), float(r[1])) for r in rows if float(r[1]) >= threshold]

    async def _large(self, user_id: str, kind: VectorKind, model: str) -> bool:
        """Whether the user has ANN_MIN_ROWS rows of this kind (an index scan that stops
        there) and the model's HNSW index exists."""
        if model not in self._indexed:
            return False
        found = await self._db.scalar(
            "SELECT 1 FROM embeddings WHERE user_id = ? AND kind = ? AND model_id = ?"
            " OFFSET ? LIMIT 1",
            (user_id, kind, model, ANN_MIN_ROWS - 1),
        )
        return found is not None

    async def _approximate(
        self, where: str, params: list[object], query: Vectors, k: int, threshold: float
    ) -> list[tuple[int, float]]:
        dim = len(query)  # the model's dimension
        cast = f"CAST(vector AS vector({dim}))"
        async with self._db.transaction() as tx:  # SET LOCAL lives as long as a transaction
            await tx.execute(f"SET LOCAL hnsw.ef_search = {max(EF_SEARCH, k)}")
            rows = await tx.fetchall(
                f"SELECT item_id, 1 - ({cast} <=> CAST(? AS vector({dim}))) AS cosine"
                f" FROM embeddings WHERE {where}"
                f" ORDER BY {cast} <=> CAST(? AS vector({dim})) LIMIT ?",
                (query, *params, query, k),
            )
        return [(int(r[0]), float(r[1])) for r in rows if float(r[1]) >= threshold]

    async def index_large(self) -> None:
        """Build the model's HNSW index once some user has ANN_MIN_ROWS rows of a kind."""
        if self.embedder is None:
            return
        model = self.embedder.model_id
        name = index_name(model)
        if model in self._indexed:
            return
        exists = await self._db.scalar("SELECT 1 FROM pg_class WHERE relname = ?", (name,))
        if exists is None:
            big = await self._db.scalar(
                "SELECT 1 FROM embeddings WHERE model_id = ? GROUP BY user_id, kind"
                " HAVING COUNT(*) >= ? LIMIT 1",
                (model, ANN_MIN_ROWS),
            )
            if big is None:
                return
            # The stored vectors' dimension (the model itself may not be loaded yet).
            dim = int(
                await self._db.scalar(
                    "SELECT vector_dims(vector) FROM embeddings WHERE model_id = ? LIMIT 1",
                    (model,),
                )
            )
            log.info("vectors: building the HNSW index of %s", model)
            await self._db.run_outside_transaction(
                f"CREATE INDEX CONCURRENTLY IF NOT EXISTS {name} ON embeddings USING hnsw"
                f" ((CAST(vector AS vector({dim}))) vector_cosine_ops)"
                f" WHERE model_id = {_literal(model)}"
            )
        self._indexed.add(model)
