"""One text straight through the ONNX session (kit/embed/fastembed.py `_one`): the same vector,
bit for bit, as fastembed's own `embed`, for the real model and for declared local models of
every pooling; a model class that tokenises or prepares its input its own way keeps
fastembed's path."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from kit.embed.fastembed import FastEmbedder, _direct
from kit.embed.spec import ModelSpec
from tests.support.tiny_onnx import TinyModels

TEXTS = [
    "What did the vet say about the lump?",
    "",
    "ok",
    "Café crème — naïve résumé 🙂 with 日本語 and UPPER case",
    # past the tokenizer's 256-token truncation
    " ".join(["the greenhouse glass cracked again after the storm on tuesday"] * 60),
]


def _fastembeds(model: Any, texts: list[str]) -> np.ndarray:
    return np.asarray(list(model.embed(texts, batch_size=1)), dtype=np.float32)


@pytest.mark.integration
async def test_the_real_model_goes_straight_to_its_session_with_the_same_vectors(
    minilm: Any, minilm_model: Any
) -> None:
    assert minilm._inner is not None  # the direct path is taken for MiniLM
    for text in TEXTS:
        got = await minilm.embed([text])
        assert got.dtype == np.float32 and got.shape == (1, 384)
        assert got.tobytes() == _fastembeds(minilm_model, [text]).tobytes(), text
    together = await minilm.embed(TEXTS)
    assert together.tobytes() == _fastembeds(minilm_model, TEXTS).tobytes()


@pytest.mark.parametrize(("pooling", "normalization"), [("mean", True), ("cls", True)])
async def test_a_declared_local_model_goes_straight_with_the_same_vectors(
    tiny_models: TinyModels, pooling: str, normalization: bool
) -> None:
    folder = tiny_models.a.folder
    spec = ModelSpec("test/tiny", str(folder), 24, pooling, normalization)
    embedder = await FastEmbedder.load(spec)
    assert embedder._inner is not None
    texts = ["garden beans sprouting", "booked the boiler repair for friday", "zzz garden"]
    got = await embedder.embed(texts)
    assert got.tobytes() == _fastembeds(embedder._model, texts).tobytes()


async def test_a_model_that_tokenises_its_own_way_keeps_fastembeds_path(
    tiny_models: TinyModels,
) -> None:
    spec = ModelSpec("test/tiny", str(tiny_models.a.folder), 24, "mean", True)
    loaded = await FastEmbedder.load(spec)
    inner = loaded._model.model
    plain = type(inner)
    inner.__class__ = type("OwnTokens", (plain,), {"tokenize": lambda self, docs, **k: []})
    try:
        assert _direct(loaded._model) is None
    finally:
        inner.__class__ = plain
    calls: list[list[str]] = []

    class Wrapped:  # not fastembed's TextEmbedding: its `embed` serves every text
        def embed(self, texts: list[str], batch_size: int) -> Any:
            calls.append(list(texts))
            return loaded._model.embed(texts, batch_size=batch_size)

    fallback = FastEmbedder(Wrapped(), loaded.model_id, 24)
    assert fallback._inner is None
    got = await fallback.embed(["garden beans", "tea"])
    assert calls == [["garden beans", "tea"]]
    assert got.tobytes() == (await loaded.embed(["garden beans", "tea"])).tobytes()
