"""Recall@k, hit@k and MRR on hand-made rankings whose values are worked out by hand."""

from __future__ import annotations

import pytest

from kit.eval.metrics import (
    Outcome,
    by_category,
    hit_at,
    percentile,
    recall_at,
    reciprocal_rank,
    summarise,
)

RANKED = ("D1:4", "D1:1", None, "D2:7", "D1:2")  # None: a hit without a ref (not a turn)


def test_recall_is_the_share_of_evidence_in_the_top_k() -> None:
    evidence = ("D1:1", "D1:2", "D3:3")
    assert recall_at(RANKED, evidence, 1) == 0.0
    assert recall_at(RANKED, evidence, 2) == pytest.approx(1 / 3)
    assert recall_at(RANKED, evidence, 5) == pytest.approx(2 / 3)
    assert recall_at(RANKED, evidence, 50) == pytest.approx(2 / 3)  # k past the end
    assert recall_at(RANKED, ("D1:1", "D1:1"), 2) == 1.0  # duplicates count once
    with pytest.raises(ValueError):
        recall_at(RANKED, (), 5)


def test_hit_and_reciprocal_rank_use_the_first_evidence_found() -> None:
    assert hit_at(RANKED, ("D2:7",), 3) == 0.0
    assert hit_at(RANKED, ("D2:7",), 4) == 1.0
    assert reciprocal_rank(RANKED, ("D2:7", "D1:2")) == pytest.approx(1 / 4)
    assert reciprocal_rank(RANKED, ("D9:9",)) == 0.0


def outcome(category: str, ranked: tuple[str | None, ...], evidence: tuple[str, ...]) -> Outcome:
    return Outcome(category, ranked, evidence, seconds=0.01, tokens=(10, 20))


def test_summaries_average_over_questions_overall_and_per_category() -> None:
    outcomes = [
        outcome("single-hop", ("a", "b"), ("a",)),  # recall 1 at 1 and 2; RR 1
        outcome("single-hop", ("x", "b"), ("b", "c")),  # recall 0 at 1, 1/2 at 2; RR 1/2
        outcome("multi-hop", ("x", "y"), ("z",)),  # recall 0; RR 0
    ]
    result = by_category(outcomes, (1, 2))
    assert list(result) == ["all", "multi-hop", "single-hop"]
    overall = result["all"]
    assert overall.questions == 3
    assert overall.recall[1] == pytest.approx(1 / 3)
    assert overall.recall[2] == pytest.approx((1 + 0.5 + 0) / 3)
    assert overall.hit[2] == pytest.approx(2 / 3)
    assert overall.mrr == pytest.approx((1 + 0.5 + 0) / 3)
    assert overall.tokens == {1: 10, 2: 20}
    assert result["single-hop"].recall[2] == pytest.approx(0.75)
    assert result["multi-hop"].mrr == 0.0
    with pytest.raises(ValueError):
        summarise([], (1,))


def test_percentiles_are_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 0.5) == 50.0
    assert percentile(values, 0.95) == 95.0
    assert percentile([3.0], 0.95) == 3.0


def test_recall_shown_counts_what_the_context_takes_and_its_budget_holds() -> None:
    from kit.eval.metrics import Outcome, recall_shown, shown, within

    ranked = ("a", "b", "c", "d")
    outcome = Outcome("x", ranked, ("c", "d"), 0.0, (0,), (), (100, 500, 300, 50), 3)
    assert within(ranked, outcome.costs, 900) == 3  # 100 + 500 + 300; the 4th would pass
    assert within(ranked, outcome.costs, 50) == 0
    assert shown(outcome, 10_000) == 3  # the context takes 3 for this question
    assert recall_shown(outcome, 10_000) == 0.5 and recall_shown(outcome, 600) == 0.0
    every = Outcome("x", ranked, ("d",), 0.0, (0,), (), (10, 10, 10, 10), 0)
    assert shown(every, 100) == 4 and recall_shown(every, 100) == 1.0
