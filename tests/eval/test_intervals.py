"""Bootstrap intervals over questions, and the rule a ranking default changes by."""

from __future__ import annotations

import pytest

from kit.eval.intervals import Interval, keep, mean_interval, paired_change, verdict


def test_an_interval_holds_the_mean_and_narrows_with_more_questions() -> None:
    few = mean_interval([1.0, 0.0] * 10)
    many = mean_interval([1.0, 0.0] * 500)
    assert few.value == many.value == pytest.approx(0.5)
    assert few.low < 0.5 < few.high
    assert many.high - many.low < (few.high - few.low) / 3


def test_the_same_numbers_give_the_same_interval() -> None:
    values = [0.0, 0.5, 1.0, 1.0, 0.25]
    assert mean_interval(values) == mean_interval(values)


def test_a_paired_change_sees_a_small_consistent_gain_that_unpaired_spread_hides() -> None:
    """Questions vary a lot, the lever changes a few of them the same way: pairing tells."""
    before = [0.0, 1.0] * 100
    after = list(before)
    for i in range(0, 40, 2):
        after[i] = 1.0  # 20 of 200 questions found that were not
    change = paired_change(before, after)
    assert change.value == pytest.approx(0.1)
    assert verdict(change) == "helps"
    assert mean_interval(after).low < mean_interval(before).high  # unpaired: overlapping
    assert verdict(paired_change(after, before)) == "hurts"
    assert verdict(paired_change(before, before)) == "within"


def test_paired_values_must_match() -> None:
    with pytest.raises(ValueError, match="differ in length"):
        paired_change([1.0], [1.0, 0.0])
    with pytest.raises(ValueError, match="at least one"):
        mean_interval([])


def test_a_default_changes_only_when_it_helps_one_corpus_and_hurts_none() -> None:
    helps, hurts, noise = (
        Interval(0.03, 0.01, 0.05),
        Interval(-0.03, -0.05, -0.01),
        Interval(0.0, -0.01, 0.01),
    )
    assert keep({"locomo": helps, "beam": noise})
    assert keep({"locomo": helps, "beam": helps})
    assert not keep({"locomo": helps, "beam": hurts})
    assert not keep({"locomo": noise, "beam": noise})
    assert str(helps) == "0.030 [0.010, 0.050]" and hurts.signed() == "-0.030 [-0.050, -0.010]"
