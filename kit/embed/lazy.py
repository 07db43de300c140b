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
lexical search, as it does when the model is off from the start. "Once" holds across
commands too (each its own process): a `Notice` in the data directory remembers the problem
told, so the next command that meets the same one says it quietly (`told_before`), until the
model loads.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path

from kit.embed.base import Embedder, Vectors
from kit.embed.fastembed import EmbeddingModelUnavailable  # the adapter's; fastembed waits
from kit.errors import KitError

log = logging.getLogger(__name__)


class Notice:
    """A problem told once per data directory: the first command that meets it says so, the
    later ones (each its own process) find it noted here. Best effort: a file that cannot be
    read or written only means telling again."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def first(self, problem: str) -> bool:
        """Whether `problem` is news (and note it as told)."""
        try:
            if self.path.read_text(encoding="utf-8") == problem:
                return False
        except (OSError, UnicodeDecodeError):
            pass
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with open(fd, "w", encoding="utf-8") as out:
                out.write(problem)
        except OSError:
            pass
        return True

    def clear(self) -> None:
        try:
            self.path.unlink(missing_ok=True)
        except OSError:
            pass


class LazyEmbedder:
    """An Embedder whose model is loaded by the first `load` or `embed`."""

    def __init__(
        self,
        model_id: str,
        load: Callable[[], Awaitable[Embedder]],
        notice: Notice | None = None,
    ) -> None:
        self.model_id = model_id
        self._load = load  # raises a KitError saying why the model cannot be had
        self._notice = notice
        self._model: Embedder | None = None
        self.problem: str | None = None  # why the load failed
        self.told_before = False  # an earlier command told the owner this very problem
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
                self.told_before = self._notice is not None and not self._notice.first(self.problem)
                self.done.set()
                for callback in self._on_failure:
                    callback(self.problem)
                return None
            self.done.set()
            if self._notice is not None:
                self._notice.clear()
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
