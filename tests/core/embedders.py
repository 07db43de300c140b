"""An embedder with hand-set cosines, for ranking tests that need exact similarities."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from kit.embed.base import Vectors


class CosineTable:
    """Embeds `query` as the first axis and each listed text at a chosen cosine to it.

    Every listed text gets its own orthogonal axis for the remainder, so listed texts are
    unrelated to each other; unlisted texts embed to zero (cosine 0 with everything).
    """

    def __init__(self, query: str, cosines: dict[str, float], dim: int = 64) -> None:
        if len(cosines) + 1 > dim:
            raise ValueError("CosineTable: more texts than dimensions")
        self.model_id = "cosine-table"
        self.dim = dim
        self._vectors: dict[str, Vectors] = {}
        axis = np.eye(dim, dtype=np.float32)
        self._vectors[query] = axis[0]
        for i, (text, cosine) in enumerate(cosines.items(), 1):
            self._vectors[text] = (cosine * axis[0] + math.sqrt(1 - cosine**2) * axis[i]).astype(
                np.float32
            )

    async def embed(self, texts: Sequence[str]) -> Vectors:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            if text in self._vectors:
                out[row] = self._vectors[text]
        return out
