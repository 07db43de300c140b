"""The embedding model is the owner's choice: a name fastembed lists, or a local ONNX folder
with its declared dimension, pooling and normalisation (registered with fastembed by Kit).
Bad values are errors that name the setting and the fix."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from kit.config import Settings, load_settings, parse_settings
from kit.embed.fastembed import EmbeddingModelUnavailable, FastEmbedder
from kit.embed.spec import ModelSpec, spec_of
from kit.errors import ConfigError
from kit.retrieval.embedding_model import load_embedder
from tests.support.tiny_onnx import TinyModels


def declared(folder: Path, dim: int, **changes: Any) -> ModelSpec:
    values: dict[str, Any] = {"pooling": "mean", "normalization": True} | changes
    return ModelSpec("test/tiny", str(folder), dim, values["pooling"], values["normalization"])


async def test_a_local_onnx_folder_loads_through_kits_own_config(
    tmp_path: Path, tiny_models: TinyModels
) -> None:
    """What item 3 asks: a model fastembed does not list, named in config.toml with its
    declared shape, is registered and loaded; its vectors are unit length and 24 long."""
    config = tmp_path / "config.toml"
    config.write_text(tiny_models.a.config() + '[schedule]\ntimezone = "UTC"\n')
    settings = load_settings(config, tmp_path / "data")
    embedder, problem = await load_embedder(settings)
    assert problem is None and embedder is not None
    assert embedder.dim == 24 and embedder.model_id == spec_of(settings.embedding).model_id()
    assert embedder.model_id.startswith("test/tiny@")
    vectors = await embedder.embed(["garden beans sprouting", "beans in the garden", "boiler"])
    assert vectors.shape == (3, 24)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert float(vectors[0] @ vectors[1]) > float(vectors[0] @ vectors[2])


async def test_the_model_id_follows_the_model_not_the_folder(
    tmp_path: Path, tiny_models: TinyModels
) -> None:
    """Vectors are keyed by it: the same files elsewhere are the same model; other bytes or
    another declaration are another model (a re-embedding, never a mix)."""
    a = declared(tiny_models.a.folder, 24)
    moved = tmp_path / "moved"
    shutil.copytree(tiny_models.a.folder, moved)
    assert declared(moved, 24).model_id() == a.model_id()
    assert declared(tiny_models.a.folder, 24, pooling="cls").model_id() != a.model_id()
    assert declared(tiny_models.a.folder, 24, normalization=False).model_id() != a.model_id()
    shutil.copy(tiny_models.b.folder / "model.onnx", moved / "model.onnx")
    assert declared(moved, 24).model_id() != a.model_id()
    assert ModelSpec("BAAI/bge-base-en-v1.5").model_id() == "BAAI/bge-base-en-v1.5"
    assert ModelSpec.from_json(a.to_json()) == a
    assert ModelSpec.from_json("") is None and ModelSpec.from_json("{") is None


async def test_the_declared_pooling_is_the_one_used(tiny_models: TinyModels) -> None:
    folder = tiny_models.a.folder
    mean = await FastEmbedder.load(declared(folder, 24))
    cls = await FastEmbedder.load(declared(folder, 24, pooling="cls"))
    text = ["garden beans sprouting"]
    assert not np.allclose(await mean.embed(text), await cls.embed(text))


async def test_a_wrong_declaration_says_what_the_model_is(tiny_models: TinyModels) -> None:
    folder = tiny_models.a.folder
    with pytest.raises(EmbeddingModelUnavailable, match=r"embedding\.dimension = 24"):
        await FastEmbedder.load(declared(folder, 32))
    with pytest.raises(EmbeddingModelUnavailable, match=r"embedding\.normalization = true"):
        await FastEmbedder.load(declared(folder, 24, normalization=False))
    with pytest.raises(EmbeddingModelUnavailable, match=r"has no model\.onnx"):
        await FastEmbedder.load(declared(folder / "nowhere", 24))


async def test_a_name_fastembed_does_not_list_is_named_with_close_ones() -> None:
    with pytest.raises(EmbeddingModelUnavailable) as caught:
        await FastEmbedder.load(ModelSpec("BAAI/bge-base-en-v1.6"))
    message = str(caught.value)
    assert "embedding.model 'BAAI/bge-base-en-v1.6' is not a model fastembed lists" in message
    assert "BAAI/bge-base-en-v1.5" in message and "embedding.model_path" in message


@pytest.mark.parametrize(
    ("table", "says"),
    [
        (
            {"dimension": 768},
            "embedding.dimension declares a local model: set",
        ),
        ({"dimension": 768, "model_path": "/m"}, "embedding.pooling must be one of 'mean'"),
        ({"dimension": 768, "model_path": "/m", "pooling": "avg"}, "(got 'avg')"),
        ({"pooling": "mean"}, "embedding.pooling is declared only for a local model"),
        ({"normalization": False}, "embedding.normalization is declared only for a local"),
        ({"dimension": -1}, "embedding.dimension must be 0"),
        ({"dimension": 10**6, "model_path": "/m", "pooling": "mean"}, "at most 16,384"),
        ({"model": " "}, "embedding.model must name the model"),
        ({"dimension": "768"}, "embedding.dimension must be an integer"),
    ],
)
def test_bad_embedding_settings_are_config_errors(table: dict[str, Any], says: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_settings({"embedding": table})
    assert says in str(caught.value)


def test_a_declared_local_model_is_accepted() -> None:
    settings = parse_settings(
        {
            "embedding": {
                "model": "local/mpnet",
                "model_path": "/m",
                "dimension": 768,
                "pooling": "mean",
            }
        }
    )
    assert isinstance(settings, Settings)
    spec = spec_of(settings.embedding)
    assert spec.declared and (spec.dimension, spec.pooling, spec.normalization) == (
        768,
        "mean",
        True,
    )


def test_every_pooling_the_settings_accept_maps_to_one_of_fastembeds() -> None:
    """The settings (a foundation) and the adapter each name the poolings: the two agree."""
    from kit.embed.fastembed import _POOLING
    from kit.embedding_settings import EMBEDDING_POOLINGS

    assert set(_POOLING) == set(EMBEDDING_POOLINGS)
