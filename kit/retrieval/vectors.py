"""The derived vector index: embeddings of every fact, day and message, and their search.

Rows are written without waiting for an embedding; `backfill()` fills in whatever is missing
or stale (keyed by the source row's content hash and the model id), so the whole index can be
rebuilt from the source rows at any time. Where vectors are kept and how they are searched is
the engine's (`VectorStore`): on SQLite, float32 BLOBs searched in per-process int8 matrices
(kit/retrieval/matrices.py, matrix.py), loaded in the background when the daemon starts (or on
first search) and kept current by backfill; on PostgreSQL, pgvector columns searched by the
server (kit/retrieval/pg_vectors.py).

The model itself may load on first use (kit/embed/lazy.py). In a daemon it loads in the
background (`load_model`): at once when memory holds anything to search, else when a query
or a row to embed first asks for it; a query meanwhile gets no vector (the search is lexical)
and the log says so once. Elsewhere (commands, tests) a query loads the model and waits.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from kit.embed.base import Embedder, Vectors
from kit.embed.lazy import LazyEmbedder
from kit.retrieval.kinds import PASSAGES, VectorKind
from kit.retrieval.passage_rows import MessagePassages, passage_text
from kit.store.db import Database, Row

log = logging.getLogger(__name__)


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


def _passage_text(row: Sequence[Any]) -> str:
    return passage_text(str(row[0]), str(row[1]), int(row[2]), int(row[3]))


# Messages (and their passages) are never edited, only added (and deleted with their
# vectors), so after one full sweep per process only rows above the newest vector need a
# look: a turn's backfill stays O(new rows) instead of scanning the whole archive (30 ms per
# turn at 20k messages). Facts and day summaries change in place and are swept whole every
# time (they are few).
_APPEND_ONLY: frozenset[VectorKind] = frozenset({"message", "passage"})


@dataclass(frozen=True)
class _Source:
    table: str  # the rows, as `s`
    columns: str  # what `text` is made of
    text: Callable[[Sequence[Any]], str]
    join: str = ""  # where the columns come from besides `s`


# What each kind embeds. Facts embed even when inactive, so undo needs no re-embedding.
# Passages come after messages: a backfill derives them from the messages first.
_SOURCES: dict[VectorKind, _Source] = {
    "fact": _Source("facts", "s.subject, s.content", _fact_text),
    "day": _Source("days", "s.day, s.detailed, s.condensed", _day_text),
    "message": _Source("messages", "s.speaker, s.text", _message_text),
    "note": _Source("note_chunks", "s.name, s.heading, s.text", _note_text),
    "passage": _Source(
        "message_passages",
        "m.speaker, m.text, s.char_start, s.char_stop",
        _passage_text,
        "JOIN messages m ON m.id = s.message_id",
    ),
}


class VectorStore(Protocol):
    """Where vectors are kept and searched: one implementation per engine (engines.py picks)."""

    embedder: Embedder | None  # whose vectors it holds and searches (set by VectorIndex)

    def encode(self, vector: Vectors) -> object:
        """One vector as the `embeddings.vector` column takes it."""
        ...

    def writing(self) -> AbstractAsyncContextManager[object]:
        """Held while a backfill batch is read, embedded, written and `stored`."""
        ...

    def stored(self, user_id: str, kind: VectorKind, ids: Sequence[int], vectors: Vectors) -> None:
        """A batch just committed (a per-process cache takes it in)."""
        ...

    async def search(
        self,
        user_id: str,
        kind: VectorKind,
        query: Vectors,
        k: int,
        threshold: float,
        only: Collection[int] | None,
        skip: Collection[int],
    ) -> list[tuple[int, float]]: ...

    async def index_large(self) -> None:
        """Background work after backfill: build or extend approximate indexes."""
        ...

    async def warm(self) -> None:
        """Background work at daemon start: load what searches need into memory, if this
        store keeps anything there (searches meanwhile use what is loaded)."""
        ...

    def forget_cache(self, user_id: str | None = None, *, saved: bool = True) -> None:
        """Drop what this process keeps of a user's vectors (all users': None), and with
        `saved` what it keeps on disk for them too (after rows were removed)."""
        ...

    def held(self, user_id: str, kind: VectorKind) -> frozenset[int]:
        """Ids whose vectors this process holds in memory for the user's layer."""
        ...

    def saved(self, user_id: str) -> list[tuple[VectorKind, Path]]:
        """Files of derived vectors kept on disk for the user (saved graphs), by layer."""
        ...

    async def dropped(self, model_id: str) -> None:
        """A model's vectors are gone (a re-embedding replaced it): drop what this store
        derived from them (saved graphs, a server's index)."""
        ...


class ModelSwitch(Protocol):
    """A re-embedding toward another model, as backfill sees it: the job itself
    (kit/retrieval/reindex.py) belongs to the services, which drive and report it."""

    async def sync(self) -> bool:
        """Adopt the new model if the switch was made (by another worker); True once it
        serves."""
        ...


class VectorIndex:
    def __init__(
        self,
        db: Database,
        embedder: Embedder | None,
        batch_size: int = 64,
        store: VectorStore | None = None,
        *,
        passages: bool = False,
    ) -> None:
        self._db = db
        # Which kinds get vectors: every source, or all but long messages' passages.
        self.kinds: tuple[VectorKind, ...] = tuple(k for k in _SOURCES if passages or k != PASSAGES)
        self.batch_size = batch_size
        if store is None:
            from kit.retrieval.matrices import MatrixVectors  # SQLite's: loaded only there

            store = MatrixVectors(db, embedder)
        self.store = store
        self.store.embedder = embedder
        self._swept: set[VectorKind] = set()  # kinds fully swept once by this process
        self.passages = MessagePassages(db)  # long messages' passages, derived by backfill
        self.problem: str | None = None  # why embeddings are off, when a load failed
        # A daemon loads the model in the background (`load_model`): queries do not wait.
        self.model_in_background = False
        self._told_loading = False  # a query met the model still loading: logged once
        # The re-embedding toward the configured model, while another one serves
        # (kit/retrieval/reindex.py; None: the configured model serves): backfill syncs with
        # it first, since another worker may have switched models.
        self.switch: ModelSwitch | None = None
        self._watch(embedder)

    @property
    def embedder(self) -> Embedder | None:
        """The model queries and backfill use; the store searches the same model's vectors
        (one attribute, so a model loaded or swapped later reaches both)."""
        return self.store.embedder

    @embedder.setter
    def embedder(self, embedder: Embedder | None) -> None:
        self.store.embedder = embedder
        self.store.forget_cache(saved=False)  # cached matrices hold the previous model's vectors
        self._swept.clear()  # another model's vectors: its sweeps start over
        self._watch(embedder)

    def _watch(self, embedder: Embedder | None) -> None:
        if isinstance(embedder, LazyEmbedder):
            embedder.on_failure(lambda problem: self._model_failed(embedder, problem))

    def _model_failed(self, embedder: LazyEmbedder, problem: str) -> None:
        """The model could not be loaded: embeddings are off from here on (lexical search).
        Said once per data directory (`LazyEmbedder.told_before`): later commands log it
        quietly, and `kit status` / `kit doctor` still say it."""
        level = logging.INFO if embedder.told_before else logging.WARNING
        log.log(level, "embeddings are off, using lexical search only: %s", problem)
        self.problem = problem
        if self.embedder is embedder:
            self.embedder = None

    @property
    def available(self) -> bool:
        return self.embedder is not None

    async def embed_query(self, text: str) -> Vectors | None:
        """The query's vector; None when embeddings are off, or (in a daemon) while the
        model is still loading: the search is then lexical."""
        embedder = self.embedder
        if (
            self.model_in_background
            and isinstance(embedder, LazyEmbedder)
            and embedder.model is None
            and not embedder.done.is_set()
        ):
            embedder.want()  # `load_model` loads it; this query goes without a vector
            if not self._told_loading:
                self._told_loading = True
                log.info("the embedding model is still loading: searches meanwhile use word search")
            return None
        model = await self.loaded()
        if model is None:
            return None
        vectors = await model.embed([text])
        query: Vectors = vectors[0]
        return query

    async def loaded(self) -> Embedder | None:
        """The model, loaded now if it loads on first use (and waited for); None when
        embeddings are off or it cannot be loaded (that is logged once, `_model_failed`)."""
        embedder = self.embedder
        if isinstance(embedder, LazyEmbedder):
            await embedder.load()
            return self.embedder  # None once a failed load switched embeddings off
        return embedder

    async def load_model(self) -> None:
        """Background work in a daemon: load the model once something needs it, at once when
        memory holds anything (the owner's next message will be searched by meaning), else
        when a query or a row to embed first asks (an empty memory has nothing to search, and
        an idle daemon stays ~100 MB smaller). Queries meanwhile do not wait (`embed_query`)."""
        embedder = self.embedder
        if not isinstance(embedder, LazyEmbedder):
            return
        if embedder.model is None and await self.holds_anything():
            embedder.want()
        await embedder.wanted.wait()
        await embedder.load()

    async def holds_anything(self) -> bool:
        """Whether memory holds any row that gets a vector (then the model is wanted at start)."""
        for source in _SOURCES.values():
            if await self._db.scalar(f"SELECT 1 FROM {source.table} LIMIT 1") is not None:
                return True
        return False

    async def pending_count(self, model_id: str | None = None) -> int:
        """Rows whose vector of `model_id` (default: the serving model's) is missing or stale."""
        if model_id is None:
            if self.embedder is None:
                return 0
            model_id = self.embedder.model_id
        total = 0
        for kind in self.kinds:
            source = _SOURCES[kind]
            total += int(
                await self._db.scalar(
                    f"SELECT COUNT(*) FROM {source.table} s LEFT JOIN embeddings e ON e.kind = ?"
                    " AND e.item_id = s.id AND e.model_id = ?"
                    " WHERE e.item_id IS NULL OR e.content_hash != s.content_hash",
                    (kind, model_id),
                )
            )
        return total

    async def row_count(self) -> int:
        """Every row that gets a vector: facts, days, messages, note sections and passages."""
        total = 0
        for source in (_SOURCES[kind] for kind in self.kinds):
            total += int(await self._db.scalar(f"SELECT COUNT(*) FROM {source.table}"))
        return total

    async def backfill(
        self, limit: int | None = None, *, on_batch: Callable[[int], object] | None = None
    ) -> int:
        """Embed rows whose vector is missing or stale, in batches. Returns how many.
        `on_batch(n)` hears of each batch as it is stored (a command's progress bar)."""
        if self.switch is not None:
            await self.switch.sync()  # another worker may have switched models
        if self.embedder is None:
            return 0
        done = 0
        for kind in self.kinds:
            if self.embedder is None:  # the model could not be loaded: embeddings are off
                break
            after = 0  # ids below this are done in this call: a sweep, not a rescan per batch
            if kind == PASSAGES:
                await self.passages.derive()  # the rows to embed, from the messages above
            if kind in _APPEND_ONLY and kind in self._swept:
                after = await self._newest_embedded(kind)
            while limit is None or done < limit:
                batch = self.batch_size if limit is None else min(self.batch_size, limit - done)
                if not await self._model_for(kind, after):
                    break
                async with self.store.writing():
                    count, after = await self.embed_batch(self.embedder, kind, batch, after)
                done += count
                if on_batch is not None and count:
                    on_batch(count)
                if count < batch:
                    if self.embedder is not None:
                        self._swept.add(kind)
                    break
        await self.index_large()
        return done

    async def index_large(self) -> None:
        """Background work after backfill (approximate indexes); a turn never waits for it."""
        await self.store.index_large()

    async def warm(self) -> None:
        """Background work at daemon start: the store loads its vectors (matrices.py); a
        search meanwhile uses the vectors loaded so far."""
        await self.store.warm()

    async def _newest_embedded(self, kind: VectorKind) -> int:
        """The highest id of `kind` with a vector from this model. Rows are embedded in id
        order and forgetting a row removes its vector too, so every row above it is new."""
        assert self.embedder is not None
        newest = await self._db.scalar(
            "SELECT MAX(item_id) FROM embeddings WHERE kind = ? AND model_id = ?",
            (kind, self.embedder.model_id),
        )
        return int(newest or 0)

    async def _model_for(self, kind: VectorKind, after: int) -> bool:
        """Whether a batch of `kind` can be embedded: the model is loaded, or there is a row
        to embed and the model loads now (in a daemon: `load_model` loads it, after the
        warm-up, and the daemon runs backfill again then). Outside the store's writing lock:
        the vectors' load (kit/retrieval/matrices.py) goes on while the model loads."""
        embedder = self.embedder
        if isinstance(embedder, LazyEmbedder) and embedder.model is None:
            if not await self._pending(embedder, kind, 1, after):
                return True  # nothing to embed: the batch finds no rows, the model stays out
            if self.model_in_background and not embedder.done.is_set():
                embedder.want()
                return False
            await embedder.load()  # a failure switches embeddings off (`_model_failed`)
        return self.embedder is not None

    async def _pending(
        self, embedder: Embedder, kind: VectorKind, batch: int, after: int
    ) -> list[Row]:
        """Up to `batch` rows of `kind` above id `after` whose vector is missing or stale."""
        source = _SOURCES[kind]
        return await self._db.fetchall(
            f"SELECT s.id, s.user_id, s.content_hash, {source.columns}"
            f" FROM {source.table} s {source.join}"
            " LEFT JOIN embeddings e ON e.kind = ? AND e.item_id = s.id"
            " AND e.model_id = ? WHERE s.id > ?"
            " AND (e.item_id IS NULL OR e.content_hash != s.content_hash)"
            " ORDER BY s.id LIMIT ?",
            (kind, embedder.model_id, after, batch),
        )

    async def embed_batch(
        self, embedder: Embedder | None, kind: VectorKind, batch: int, after: int
    ) -> tuple[int, int]:
        """Embed up to `batch` rows of `kind` above id `after` that lack `embedder`'s vector,
        and store them in one transaction; (how many, the last id). Only the serving model's
        vectors reach the store's in-memory cache: another model's (a re-embedding,
        kit/retrieval/reindex.py) are written beside them, never searched until it serves."""
        assert embedder is not None
        source = _SOURCES[kind]
        model_id = embedder.model_id
        rows = await self._pending(embedder, kind, batch, after)
        if not rows:
            return 0, after
        texts = [source.text(tuple(r)[3:]) for r in rows]
        vectors = await embedder.embed(texts)
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
        serving = self.embedder
        if serving is not None and serving.model_id == model_id:
            by_user: dict[str, list[int]] = {}
            for i, r in enumerate(rows):
                by_user.setdefault(r[1], []).append(i)
            for user_id, positions in by_user.items():
                ids = [rows[p][0] for p in positions]
                self.store.stored(user_id, kind, ids, vectors[positions])
        return len(rows), int(rows[-1][0])

    async def search(
        self,
        user_id: str,
        kind: VectorKind,
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
