"""What a turn's context shows when nothing in memory answers: questions of one corpus asked of
the other's conversations (LoCoMo's of BEAM's and the other way round), which have no evidence
there. A cosine floor keeps unrelated turns out of the context; a recall number cannot measure
it (every question it counts has evidence), so the ablations print this beside it."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from statistics import fmean

from kit.eval.locomo import Sample
from kit.eval.metrics import Outcome, shown


def off_topic(samples: Sequence[Sample], others: Sequence[Sample], each: int) -> list[Sample]:
    """`samples` asked `each` questions of `others` (dealt in turn, different ones per
    conversation), with no evidence: nothing in the conversation answers them."""
    pool = [dataclasses.replace(q, evidence=()) for s in others for q in s.questions]
    if not pool:
        raise ValueError("off-topic questions need another corpus with questions")
    out = []
    for n, sample in enumerate(samples):
        asked = tuple(pool[(n * each + i) % len(pool)] for i in range(each))
        out.append(dataclasses.replace(sample, questions=asked))
    return out


def shown_when_nothing_answers(outcomes: Sequence[Outcome], budget: int) -> tuple[float, float]:
    """Mean hits and mean tokens a turn's context would show for these questions."""
    if not outcomes:
        raise ValueError("no off-topic questions")
    counts = [shown(o, budget) for o in outcomes]
    tokens = [sum(o.costs[:n]) for o, n in zip(outcomes, counts, strict=True)]
    return fmean(counts), fmean(tokens)
