"""Loading the embedding model on a machine that cannot download it fails fast and clearly."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from kit.embed import fastembed as adapter
from kit.embed.fastembed import EmbeddingModelUnavailable, FastEmbedder, ModelSpec


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_no_cached_model_and_no_hub_says_what_to_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No fastembed retry sleeps (~40 s): one quick probe, then a message naming the fix."""
    monkeypatch.setattr(adapter, "MODEL_HUB", ("127.0.0.1", _closed_port()))
    with pytest.raises(EmbeddingModelUnavailable) as caught:
        await FastEmbedder.load(
            ModelSpec("sentence-transformers/all-MiniLM-L6-v2"), tmp_path / "cache"
        )
    message = str(caught.value)
    assert "not downloaded yet" in message and "embedding.model_path" in message


async def test_model_path_without_a_model_is_named(tmp_path: Path) -> None:
    with pytest.raises(EmbeddingModelUnavailable, match=r"has no model\.onnx"):
        await FastEmbedder.load(ModelSpec("sentence-transformers/all-MiniLM-L6-v2", str(tmp_path)))
