"""The grounding guard's weighing: what the word-level judgement read of a fact (kit/curator/
judge.py) and how close the fact stands to its cited sentences (kit/curator/meaning.py), put
together by weights fitted on the development sets, decide between storing a fact and asking
the owner about it.

Why: each reading of the word-level guard is a rule of its own, and one rule alone drops a
fact (one word said only inside a question: `I'm worried that my cover letter, which I
submitted on April 23, ...`; one paraphrased word). Together the readings say more: how much
of the fact is said as a fact, how much only hedged, of someone else or not at all, and how
close the fact's sentence is to the message's. A logistic weighing of them (kit/curator/
weights.py, written by bench/grounding_fit.py from the development sets, never from the
held-out ones) stores a fact the rules fall short on at LIFT or more, and sets a fact the rules
would store aside as a question for the owner below DOUBT.

What it never overrules (`weighable`): a name, number, date or kin word the cited messages do
not have or only deny, a word they say the opposite of, and every check before and after the
words (Kit's own message cited, a question or a hypothetical as the fact, a relation no message
says, an act said only as meant): those keep the word-level verdict. It runs only where the
meaning check does (all-MiniLM-L6-v2: the cosines the weights were fitted with).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TypeGuard

from kit.curator import weights as fitted

# What the weighing may not overrule: a hard part missing, said the other way round or denied
HELD = frozenset(
    {"missing-name", "missing-number", "missing-date", "missing-kin"}
    | {"hard-opposed", "hard-negated"}
)
# How a term falls short, as the word-level judgement names it (kit/curator/grounding_reasons.py)
SHORT = (
    "hard-hedged", "word-hedged", "hard-other", "word-other", "hard-mine", "word-mine",
    "hard-negated", "word-negated", "word-missing",
)  # fmt: skip
TERM_KINDS = ("name", "number", "date", "word")
STATUSES = ("supported", "partial")  # the word-level verdict ("unsupported": neither)
FEATURES = (
    "share", "weight", *SHORT, *(f"terms-{k}" for k in TERM_KINDS), "stated",
    "related", "fact-hedged", "fact-negated", *(f"was-{s}" for s in STATUSES), "best",
    "margin", "sentences",
)  # fmt: skip


@dataclass(frozen=True)
class Readings:
    """What the word-level judgement read of a fact, as the weighing takes it."""

    problems: Mapping[str, int]  # how terms fall short (SHORT, HELD): how many words each
    said: float  # the soft words' weight said
    total: float  # the soft words' weight
    stated: bool  # an informative soft word is said as a fact
    hedged: bool  # the fact itself hedges ("is thinking about ...")
    negated: bool  # the fact itself denies
    kinds: Mapping[str, int]  # the fact's terms by kind (TERM_KINDS)
    related: int  # soft words said only in a form WordNet relates to them


@dataclass(frozen=True)
class Standing:
    """How close a fact stands to the sentences it cites (kit/curator/meaning.py)."""

    best: float  # the closest sentence's cosine
    margin: float  # how far above the next one (0 for one sentence)
    sentences: int


@dataclass(frozen=True)
class Weights:
    """A fitted logistic weighing (kit/curator/weights.py)."""

    names: Sequence[str]  # FEATURES when it was fitted
    mean: Sequence[float]
    scale: Sequence[float]
    weights: Sequence[float]
    bias: float
    lift: float  # a fact the rules fall short on is stored at this likelihood or more
    doubt: float  # a fact the rules store is asked about below this

    def likelihood(self, x: Sequence[float]) -> float:
        z = self.bias + sum(
            w * (v - m) / s
            for w, v, m, s in zip(self.weights, x, self.mean, self.scale, strict=True)
        )
        return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))


def weighable(readings: Readings | None) -> TypeGuard[Readings]:
    """Whether the weighing may decide: the word-level judgement read the fact, and no hard
    part is missing or opposed."""
    return readings is not None and not any(readings.problems.get(k) for k in HELD)


def features(readings: Readings, status: str, standing: Standing) -> list[float]:
    """The weighing's inputs, in FEATURES' order."""
    total, said = readings.total, readings.said
    return [
        said / total if total else 1.0,
        total,
        *(float(readings.problems.get(k, 0)) for k in SHORT),
        *(float(readings.kinds.get(k, 0)) for k in TERM_KINDS),
        float(readings.stated),
        float(readings.related),
        float(readings.hedged),
        float(readings.negated),
        *(float(status == s) for s in STATUSES),
        standing.best,
        standing.margin,
        float(standing.sentences),
    ]


def current() -> Weights:
    """The weighing as bench/grounding_fit.py last fitted it (kit/curator/weights.py)."""
    return Weights(
        fitted.NAMES, fitted.MEAN, fitted.SCALE, fitted.WEIGHTS, fitted.BIAS, fitted.LIFT,
        fitted.DOUBT,
    )  # fmt: skip


def decide(status: str, x: Sequence[float]) -> tuple[str, float]:
    """The status the fitted weighing gives a verdict of `status` with inputs `x`, and the
    likelihood it read: stored at LIFT or more, asked about (where the rules store it) below
    DOUBT."""
    weights = current()
    likelihood = weights.likelihood(x)
    if status == "supported":
        return ("partial" if likelihood < weights.doubt else status), likelihood
    return ("supported" if likelihood >= weights.lift else status), likelihood
