"""The Embedder port: unit vectors, stable across batching; a bad model path says what to do."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from kit.embed.fastembed import EmbeddingModelUnavailable, FastEmbedder, ModelSpec
from kit.embed.hashing import HashingEmbedder


async def test_hashing_embedder_is_deterministic_unit_length_bag_of_words() -> None:
    embedder = HashingEmbedder()
    texts = ["Ana likes green tea", "green tea for Ana", "bicycle repair shop", ""]
    first, again = await embedder.embed(texts), await HashingEmbedder().embed(texts)
    assert first.dtype == np.float32 and first.shape == (4, embedder.dim)
    assert np.array_equal(first, again)
    assert np.allclose(np.linalg.norm(first[:3], axis=1), 1.0)
    assert float(first[0] @ first[1]) > 0.5
    assert abs(float(first[0] @ first[2])) < 0.3
    assert not first[3].any()  # no words, no direction (cosine 0 with everything)
    assert embedder.calls == [4]


@pytest.mark.integration
async def test_real_model_vectors_do_not_depend_on_the_batch(minilm: Any) -> None:
    """Backfill batches differently each time (and a query is embedded alone): the int8
    model would let batch neighbours shift a vector, so a text must embed the same either way."""
    texts = ["short", "a much longer sentence about the garden and the beans we planted", "Bea"]
    together = await minilm.embed(texts)
    alone = np.vstack([await minilm.embed([t]) for t in texts])
    reordered = await minilm.embed(texts[::-1])
    assert together.shape == (3, 384) and together.dtype == np.float32
    assert np.array_equal(together, alone)
    assert np.array_equal(together, reordered[::-1])
    assert np.allclose(np.linalg.norm(together, axis=1), 1.0, atol=1e-4)
    empty = await minilm.embed([])
    assert empty.shape == (0, 384)


async def test_model_path_without_a_model_names_the_setting(tmp_path: Path) -> None:
    with pytest.raises(EmbeddingModelUnavailable) as err:
        await FastEmbedder.load(ModelSpec("sentence-transformers/all-MiniLM-L6-v2", str(tmp_path)))
    message = str(err.value)
    assert str(tmp_path) in message and "embedding.model_path" in message
    assert "model.onnx" in message
