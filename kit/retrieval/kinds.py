"""What the vector index and the searches call their layers: the kinds of item memory holds
(facts, days, messages, notes), the passages of long messages that have vectors too, and the
short digest that names a user's or a model's saved matrices and indexes. Apart from
kit/retrieval/vectors.py so the matrices and the lexical search name them without importing
the index.
"""

from __future__ import annotations

import hashlib
from typing import Literal

Kind = Literal["fact", "day", "message", "note"]
# The layers a turn's context retrieves from; notes (sections of the owner's documents) are
# searched only when asked for (`search_memory`, `kit search`), never put in every prompt.
KINDS: tuple[Kind, ...] = ("fact", "day", "message")
NOTES: Kind = "note"
# What has vectors: the layers, and the passages of long messages (kit/retrieval/
# passage_rows.py), which the message layer searches beside its messages' own vectors.
VectorKind = Literal["fact", "day", "message", "note", "passage"]
PASSAGES: VectorKind = "passage"


def digest(text: str) -> str:
    """A short, file-name-safe stand-in for a user or model id."""
    return hashlib.sha256(text.encode()).hexdigest()[:16]
