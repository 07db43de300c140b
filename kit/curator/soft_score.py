"""The grounding guard's soft part, below the word-level bar, decided as one score.

When every hard part of a fact holds (names, numbers, amounts, dates, places, whose words,
said as a fact: kit/curator/judge.py) and its soft words fall short of the word-level bar
(judge.STORE of their weight said), whether it is stored, asked about or dropped is one
logistic score over what the guard has already read:
- the words (judge.py): the share of the soft words' weight said, the heaviest unsaid word's
  weight, how many are unsaid and of what kind (a thing, a verb, a describing word, a name),
  how many are said only through a WordNet relation;
- the meaning (kit/curator/meaning.py, Kit's own embedding model): the closest cited
  sentence's cosine to the fact, its margin over the next sentence, the closest cited
  message's cosine as a whole, how many sentences were cited.

It replaces a chain of hand-set bars below STORE (a share to ask, a cosine bar and margin, a
rule for one unsaid word, a message of one sentence never lifted). A score that also decided
what the words store lost on the unseen sets (docs/measurements.md, "Round 15"): the bar
stays. The coefficients were fitted on the development sets only (bench/data/
grounding-planted.json and grounding-fresh.json to -fresh5.json); `python
bench/grounding_fit.py` refits them. Without the model they were fitted with there are no
cosines, and the word-level ASK bar decides.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from kit.curator.related import part, thing

Status = Literal["supported", "partial", "unsupported"]


@dataclass(frozen=True)
class SoftWords:
    """How a fact's soft words are said in what it cites (judge.py)."""

    share: float  # of their weight, said (a related form counting part)
    unsaid: tuple[str, ...]  # as the fact writes them
    unsaid_worth: tuple[float, ...]  # each one's weight, as `unsaid`
    relayed: int  # said only in a form WordNet relates to them
    total: float  # their weight
    reason: str = ""  # why it is short (names words of the fact, never a message)


@dataclass(frozen=True)
class Closeness:
    """How near, by meaning, a fact stands to what it cites (meaning.py)."""

    best: float  # the closest sentence's cosine
    margin: float  # over the next-closest sentence; 0 when one sentence is cited
    whole: float  # the closest cited message's, as a whole
    sentences: int


FEATURES = (
    "share",
    "heaviest_unsaid",
    "unsaid",
    "unsaid_things",
    "unsaid_verbs",
    "unsaid_describing",
    "unsaid_names",
    "relayed",
    "best",
    "margin",
    "whole",
    "one_sentence",
    "log_sentences",
)


def features(words: SoftWords, close: Closeness) -> tuple[float, ...]:
    """The score's inputs, in the order of FEATURES."""
    kinds = [part(w) for w in words.unsaid]
    named = [w[:1].isupper() or not k for w, k in zip(words.unsaid, kinds, strict=True)]
    return (
        words.share,
        max(words.unsaid_worth, default=0.0),
        float(len(words.unsaid)),
        float(sum(thing(w) and not n for w, n in zip(words.unsaid, named, strict=True))),
        float(sum(k == "verb" for k in kinds)),
        float(sum(k in ("adj", "adv") for k in kinds)),
        float(sum(named)),
        float(words.relayed),
        close.best,
        close.margin,
        close.whole,
        float(close.sentences == 1),
        math.log(max(close.sentences, 1)),
    )


# Fitted by `python bench/grounding_fit.py` (an L2-penalised logistic regression, Newton's
# method on standardised inputs, folded back to these raw-scale weights) on the development
# sets' 174 operations that reach the score (51 of them supported), all-MiniLM-L6-v2's
# cosines; STORE_AT and ASK_AT picked on the same sets (the script's note).
INTERCEPT = -8.1183
WEIGHTS = {
    "share": 1.6164,
    "heaviest_unsaid": 0.2748,
    "unsaid": 0.3119,
    "unsaid_things": -0.5718,
    "unsaid_verbs": 0.0666,
    "unsaid_describing": 0.1798,
    "unsaid_names": -0.5630,
    "relayed": -0.1625,
    "best": 7.6358,
    "margin": -0.6712,
    "whole": 3.9404,
    "one_sentence": -0.9422,
    "log_sentences": 0.9931,
}
STORE_AT = 0.5018
ASK_AT = 0.4990


def score(words: SoftWords, close: Closeness) -> float:
    """How likely, by the fitted weights, the fact is said by what it cites (0 to 1)."""
    return probability(features(words, close))


def probability(x: Sequence[float]) -> float:
    z = INTERCEPT + sum(WEIGHTS[n] * v for n, v in zip(FEATURES, x, strict=True))
    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))


def decide(words: SoftWords, close: Closeness) -> Status:
    x = features(words, close)
    p = probability(x)
    if p >= STORE_AT and not swapped(x):
        return "supported"
    return "partial" if p >= ASK_AT else "unsupported"


SWAPPED = 2.0  # unsaid things


def swapped(x: Sequence[float]) -> bool:
    """Two things the fact names unsaid: a thing swapped ("an animal shelter" for "the food
    bank"), stored by no closeness, as a swap on the message's topic is as close as a
    paraphrase (docs/measurements.md, rounds 10 and 15)."""
    return x[FEATURES.index("unsaid_things")] >= SWAPPED
