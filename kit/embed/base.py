"""The Embedder port: texts in, unit-length float32 vectors out."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np
import numpy.typing as npt

Vectors = npt.NDArray[np.float32]


class Embedder(Protocol):
    model_id: str  # keys stored vectors: a different model means a rebuild, never a mix

    @property
    def dim(self) -> int:
        """The length of each vector (a model loaded on first use knows it once loaded)."""
        ...

    async def embed(self, texts: Sequence[str]) -> Vectors:
        """Shape (len(texts), dim), each row L2-normalised. Runs off the event loop."""
        ...
