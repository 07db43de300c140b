"""The fastembed adapter: the only module that imports fastembed.

Loading and embedding are CPU-bound, so both run in a worker thread.

Each text goes through the model on its own. The int8 model quantises activations per run,
across the whole batch, so a batched text's vector depends on its neighbours in the batch
(cosine to the text embedded alone: down to ~0.99, `bench/embedding.py`). Alone, a vector is
a function of its text and the model only, which is what keying stored vectors by content hash
and model id promises: a re-embedding or a rebuild gives the same vector, and a stored text
matches the same text as a query exactly. Throughput measured comparable to batching here.

One ONNX thread: a query is a few dozen tokens, too little to share out, and the runtime's
spinning worker threads fight everything else for the cores. Measured on this 2-core machine
under load (average 7-8): query embedding p95 11-12 ms with one thread against 22-29 ms with
the default pool, and 2.6 ms of CPU per query against 3.4-4.7 (bench/embedding.py,
docs/measurements.md).
"""

from __future__ import annotations

import asyncio
import logging
import socket
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from kit.embed.base import Vectors
from kit.errors import KitError

log = logging.getLogger(__name__)


class EmbeddingModelUnavailable(KitError):
    pass


MODEL_HUB = ("huggingface.co", 443)
THREADS = 1  # ONNX intra-op threads (module note)


def _quiet_fastembed() -> None:
    """fastembed logs every failed cache lookup and retry as an ERROR on stderr (via loguru);
    Kit reports the outcome itself, once, in words a user can act on."""
    try:
        from loguru import logger
    except ImportError:
        return
    logger.disable("fastembed")


def _hub_reachable(timeout: float = 3.0) -> bool:
    try:
        with socket.create_connection(MODEL_HUB, timeout=timeout):
            return True
    except OSError:
        return False


def _cached_or_downloaded(
    factory: Any, model_name: str, kwargs: dict[str, Any], *, offline: bool
) -> Any:
    """A cached copy if there is one; else download, but only if the hub can be reached at
    all: fastembed's own retries sleep ~40 s before giving up on an offline machine.
    `offline`: never download, nor try whether the hub can be reached."""
    try:
        return factory(model_name=model_name, local_files_only=True, **kwargs)
    except Exception:
        log.debug("no cached copy of %s", model_name)
    if offline:
        raise EmbeddingModelUnavailable(
            f"embedding model {model_name!r} is not downloaded yet (offline: not fetched); "
            "`kit run` or `kit doctor` without --offline downloads it, or set "
            "embedding.model_path to a local model folder"
        )
    if not _hub_reachable():
        raise EmbeddingModelUnavailable(
            f"embedding model {model_name!r} is not downloaded yet and {MODEL_HUB[0]} cannot be "
            "reached; connect to the internet once, or set embedding.model_path to a local "
            "model folder"
        )
    return factory(model_name=model_name, **kwargs)


def local_model(model_path: str) -> Path | None:
    """The folder `embedding.model_path` names (None: the model is fetched by name); an
    error saying so when it holds no model. Cheap: nothing is imported or loaded."""
    if not model_path:
        return None
    folder = Path(model_path).expanduser()
    if not (folder / "model.onnx").exists():
        raise EmbeddingModelUnavailable(
            f"embedding.model_path {folder} has no model.onnx; point it at a "
            "fastembed model folder or leave it empty to download the model"
        )
    return folder


class FastEmbedder:
    def __init__(self, model: Any, model_name: str, dim: int) -> None:
        self._model = model
        self.model_id = model_name
        self.dim = dim
        self._lock = asyncio.Lock()  # one ONNX session: serialise callers

    @classmethod
    async def load(
        cls,
        model_name: str,
        model_path: str,
        cache_dir: Path | None = None,
        *,
        offline: bool = False,
    ) -> FastEmbedder:
        """Load the model (downloading it unless `model_path` names a local folder, or
        `offline`)."""

        def _load() -> tuple[Any, int]:
            folder = local_model(model_path)  # before the import: a wrong path costs nothing
            from fastembed import TextEmbedding

            _quiet_fastembed()

            kwargs: dict[str, Any] = {"threads": THREADS}
            if cache_dir is not None:  # keep a downloaded model with Kit's data, not in /tmp
                kwargs["cache_dir"] = str(cache_dir)
            if folder is not None:
                kwargs["specific_model_path"] = str(folder)
                model = TextEmbedding(model_name=model_name, **kwargs)
            else:
                model = _cached_or_downloaded(TextEmbedding, model_name, kwargs, offline=offline)
            probe = next(iter(model.embed(["probe"])))
            return model, int(probe.shape[0])

        try:
            model, dim = await asyncio.to_thread(_load)
        except EmbeddingModelUnavailable:
            raise
        except Exception as exc:
            raise EmbeddingModelUnavailable(
                f"cannot load embedding model {model_name!r} ({type(exc).__name__}: {exc}); "
                "set embedding.model_path to a local model folder, or check the network"
            ) from exc
        return cls(model, model_name, dim)

    async def embed(self, texts: Sequence[str]) -> Vectors:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)

        def _run() -> Vectors:
            rows = list(self._model.embed(list(texts), batch_size=1))  # see the module note
            return np.asarray(rows, dtype=np.float32)

        async with self._lock:
            return await asyncio.to_thread(_run)
