"""The grounding guard's round 31A (issue 29): the weighing (kit/curator/weighing.py) refitted
on today's rules with the short-fact development sets among the ones it is fitted on."""

from __future__ import annotations

from kit.curator import weighing, weights


def test_the_weighing_is_fitted_with_the_short_fact_sets_too() -> None:
    assert weights.__doc__ is not None
    assert all(name in weights.__doc__ for name in ("fresh22", "fresh23", "fresh24"))
    assert tuple(weights.NAMES) == weighing.FEATURES
