"""The Embedder port: texts in, unit-length float32 vectors out."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np
import numpy.typing as npt

Vectors = npt.NDArray[np.float32]


class Embedder(Protocol):
    model_id: str  # keys stored vectors: a different model means a rebuild, never a mix
    dim: int

    async def embed(self, texts: Sequence[str]) -> Vectors:
        """Shape (len(texts), dim), each row L2-normalised. Runs off the event loop."""
        ...
