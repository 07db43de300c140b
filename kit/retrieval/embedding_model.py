"""Which embedding model Kit uses: the configured one loaded now (`load_embedder`) or on first
use (`lazy_embedder`), and the one whose vectors searches use while a re-embedding toward the
configured one runs (`serving_model`, kit/retrieval/model_state.py)."""

from __future__ import annotations

import logging

from kit.config import Settings
from kit.embed.base import Embedder
from kit.embed.fastembed import local_model
from kit.embed.lazy import LazyEmbedder, Notice
from kit.embed.spec import EmbeddingModelUnavailable, ModelSpec, spec_of
from kit.errors import KitError
from kit.files import private_dir
from kit.retrieval.model_state import ModelState, VectorModels

log = logging.getLogger(__name__)


async def _load_model(
    settings: Settings, spec: ModelSpec | None = None, *, offline: bool = False
) -> Embedder:
    """The configured model (or `spec`'s), loaded now; EmbeddingModelUnavailable says why it
    cannot be. `offline`: a model not downloaded yet is not fetched (no connection is opened)."""
    from kit.embed.fastembed import FastEmbedder

    models = private_dir(settings.data_dir / "models")  # fastembed would make it 0755
    return await FastEmbedder.load(spec or spec_of(settings.embedding), models, offline=offline)


async def load_embedder(
    settings: Settings, *, offline: bool = False
) -> tuple[Embedder | None, str | None]:
    """The configured model, or (None, why) so Kit can run on lexical search alone."""
    try:
        return await _load_model(settings, offline=offline), None
    except KitError as exc:
        return None, str(exc)


def lazy_embedder(settings: Settings) -> tuple[LazyEmbedder | None, str | None]:
    """The configured model, to be loaded on first use; or (None, why) when it is plainly
    not there (`embedding.model_path` without a model: checked now, nothing loaded)."""
    spec = spec_of(settings.embedding)
    try:
        local_model(spec.path)
        model_id = spec.model_id()  # reads a declared model's files (kit/embed/spec.py)
    except KitError as exc:
        return None, str(exc)
    # A model that cannot load is said once per data directory (kit/embed/lazy.py).
    notice = Notice(settings.data_dir / "models" / "unavailable.txt")
    return LazyEmbedder(model_id, lambda: _load_model(settings, spec), notice), None


async def serving_model(
    settings: Settings,
    models: VectorModels,
    embedder: Embedder,
    spec: ModelSpec | None,
    *,
    record: bool = True,
) -> tuple[Embedder | None, ModelState]:
    """The model whose vectors searches use, after recording the configured one (unless not
    `record`: an open that writes nothing): it, or while a re-embedding toward it runs the one
    before (loaded from its stored spec when needed; None when Kit cannot load it: searches
    use words until the re-embedding ends)."""
    choose = models.choose if record else models.peek
    state, change = await choose(embedder.model_id, spec)
    if change == "back":
        log.info(
            "embedding model %s serves again: the re-embedding toward another is given up",
            embedder.model_id,
        )
    if not state.reindexing:
        return embedder, state
    old = state.serving_spec
    meanwhile = f"searches use {state.serving}'s vectors" if old else "searches use words alone"
    what = "changed from %s to %s" if change == "started" else "from %s to %s: still under way"
    log.info(
        "embedding model " + what + "; every item is re-embedded in the background "
        "(`kit reindex` does it now), and %s until that ends",
        state.serving,
        embedder.model_id,
        meanwhile,
    )
    if old is None:
        return None, state
    serving_id = state.serving

    async def load_old() -> Embedder:
        model = await _load_model(settings, old)
        if model.model_id != serving_id:  # its folder holds another model now
            raise EmbeddingModelUnavailable(
                f"the model that made the stored vectors ({serving_id}) is not at "
                f"{old.path} any more; searches use words until the re-embedding with "
                f"{embedder.model_id} ends"
            )
        return model

    return LazyEmbedder(serving_id, load_old), state
