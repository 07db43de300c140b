"""The grounding guard's meaning check: how near, by meaning, a fact whose hard parts all hold
stands to the sentences of the messages it cites.

The word-level guard (kit/curator/judge.py) scores a fact's soft words by how many of them
the cited messages say, in their own forms or one WordNet relation away. A curator paraphrases
("is finishing" for "wrapping up"), so a supported fact can fall short. For a fact whose hard
parts all hold (every name, number, amount, date, place, kin word and speaker, said as a
fact) and whose soft words fall short of the word-level bar to store, the fact, each sentence of its
cited messages and each message whole are embedded with Kit's own model (the `Embedder` port,
kit/embed/), and what they give (`Closeness`: the closest sentence's cosine, its margin over
the next, the closest message's cosine, how many sentences) joins the words' signals in one
score (kit/curator/soft_score.py).

Why the margin counts (docs/measurements.md, "The grounding guard", rounds 7 and 15): a fact
that swaps one detail ("volunteers at a dog shelter" for "a shelter") is as close to its
sentence, by cosine, as a paraphrase is; what a paraphrase has more often is one sentence that
stands out from the rest of the message.

The score was fitted with all-MiniLM-L6-v2's cosines; another model's are on another scale, so
with another model (or none) there is no meaning check and the guard is the word-level one.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

import numpy as np

from kit.curator.soft_score import Closeness
from kit.embed.base import Embedder, Vectors

# The models the soft score was fitted with (its name; a declared local folder adds
# "@fingerprint" to the id)
CALIBRATED = frozenset({"sentence-transformers/all-MiniLM-L6-v2"})

_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")


def sentences(text: str) -> list[str]:
    """A message's sentences, as the meaning check compares them (a fragment of one or two
    characters is none)."""
    found = [s for s in (part.strip() for part in _SENTENCE.split(text)) if len(s) > 2]
    return found or [text.strip()]


class Meanings:
    """What the texts of one batch mean, read by one embedding call per pass (`read`) and
    compared without the model (`holds`)."""

    def __init__(self, embedder: Embedder) -> None:
        self._embedder = embedder
        self._vectors: dict[str, np.ndarray] = {}

    @classmethod
    def calibrated(cls, embedder: Embedder | None) -> Meanings | None:
        """A meaning check with `embedder`, if it is the model the score was fitted with."""
        if embedder is None or embedder.model_id.split("@", 1)[0] not in CALIBRATED:
            return None
        return cls(embedder)

    async def read(self, texts: Iterable[str]) -> None:
        """Embed, in one call, the texts not read yet (facts and their messages' sentences)."""
        new = [t for t in dict.fromkeys(texts) if t not in self._vectors]
        if not new:
            return
        vectors: Vectors = await self._embedder.embed(new)
        self._vectors.update(zip(new, vectors, strict=True))

    def closeness(self, fact: str, cited: Sequence[str]) -> Closeness | None:
        """How near `fact` stands to the sentences of `cited` and to each whole; None when
        they were not read (the caller keeps the word-level verdict)."""
        scores = self._scores(fact, cited)
        if scores is None or not len(scores) or any(t not in self._vectors for t in cited):
            return None
        whole = max(float(self._vectors[t] @ self._vectors[fact]) for t in cited)
        margin = float(scores[-1] - scores[-2]) if len(scores) > 1 else 0.0
        return Closeness(float(scores[-1]), margin, whole, len(scores))

    def _scores(self, fact: str, cited: Sequence[str]) -> Vectors | None:
        """The cosines of `fact` with each sentence of `cited`, lowest first; None when any
        of them was not read."""
        said = [s for text in cited for s in sentences(text)]
        if fact not in self._vectors or any(s not in self._vectors for s in said):
            return None
        if not said:
            return np.zeros(0, dtype=np.float32)
        return np.sort(np.stack([self._vectors[s] for s in said]) @ self._vectors[fact])
