"""Bootstrap intervals over questions: how sure a recall number, or a change in it, is.

A corpus's recall is a mean over its questions, and so is the change a ranking lever makes.
Resampling the questions (with replacement, the same draw for both rankings: a *paired*
bootstrap) gives the spread that mean would have over other questions of the same kind; the
2.5th and 97.5th percentiles of the resampled means are the 95% interval. A lever helps a
corpus when its interval for the change lies above zero, hurts it when it lies below, and is
within the noise otherwise (`verdict`). A ranking default changes only when it helps one
corpus and the other stays within its noise, or helps both (docs/retrieval-quality.md).

The draws come from a seeded generator: the same numbers give the same interval.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

RESAMPLES = 2000
LEVEL = 0.95
SEED = 20261128

Verdict = Literal["helps", "hurts", "within"]


@dataclass(frozen=True)
class Interval:
    value: float  # the mean over the questions (or the mean change)
    low: float
    high: float

    def __str__(self) -> str:
        return f"{self.value:.3f} [{self.low:.3f}, {self.high:.3f}]"

    def signed(self) -> str:
        """A change with its interval: "+0.038 [+0.019, +0.058]"."""
        return f"{self.value:+.3f} [{self.low:+.3f}, {self.high:+.3f}]"


def _resampled_means(values: np.ndarray, resamples: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    picks = rng.integers(0, len(values), size=(resamples, len(values)))
    means: np.ndarray = values[picks].mean(axis=1)
    return means


def _interval(values: np.ndarray, resamples: int, seed: int, level: float) -> Interval:
    if len(values) == 0:
        raise ValueError("an interval needs at least one question")
    means = _resampled_means(values, resamples, seed)
    tail = (1 - level) / 2 * 100
    low, high = np.percentile(means, [tail, 100 - tail])
    return Interval(float(values.mean()), float(low), float(high))


def mean_interval(
    values: Sequence[float],
    *,
    resamples: int = RESAMPLES,
    seed: int = SEED,
    level: float = LEVEL,
) -> Interval:
    """The mean of per-question values and its bootstrap interval."""
    return _interval(np.asarray(values, dtype=np.float64), resamples, seed, level)


def paired_change(
    before: Sequence[float],
    after: Sequence[float],
    *,
    resamples: int = RESAMPLES,
    seed: int = SEED,
    level: float = LEVEL,
) -> Interval:
    """The mean change from `before` to `after` (the same questions, in the same order) and
    its paired bootstrap interval."""
    if len(before) != len(after):
        raise ValueError(f"paired values differ in length: {len(before)} and {len(after)}")
    diff = np.asarray(after, dtype=np.float64) - np.asarray(before, dtype=np.float64)
    return _interval(diff, resamples, seed, level)


def verdict(change: Interval) -> Verdict:
    """Whether a change helps (its interval above zero), hurts (below) or is within noise."""
    if change.low > 0:
        return "helps"
    if change.high < 0:
        return "hurts"
    return "within"


def keep(changes: Mapping[str, Interval]) -> bool:
    """The rule for a ranking default (one change per corpus): it helps at least one corpus
    and hurts none."""
    verdicts = [verdict(c) for c in changes.values()]
    return "helps" in verdicts and "hurts" not in verdicts
