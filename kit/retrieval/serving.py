"""Whether search by meaning serves yet: a daemon is ready when its socket accepts, and its
memory answers fully once the embedding model and the stored vectors are in (issue 33). Before
that a search runs on words (and the vectors loaded so far); `kit status`, the log and the
turn's record say so (kit/daemon/warm.py `announce_serving`, kit/agent.py).
"""

from __future__ import annotations

from kit.embed.lazy import LazyEmbedder
from kit.retrieval.matrices import MatrixVectors
from kit.retrieval.vectors import VectorIndex

SERVING = ""  # what `lacking` returns once search by meaning serves


def lacking(vectors: VectorIndex) -> str:
    """What a search now goes without, in a phrase ("" once search by meaning serves):
    embeddings off, the model still loading, or the stored vectors still loading."""
    embedder = vectors.embedder
    if embedder is None:
        return f"words only: embeddings are off ({vectors.problem or 'no embedding model'})"
    # (outside a daemon a search waits for the model instead: kit/retrieval/vectors.py)
    model_loading = (
        vectors.model_in_background
        and isinstance(embedder, LazyEmbedder)
        and embedder.model is None
    )
    store, vectors_loading = vectors.store, ""
    if isinstance(store, MatrixVectors):
        load = store.load
        if load.total and not load.done.is_set():
            vectors_loading = f"vectors loading, {load.loaded:,} of {load.total:,}"
    if model_loading:  # no query vector at all: a search is lexical
        assert isinstance(embedder, LazyEmbedder)
        # (an empty memory's daemon loads it when a query or a row first needs it)
        model = "is loading" if embedder.wanted.is_set() else "is not loaded yet"
        why = "; ".join(filter(None, [f"the embedding model {model}", vectors_loading]))
        return f"words only: {why}"
    if vectors_loading:
        return f"words and the vectors loaded so far: {vectors_loading}"
    return SERVING
