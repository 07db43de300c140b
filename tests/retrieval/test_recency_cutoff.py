"""A search computes the recency boost only for items newer than `boosted_after` (issue 33,
round 16): every item at or before it must have no boost, or scores would change."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from kit.retrieval.ranking import RankingParams

NOW = datetime(2023, 5, 8, 13, 56, 7, 123456, tzinfo=UTC)


@given(
    days=st.one_of(st.sampled_from([7.0, 1.0, 0.5, 1 / 3, 0.0, -1.0]), st.floats(0.001, 400)),
    before=st.integers(0, 2_000_000),
)
def test_no_item_at_or_before_the_cutoff_has_a_recency_boost(days: float, before: int) -> None:
    p = dataclasses.replace(RankingParams(), recency_days=days)
    cutoff = p.boosted_after(NOW)
    at = cutoff - timedelta(microseconds=before)
    assert p.recency(at, NOW) == 0.0


def test_items_after_the_cutoff_keep_their_boost() -> None:
    p = RankingParams()
    assert p.recency(p.boosted_after(NOW) + timedelta(hours=1), NOW) > 0
    assert p.boosted_after(NOW) < NOW - timedelta(days=p.recency_days)
