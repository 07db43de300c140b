"""The mass-deletion guard counts direct and merged deactivations; exactly the limit passes."""

from __future__ import annotations

from kit.curator import guard
from kit.curator.ops import Deactivate, Insert, Replace, Update


def test_exactly_half_is_allowed_and_one_more_is_not() -> None:
    two = [Deactivate(1, "gone"), Deactivate(2, "gone")]
    assert guard.check(two, active=4, max_fraction=0.5).allowed
    three = [*two, Deactivate(3, "gone")]
    verdict = guard.check(three, active=4, max_fraction=0.5)
    assert not verdict.allowed
    assert "3 of 4" in verdict.reason and "50%" in verdict.reason


def test_replace_counts_every_fact_it_folds_away() -> None:
    merge = [Replace((1, 2, 3), "merged", 0.9)]
    verdict = guard.check(merge, active=5, max_fraction=0.5)
    assert verdict.deactivating == 3 and not verdict.allowed
    assert guard.check(merge, active=6, max_fraction=0.5).allowed


def test_inserts_and_updates_do_not_count() -> None:
    ops = [Insert("x", 1.0), Update(1, content="y"), Update(2, confidence=0.2)]
    assert guard.check(ops, active=2, max_fraction=0.0).allowed


def test_odd_counts_round_down() -> None:
    # 0.5 of 3 is 1.5: one deactivation passes, two do not.
    assert guard.check([Deactivate(1, "x")], active=3, max_fraction=0.5).allowed
    two = [Deactivate(1, "x"), Deactivate(2, "x")]
    assert not guard.check(two, active=3, max_fraction=0.5).allowed
