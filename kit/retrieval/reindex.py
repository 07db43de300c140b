"""The re-embedding after the owner changed the embedding model (kit/retrieval/model_state.py
says what serves meanwhile): every fact, day, message and note section gets the configured
model's vector, in batches, each committed on its own; then that model serves.

A daemon runs it in the background once it is ready (kit/daemon/reindex.py), one worker at a
time on a shared database; `kit reindex` runs it in the foreground with a progress bar. Killed
midway, it starts again where it stopped: the rows that have the target's vector (for their
current content) are skipped. Rows written meanwhile are embedded by the serving model as
usual (a turn's backfill) and swept by this run before the switch. Another worker that finds
the switch made adopts the new model (`sync`, before each backfill).

The job belongs to the services (`Services.reindex`, kit/app.py), which drive and report it;
the vector index it fills knows it only as the `ModelSwitch` it syncs with, so this module
imports kit/retrieval/vectors.py and not the other way round.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

from kit.embed.base import Embedder
from kit.embed.lazy import LazyEmbedder
from kit.embed.spec import EmbeddingModelUnavailable, ModelSpec
from kit.retrieval.kinds import PASSAGES
from kit.retrieval.model_state import ReindexProgress, VectorModels
from kit.retrieval.vectors import VectorIndex

log = logging.getLogger(__name__)

LOG_EVERY = 0.1  # the log says how far the run got at each tenth of the rows


@dataclass(frozen=True)
class Reindexed:
    """What `kit reindex` did."""

    model: str | None  # the model searched now (None: embeddings are off)
    previous: str | None  # the model it replaced (None: nothing was re-embedded)
    embedded: int  # rows embedded
    removed: int  # vectors of models not in use deleted


class Reindex:
    def __init__(
        self,
        vectors: VectorIndex,
        models: VectorModels,
        target: Embedder,
        spec: ModelSpec | None,
        serving: str,
    ) -> None:
        self._vectors = vectors
        self._models = models
        self.target = target
        self._spec = spec  # how to load the target again (None: a model Kit did not load)
        self.serving = serving  # the model id that served when this process started
        self.done = False  # the target serves now (in this process)
        self.problem: str | None = None
        self.removed = 0  # the old models' vectors deleted when the target began to serve
        self.finished = asyncio.Event()  # set once the target serves (in this process)

    async def progress(self) -> ReindexProgress | None:
        """Where it stands; None once the target serves."""
        await self.sync()
        if self.done:
            return None
        state = await self._models.read()
        total = await self._vectors.row_count()
        pending = await self._vectors.pending_count(self.target.model_id)
        return ReindexProgress(
            serving=self.serving,
            target=self.target.model_id,
            since=None if state is None else state.since,
            done=total - pending,
            total=total,
            serving_loads=self._vectors.embedder is not None,
            problem=self.problem,
        )

    async def sync(self) -> bool:
        """Adopt the target as the serving model if the switch was made (by another worker,
        or the owner chose it again); True when it serves."""
        if self.done:
            return True
        state = await self._models.read()
        if state is not None and state.serving == self.target.model_id:
            await self._adopt()
        return self.done

    async def run(self, on_batch: Callable[[int], object] | None = None) -> int:
        """Embed every row that lacks the target's vector, then make the target serve.
        Returns how many rows were embedded. EmbeddingModelUnavailable when the target
        model cannot be loaded (searches go on as they were)."""
        if await self.sync():
            return 0
        model = await self._loaded()
        began = time.perf_counter()
        if PASSAGES in self._vectors.kinds:
            await self._vectors.passages.derive()  # counted among the rows to embed
        counter = _Counter(await self._vectors.row_count(), model.model_id, on_batch)
        while True:  # again until a sweep finds nothing: rows written meanwhile too
            before = counter.done
            if PASSAGES in self._vectors.kinds:  # long messages' passages get vectors too
                await self._vectors.passages.derive()
            for kind in self._vectors.kinds:
                after, count = 0, self._vectors.batch_size
                while count == self._vectors.batch_size:
                    count, after = await self._vectors.embed_batch(
                        model, kind, self._vectors.batch_size, after
                    )
                    counter.add(count)
            if counter.done == before:
                break
        done = counter.done
        removed = await self._models.finish(model.model_id, self._spec)
        if removed is None:
            await self.sync()  # another worker switched, or the owner chose another model
            return done
        self.removed = removed
        await self._adopt()
        log.info(
            "re-embedding done: %d rows in %.0f s; searches use %s now (%d vectors of other "
            "models removed)",
            done,
            time.perf_counter() - began,
            model.model_id,
            removed,
        )
        return done

    async def _loaded(self) -> Embedder:
        target = self.target
        if isinstance(target, LazyEmbedder):
            loaded = await target.load()
            if loaded is None:
                self.problem = target.problem
                raise EmbeddingModelUnavailable(
                    f"cannot re-embed with {target.model_id}: {target.problem}"
                )
        return target

    async def _adopt(self) -> None:
        """The target serves: searches use its vectors (the cache of the old ones goes), and
        what the store derived from the old model's vectors is dropped."""
        self._vectors.embedder = self.target
        self.done = True
        self.finished.set()
        if self.serving != self.target.model_id:
            await self._vectors.store.dropped(self.serving)


class _Counter:
    """Rows embedded so far: told to `on_batch` each batch, and to the log at each tenth."""

    def __init__(self, total: int, model_id: str, on_batch: Callable[[int], object] | None):
        self.total = total
        self.done = 0
        self._model_id = model_id
        self._on_batch = on_batch
        self._told = 0.0

    def add(self, count: int) -> None:
        if not count:
            return
        self.done += count
        if self._on_batch is not None:
            self._on_batch(count)
        if self.total and self.done / self.total >= self._told + LOG_EVERY:
            self._told = self.done / self.total
            log.info("re-embedding with %s: %d of %d rows", self._model_id, self.done, self.total)
