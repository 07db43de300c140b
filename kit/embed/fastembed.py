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

A model fastembed lists is loaded by name (downloaded once, or from `embedding.model_path`). A
local ONNX folder declared with its dimension, pooling and normalisation is registered with
fastembed under its model id (kit/embed/spec.py) and loaded from the folder; its first vector is
checked against the declaration (its length, and unit length), so a wrong declaration is a
clear error at load and never a store full of vectors that cannot be compared.
"""

from __future__ import annotations

import asyncio
import difflib
import logging
import socket
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from kit.embed.base import Vectors
from kit.embed.spec import EmbeddingModelUnavailable, ModelSpec

__all__ = ["EmbeddingModelUnavailable", "FastEmbedder", "ModelSpec"]

log = logging.getLogger(__name__)


MODEL_HUB = ("huggingface.co", 443)
THREADS = 1  # ONNX intra-op threads (module note)
UNIT_TOLERANCE = 1e-3  # how far from length 1 a probe vector may be (float32 rounding)
# embedding.pooling -> fastembed's PoolingType member
_POOLING = {"mean": "MEAN", "cls": "CLS", "last_token": "LAST_TOKEN", "none": "DISABLED"}


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
    ModelSpec(name="", path=model_path).model_file()  # raises, naming the folder
    return Path(model_path).expanduser()


def listed_models() -> dict[str, str]:
    """The models fastembed lists (and those registered in this process): lower-case name ->
    name. Imports fastembed."""
    from fastembed import TextEmbedding

    names = [str(m["model"]) for m in TextEmbedding.list_supported_models()]
    return {name.lower(): name for name in names}


def _not_listed(name: str, listed: dict[str, str]) -> EmbeddingModelUnavailable:
    found = difflib.get_close_matches(name.lower(), list(listed), n=3, cutoff=0.6)
    close = [listed[f] for f in found]
    hint = f" (close: {', '.join(close)})" if close else ""
    return EmbeddingModelUnavailable(
        f"config.toml: embedding.model {name!r} is not a model fastembed lists{hint}; name one "
        "it lists (docs/configuration.md says how to see them), or for a local ONNX folder set "
        "embedding.model_path with embedding.dimension and embedding.pooling"
    )


def _register(spec: ModelSpec, model_id: str) -> None:
    """Make a declared local model known to fastembed under its id (once per process)."""
    from fastembed import TextEmbedding
    from fastembed.common.model_description import ModelSource, PoolingType

    if model_id.lower() in listed_models():
        return  # registered earlier in this process: same id, same declaration and files
    model_file = spec.model_file()
    data = Path(spec.path).expanduser() / (model_file + ".data")
    TextEmbedding.add_custom_model(
        model=model_id,
        pooling=PoolingType[_POOLING[spec.pooling]],
        normalization=spec.normalization,
        sources=ModelSource(hf=spec.name),  # never fetched: the folder is given
        dim=spec.dimension,
        model_file=model_file,
        additional_files=[model_file + ".data"] if data.is_file() else [],
    )


def _checked(spec: ModelSpec, probe: Any) -> int:
    """The probe vector's length, after checking it against the declaration."""
    dim = int(probe.shape[0])
    if spec.declared and dim != spec.dimension:
        raise EmbeddingModelUnavailable(
            f"config.toml: embedding.dimension is {spec.dimension} but the model in "
            f"{spec.path} makes vectors of {dim}; set embedding.dimension = {dim}"
        )
    norm = float(np.linalg.norm(probe))
    if abs(norm - 1.0) > UNIT_TOLERANCE:
        raise EmbeddingModelUnavailable(
            f"the model in {spec.path or spec.name} makes vectors of length {norm:.3f}, not 1; "
            "set embedding.normalization = true (Kit compares vectors by cosine)"
        )
    return dim


class FastEmbedder:
    def __init__(self, model: Any, model_name: str, dim: int) -> None:
        self._model = model
        self.model_id = model_name
        self.dim = dim
        self._lock = asyncio.Lock()  # one ONNX session: serialise callers

    @classmethod
    async def load(
        cls, spec: ModelSpec, cache_dir: Path | None = None, *, offline: bool = False
    ) -> FastEmbedder:
        """Load the model: a declared local folder (registered with fastembed first), a listed
        model from `spec.path`, or a listed model downloaded into `cache_dir` (or found there;
        with `offline`, only found)."""

        def _load() -> tuple[Any, int, str]:
            folder = local_model(spec.path)  # before the import: a wrong path costs nothing
            model_id = spec.model_id()
            from fastembed import TextEmbedding

            _quiet_fastembed()

            kwargs: dict[str, Any] = {"threads": THREADS}
            if cache_dir is not None:  # keep a downloaded model with Kit's data, not in /tmp
                kwargs["cache_dir"] = str(cache_dir)
            if spec.declared:
                _register(spec, model_id)
            else:
                listed = listed_models()
                if spec.name.lower() not in listed:
                    raise _not_listed(spec.name, listed)
            if folder is not None:
                kwargs["specific_model_path"] = str(folder)
                model = TextEmbedding(model_name=model_id, **kwargs)
            else:
                model = _cached_or_downloaded(TextEmbedding, model_id, kwargs, offline=offline)
            probe = next(iter(model.embed(["probe"])))
            return model, _checked(spec, probe), model_id

        try:
            model, dim, model_id = await asyncio.to_thread(_load)
        except EmbeddingModelUnavailable:
            raise
        except Exception as exc:
            where = f"from {spec.path}" if spec.path else "(check the network)"
            raise EmbeddingModelUnavailable(
                f"cannot load embedding model {spec.name!r} {where}: {type(exc).__name__}: "
                f"{exc}; fix embedding.model / embedding.model_path in config.toml"
            ) from exc
        return cls(model, model_id, dim)

    async def embed(self, texts: Sequence[str]) -> Vectors:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)

        def _run() -> Vectors:
            rows = list(self._model.embed(list(texts), batch_size=1))  # see the module note
            return np.asarray(rows, dtype=np.float32)

        async with self._lock:
            return await asyncio.to_thread(_run)
