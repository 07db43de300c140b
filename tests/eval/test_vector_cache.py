"""Vectors kept between evaluation runs: the same text and model never embedded twice."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from kit.embed.base import Vectors
from kit.embed.hashing import HashingEmbedder
from kit.errors import InputError
from kit.eval.vector_cache import CachedEmbedder


class Counting:
    def __init__(self, model_id: str = "hashing") -> None:
        self.inner = HashingEmbedder()
        self.model_id = model_id
        self.dim = self.inner.dim
        self.texts: list[str] = []

    async def embed(self, texts: Sequence[str]) -> Vectors:
        self.texts.extend(texts)
        return await self.inner.embed(texts)


async def test_a_second_run_takes_its_vectors_from_the_first(tmp_path: Path) -> None:
    first = Counting()
    cache = CachedEmbedder(first, tmp_path)
    vectors = await cache.embed(["a dog", "a cat", "a dog"])
    assert first.texts == ["a dog", "a cat"] and cache.save() == 2
    assert cache.save() == 0  # nothing new since

    second = Counting()
    again = CachedEmbedder(second, tmp_path)
    assert np.array_equal(await again.embed(["a cat", "a dog"]), vectors[[1, 0]])
    assert second.texts == [] and (again.hits, again.misses) == (2, 0)
    await again.embed(["a bird"])
    assert second.texts == ["a bird"]


async def test_another_model_never_gets_these_vectors(tmp_path: Path) -> None:
    cache = CachedEmbedder(Counting("model-a"), tmp_path)
    await cache.embed(["a dog"])
    cache.save()
    other = Counting("model-b")
    await CachedEmbedder(other, tmp_path).embed(["a dog"])
    assert other.texts == ["a dog"]


def _damage(root: Path) -> None:
    folder = next(p for p in root.iterdir() if p.is_dir())
    (folder / "broken.npz").write_bytes(b"not a zip")


async def test_a_damaged_file_is_passed_over(tmp_path: Path) -> None:
    cache = CachedEmbedder(Counting(), tmp_path)
    await cache.embed(["a dog"])
    cache.save()
    _damage(tmp_path)
    inner = Counting()
    assert (await CachedEmbedder(inner, tmp_path).embed(["a dog"])).shape == (1, inner.dim)
    assert inner.texts == []


def test_a_folder_that_cannot_be_written_is_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(InputError, match="--vector-cache"):
        CachedEmbedder(Counting(), blocker)
