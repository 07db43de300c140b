"""A deterministic bag-of-words embedder: the fake for tests, no model needed.

Texts sharing words get a positive cosine, texts sharing none get ~0, which is enough to
exercise ranking logic exactly and repeatably.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

import numpy as np

from kit.embed.base import Vectors

_WORD = re.compile(r"[a-z0-9]+")


class HashingEmbedder:
    def __init__(self, dim: int = 256) -> None:
        self.dim = dim
        self.model_id = f"hashing-bow-{dim}"
        self.calls: list[int] = []  # batch sizes, so tests can see batching

    async def embed(self, texts: Sequence[str]) -> Vectors:
        self.calls.append(len(texts))
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in _WORD.findall(text.lower()):
                digest = hashlib.blake2b(word.encode(), digest_size=4).digest()
                out[row, int.from_bytes(digest, "little") % self.dim] += 1.0
            norm = float(np.linalg.norm(out[row]))
            if norm > 0:
                out[row] /= norm
        return out
