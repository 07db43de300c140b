"""Vectors kept between evaluation runs: each distinct text is embedded once per model.

An evaluation imports every conversation into a fresh Kit, so each run embeds every turn
again: minutes of CPU for BEAM-100K with MiniLM, ten times that with a larger model. A vector
is a function of its text and the model alone (kit/embed/fastembed.py embeds each text on its
own), so a run may take it from an earlier one. The folder holds one subfolder per model (a
hash of its id), with files of (text hash, vector) rows, one file per run that added any:
runs never rewrite each other's files, and new vectors are written every `SAVE_EVERY`, so a
killed run loses few. Only for `kit eval retrieval --vector-cache` and the benchmarks: Kit
itself keeps its vectors in its database.
"""

from __future__ import annotations

import hashlib
import os
import uuid
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from kit.embed.base import Embedder, Vectors
from kit.errors import InputError

SAVE_EVERY = 500  # new vectors written out as they come: a killed run keeps most of its work


def _key(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8")).digest()[:16]


class CachedEmbedder:
    """An embedder that answers from `folder` what an earlier run embedded with the same model,
    and embeds (with `inner`) only the rest; `save()` writes what it added."""

    def __init__(self, inner: Embedder, folder: Path) -> None:
        self.inner = inner
        self.model_id = inner.model_id
        model = hashlib.sha256(inner.model_id.encode()).hexdigest()[:16]
        self._folder = folder / model
        self._vectors: dict[bytes, Vectors] = {}
        self._added: dict[bytes, Vectors] = {}
        self.hits = 0  # texts answered from the cache
        self.misses = 0  # texts the model embedded
        try:
            self._folder.mkdir(parents=True, exist_ok=True)
            (self._folder / "model.txt").write_text(inner.model_id + "\n", encoding="utf-8")
        except OSError as exc:
            raise InputError(f"--vector-cache {folder}: cannot write there ({exc})") from exc
        self._load()

    @property
    def dim(self) -> int:
        return self.inner.dim

    def _load(self) -> None:
        for path in sorted(self._folder.glob("*.npz")):
            try:
                with np.load(path) as data:
                    keys, vectors = data["keys"], data["vectors"]
            except (OSError, ValueError, KeyError):
                continue  # a file another run is still writing, or a damaged one: ignored
            for key, vector in zip(keys, vectors, strict=True):
                self._vectors[bytes(key)] = vector.astype(np.float32)

    async def embed(self, texts: Sequence[str]) -> Vectors:
        keys = [_key(t) for t in texts]
        missing = {k: t for k, t in zip(keys, texts, strict=True) if k not in self._vectors}
        self.hits += len(keys) - len(missing)
        if missing:
            self.misses += len(missing)
            fresh = await self.inner.embed(list(missing.values()))
            for key, vector in zip(missing, fresh, strict=True):
                self._vectors[key] = vector
                self._added[key] = vector
            if len(self._added) >= SAVE_EVERY:
                self.save()
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack([self._vectors[k] for k in keys])

    def save(self) -> int:
        """Write the vectors this run added (a file of its own); how many."""
        if not self._added:
            return 0
        keys = np.array([np.frombuffer(k, dtype=np.uint8) for k in self._added])
        vectors = np.stack(list(self._added.values()))
        name = f"{uuid.uuid4().hex}.npz"
        partial = self._folder / f".{name}.partial"
        with partial.open("wb") as out:
            np.savez(out, keys=keys, vectors=vectors)
        os.replace(partial, self._folder / name)
        count = len(self._added)
        self._added = {}
        return count
