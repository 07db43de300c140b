"""The grounding guard's meaning check: a fact whose hard parts all hold but whose soft words
fall short is compared, by meaning, with the sentences of the messages it cites.

The word-level guard (kit/curator/grounding.py) scores a fact's soft words by how many of them
the cited messages say, in their own forms or one WordNet relation away. A curator paraphrases
("is finishing" for "wrapping up"), so a supported fact can fall short. For such a fact only
(every name, number, amount, date, place, kin word and speaker holds, it is said as a fact, and
the only problem is soft words unsaid), the fact and each sentence of its cited messages are
embedded with Kit's own model (the `Embedder` port, kit/embed/), and the fact is stored when
one sentence says it much more than the others do: its cosine at least BAR, and MARGIN above
the next sentence's.

Why a margin and not a bar alone (docs/measurements.md, "The grounding guard", round 7): a
fact that swaps one detail ("volunteers at a dog shelter" for "a shelter", "hot yoga" for
"aerial yoga") is as close to its sentence, by cosine, as a paraphrase is; what a paraphrase
has more often is one sentence that stands out from the rest of the message. A message of one
sentence has no margin to read, so it is never lifted: its fact keeps the word-level verdict.

The bar and margin were chosen on the tune, held and fresh sets with all-MiniLM-L6-v2; another
model's cosines are on another scale, so with another model (or none) there is no meaning
check and the guard is the word-level one, unchanged.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

import numpy as np

from kit.curator.weighing import Standing
from kit.embed.base import Embedder, Vectors

BAR = 0.55  # the best sentence's cosine to the fact
MARGIN = 0.35  # how far above the next-best sentence it stands
# The model the bar and margin were measured with (its name; a declared local folder adds
# "@fingerprint" to the id)
CALIBRATED = {"sentence-transformers/all-MiniLM-L6-v2": (BAR, MARGIN)}

_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")


def sentences(text: str) -> list[str]:
    """A message's sentences, as the meaning check compares them (a fragment of one or two
    characters is none)."""
    found = [s for s in (part.strip() for part in _SENTENCE.split(text)) if len(s) > 2]
    return found or [text.strip()]


class Meanings:
    """What the texts of one batch mean, read by one embedding call per pass (`read`) and
    compared without the model (`holds`)."""

    def __init__(self, embedder: Embedder, bar: float, margin: float) -> None:
        self._embedder = embedder
        self._bar = bar
        self._margin = margin
        self._vectors: dict[str, np.ndarray] = {}

    @classmethod
    def calibrated(cls, embedder: Embedder | None) -> Meanings | None:
        """A meaning check with `embedder`, if it is the model the bar was measured with."""
        if embedder is None:
            return None
        measured = CALIBRATED.get(embedder.model_id.split("@", 1)[0])
        return None if measured is None else cls(embedder, *measured)

    async def read(self, texts: Iterable[str]) -> None:
        """Embed, in one call, the texts not read yet (facts and their messages' sentences)."""
        new = [t for t in dict.fromkeys(texts) if t not in self._vectors]
        if not new:
            return
        vectors: Vectors = await self._embedder.embed(new)
        self._vectors.update(zip(new, vectors, strict=True))

    def best(self, fact: str, cited: Sequence[str]) -> float | None:
        """The cosine of the sentence of `cited` closest to `fact`; None when unread."""
        scores = self._scores(fact, cited)
        return None if scores is None or not len(scores) else float(scores[-1])

    def cosine(self, one: str, other: str) -> float | None:
        """The cosine of two texts read; None when either was not."""
        if one not in self._vectors or other not in self._vectors:
            return None
        return float(self._vectors[one] @ self._vectors[other])

    def standing(self, fact: str, cited: Sequence[str]) -> Standing | None:
        """How close `fact` stands to the sentences of `cited`; None when they were not read
        or there are none."""
        scores = self._scores(fact, cited)
        if scores is None or not len(scores):
            return None
        best = float(scores[-1])
        return Standing(best, best - float(scores[-2]) if len(scores) > 1 else 0.0, len(scores))

    def holds(self, fact: str, cited: Sequence[str]) -> bool | None:
        """Whether one sentence of `cited` says `fact` (BAR, and MARGIN over the others); None
        when they were not read (the caller keeps the word-level verdict)."""
        scores = self._scores(fact, cited)
        if scores is None:
            return None
        if len(scores) < 2:
            return False  # no other sentence to stand out from (module note)
        return bool(scores[-1] >= self._bar and scores[-1] - scores[-2] >= self._margin)

    def _scores(self, fact: str, cited: Sequence[str]) -> Vectors | None:
        """The cosines of `fact` with each sentence of `cited`, lowest first; None when any
        of them was not read."""
        said = [s for text in cited for s in sentences(text)]
        if fact not in self._vectors or any(s not in self._vectors for s in said):
            return None
        if not said:
            return np.zeros(0, dtype=np.float32)
        return np.sort(np.stack([self._vectors[s] for s in said]) @ self._vectors[fact])
