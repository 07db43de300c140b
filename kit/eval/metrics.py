"""Retrieval metrics over ranked refs: evidence recall@k, hit@k and MRR.

recall@k  = share of a question's evidence turns found in the top k (averaged over questions)
hit@k     = 1 if any evidence turn is in the top k
MRR       = 1 / rank of the first evidence turn (0 if none was retrieved at all)

Beside them, the evidence turns that share no content word with their question
(kit/eval/overlap.py): how many there are, and the share of them found in the top k (counted
per turn, not averaged per question).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from statistics import fmean


def recall_at(ranked: Sequence[str | None], evidence: Iterable[str], k: int) -> float:
    wanted = set(evidence)
    if not wanted:
        raise ValueError("recall needs at least one evidence ref")
    return len(wanted.intersection(ranked[:k])) / len(wanted)


def within(ranked: Sequence[str | None], costs: Sequence[int], budget: int) -> int:
    """How many of the best-ranked hits fit in `budget` tokens together (each costs its own
    line): what a prompt with that much room for them shows."""
    used = count = 0
    for cost in costs[: len(ranked)]:
        if used + cost > budget:
            break
        used += cost
        count += 1
    return count


def shown(outcome: Outcome, budget: int) -> int:
    """How many of the ranked hits a turn's context shows: the first `outcome.shows` (all
    when 0), as many of them as fit in `budget` tokens."""
    ranked = outcome.ranked[: outcome.shows] if outcome.shows else outcome.ranked
    return within(ranked, outcome.costs, budget)


def recall_shown(outcome: Outcome, budget: int) -> float:
    """Recall of the hits a turn's context shows (`shown`)."""
    return recall_at(outcome.ranked, outcome.evidence, shown(outcome, budget))


def hit_at(ranked: Sequence[str | None], evidence: Iterable[str], k: int) -> float:
    return 1.0 if set(evidence).intersection(ranked[:k]) else 0.0


def reciprocal_rank(ranked: Sequence[str | None], evidence: Iterable[str]) -> float:
    wanted = set(evidence)
    for rank, ref in enumerate(ranked, 1):
        if ref in wanted:
            return 1.0 / rank
    return 0.0


@dataclass(frozen=True)
class Outcome:
    """One question's ranked result, as the metrics need it."""

    category: str
    ranked: tuple[str | None, ...]
    evidence: tuple[str, ...]
    seconds: float
    tokens: tuple[int, ...]  # context tokens of the top k, one per k in the report
    unshared: tuple[str, ...] = ()  # evidence turns sharing no content word with the question
    costs: tuple[int, ...] = ()  # tokens of each ranked hit as shown (its line)
    shows: int = 0  # hits a turn's context takes for this question (memory.top_k, or more)


@dataclass(frozen=True)
class Summary:
    questions: int
    recall: dict[int, float]
    hit: dict[int, float]
    mrr: float
    seconds_p50: float
    seconds_p95: float
    tokens: dict[int, float]  # mean tokens of the top k
    evidence_turns: int = 0
    unshared_turns: int = 0  # evidence turns sharing no content word with their question
    unshared_recall: dict[int, float] | None = None  # share of those in the top k (None: none)


def percentile(values: Sequence[float], share: float) -> float:
    """Nearest-rank percentile (share in 0..1)."""
    if not values:
        raise ValueError("percentile of nothing")
    ordered = sorted(values)
    rank = math.ceil(share * len(ordered) - 1e-9)  # 0.95 * 100 is 95.00000000000001
    return ordered[max(0, min(len(ordered), rank) - 1)]


def summarise(outcomes: Sequence[Outcome], ks: Sequence[int]) -> Summary:
    if not outcomes:
        raise ValueError("no questions to summarise")
    seconds = [o.seconds for o in outcomes]
    return Summary(
        questions=len(outcomes),
        recall={k: fmean(recall_at(o.ranked, o.evidence, k) for o in outcomes) for k in ks},
        hit={k: fmean(hit_at(o.ranked, o.evidence, k) for o in outcomes) for k in ks},
        mrr=fmean(reciprocal_rank(o.ranked, o.evidence) for o in outcomes),
        seconds_p50=percentile(seconds, 0.5),
        seconds_p95=percentile(seconds, 0.95),
        tokens={k: fmean(o.tokens[i] for o in outcomes) for i, k in enumerate(ks)},
        evidence_turns=sum(len(set(o.evidence)) for o in outcomes),
        unshared_turns=sum(len(o.unshared) for o in outcomes),
        unshared_recall=_unshared_recall(outcomes, ks),
    )


def _unshared_recall(outcomes: Sequence[Outcome], ks: Sequence[int]) -> dict[int, float] | None:
    total = sum(len(o.unshared) for o in outcomes)
    if not total:
        return None
    return {
        k: sum(len(set(o.unshared).intersection(o.ranked[:k])) for o in outcomes) / total
        for k in ks
    }


def by_category(outcomes: Sequence[Outcome], ks: Sequence[int]) -> dict[str, Summary]:
    """ "all" first, then one summary per category present, in name order."""
    groups: dict[str, list[Outcome]] = {}
    for outcome in outcomes:
        groups.setdefault(outcome.category, []).append(outcome)
    result = {"all": summarise(outcomes, ks)}
    for name in sorted(groups):
        result[name] = summarise(groups[name], ks)
    return result
