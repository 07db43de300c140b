"""The embedding model, loaded when something first needs it.

The model costs a daemon about 100 MB of resident memory (fastembed and onnxruntime imported,
the ONNX session) and a second or more of CPU to load; a daemon whose memory is empty has
nothing to search by meaning, and a command that never embeds (`kit facts list`) neither. So
the model is loaded on first use, once, shared by every caller: `embed` (backfill, a curation
pass) loads it and waits; a daemon's turn does not wait for it (kit/retrieval/vectors.py answers
with word search meanwhile). `model_id` is the configured name, known before the load: stored
vectors are keyed by it, so backfill can see that nothing is pending without loading anything.

A load that fails (no model at `embedding.model_path`, offline before the first download) is
reported once, through `on_failure`, and every later `load` returns None at once: Kit runs on
lexical search, as it does when the model is off from the start.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Sequence

from kit.embed.base import Embedder, Vectors
from kit.embed.fastembed import EmbeddingModelUnavailable  # the adapter's; fastembed waits
from kit.errors import KitError

log = logging.getLogger(__name__)


class LazyEmbedder:
    """An Embedder whose model is loaded by the first `load` or `embed`."""

    def __init__(self, model_id: str, load: Callable[[], Awaitable[Embedder]]) -> None:
        self.model_id = model_id
        self._load = load  # raises a KitError saying why the model cannot be had
        self._model: Embedder | None = None
        self.problem: str | None = None  # why the load failed
        self.done = asyncio.Event()  # loaded, or failed for good
        self.wanted = asyncio.Event()  # something asked for the model (`want`)
        self._lock = asyncio.Lock()
        self._on_failure: list[Callable[[str], None]] = []

    @property
    def model(self) -> Embedder | None:
        """The loaded model (None: not loaded yet, or it failed)."""
        return self._model

    @property
    def dim(self) -> int:
        if self._model is None:
            raise RuntimeError(f"the embedding model {self.model_id} is not loaded yet")
        return self._model.dim

    def on_failure(self, callback: Callable[[str], None]) -> None:
        """`callback(problem)` once if the load fails."""
        self._on_failure.append(callback)

    def want(self) -> None:
        """Ask for the model without waiting (whoever serves `wanted` loads it)."""
        self.wanted.set()

    async def load(self) -> Embedder | None:
        """The model, loaded now if it is not yet (callers at once share one load); None
        when it cannot be loaded. A load cut short (shutdown) is tried again next time."""
        if self.done.is_set():
            return self._model
        async with self._lock:
            if self.done.is_set():
                return self._model
            self.wanted.set()
            began = time.perf_counter()
            try:
                self._model = await self._load()
            except Exception as exc:  # a daemon's background load must never end the daemon
                self.problem = str(exc) if isinstance(exc, KitError) else self._unexpected(exc)
                self.done.set()
                for callback in self._on_failure:
                    callback(self.problem)
                return None
            self.done.set()
            log.info(
                "embedding model %s loaded in %.1f s", self.model_id, time.perf_counter() - began
            )
            return self._model

    def _unexpected(self, exc: Exception) -> str:
        return (
            f"cannot load embedding model {self.model_id} ({type(exc).__name__}: {exc}); "
            "check the installation (pip install -e .) and embedding.model_path"
        )

    async def embed(self, texts: Sequence[str]) -> Vectors:
        model = await self.load()
        if model is None:
            raise EmbeddingModelUnavailable(self.problem or f"{self.model_id} is not loaded")
        return await model.embed(texts)
