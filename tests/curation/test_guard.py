"""The mass-retirement guard counts every way a pass takes facts out of use, now or later:
deactivation, merges, near expiries, confidence cuts below the shown threshold and rewrites
about something else. Exactly the limit passes; small categories follow max(1, floor(f*n))."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from kit.curator import guard
from kit.curator.ops import Deactivate, Insert, Operation, Replace, Update
from kit.memory.fact_rows import MIN_SHOWN_CONFIDENCE, Fact

NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
HORIZON = NOW + timedelta(days=60)  # rem.stale_days


def fact(fact_id: int, content: str = "", subject: str = "", **fields: object) -> Fact:
    values: dict[str, object] = {
        "id": fact_id,
        "user_id": "owner",
        "category": "people",
        "subject": subject,
        "content": content or f"fact number {fact_id}",
        "confidence": 0.9,
        "expires_at": None,
        "active": True,
        "pinned": False,
        "created_at": NOW,
        "updated_at": NOW,
        "access_count": 0,
        "last_accessed_at": None,
        "replaced_by": None,
    }
    values.update(fields)
    return Fact(**values)  # type: ignore[arg-type]


def facts(n: int) -> list[Fact]:
    return [fact(i) for i in range(1, n + 1)]


def check(ops: list[Operation], category: list[Fact]) -> guard.GuardVerdict:
    return guard.check(ops, category, 0.5, HORIZON)


def test_exactly_half_is_allowed_and_one_more_is_not() -> None:
    two = [Deactivate(1, "gone"), Deactivate(2, "gone")]
    assert check(two, facts(4)).allowed
    verdict = check([*two, Deactivate(3, "gone")], facts(4))
    assert not verdict.allowed
    assert "3 of 4" in verdict.reason and "50%" in verdict.reason
    assert "max_deactivate_fraction" in verdict.reason


def test_a_merge_of_n_facts_retires_n_minus_one() -> None:
    merge = [Replace((1, 2, 3), "fact number 1, 2 and 3", 0.9)]
    verdict = check(merge, facts(4))
    assert verdict.retiring == 2 and verdict.allowed
    assert not check([*merge, Deactivate(4, "x")], facts(4)).allowed


def test_a_merge_into_a_fact_on_its_way_out_retires_all_of_them() -> None:
    soon = NOW + timedelta(days=3)
    expiring = [Replace((1, 2), "fact number 1 and 2", 0.9, expires_at=soon)]
    assert check(expiring, facts(4)).retiring == 2
    unshown = [Replace((1, 2), "fact number 1 and 2", MIN_SHOWN_CONFIDENCE / 2)]
    assert check(unshown, facts(4)).retiring == 2
    elsewhere = [Replace((1, 2), "The owner likes jazz", 0.9)]
    assert check(elsewhere, facts(4)).retiring == 2


def test_an_expiry_within_stale_days_retires_the_fact_and_a_later_one_does_not() -> None:
    soon = [Update(i, expires_at=HORIZON - timedelta(days=1)) for i in (1, 2, 3)]
    verdict = check(soon, facts(4))
    assert not verdict.allowed and "3 expiring soon" in verdict.reason
    later = [Update(i, expires_at=HORIZON + timedelta(days=1)) for i in (1, 2, 3, 4)]
    assert check(later, facts(4)).retiring == 0


def test_a_confidence_cut_below_the_shown_threshold_retires_the_fact() -> None:
    cut = [Update(i, confidence=MIN_SHOWN_CONFIDENCE - 0.01) for i in (1, 2, 3)]
    verdict = check(cut, facts(4))
    assert not verdict.allowed and "confidence cut below" in verdict.reason
    lowered = [Update(i, confidence=MIN_SHOWN_CONFIDENCE) for i in (1, 2, 3, 4)]
    assert check(lowered, facts(4)).retiring == 0


def test_a_rewrite_about_something_else_retires_the_fact_and_a_correction_does_not() -> None:
    people = [
        fact(1, "Ana is a nurse", "Ana"),
        fact(2, "Bruno lives in Porto", "Bruno"),
        fact(3, "Carla runs marathons"),  # no subject: its content's words are the anchor
        fact(4, "Dan sings in a choir", "Dan"),
    ]
    corrections = [
        Update(1, content="Ana is a doctor"),
        Update(2, content="Bruno, the owner's friend, moved to Lisbon", subject="Bruno"),
        Update(3, content="Carla now cycles"),
    ]
    assert check(corrections, people).retiring == 0
    hijack = [
        Update(1, content="The owner likes jazz"),  # the subject field stays, the content left
        Update(2, subject="Kit", content="Kit is great"),
        Update(3, content="The owner is fine"),
    ]
    verdict = check(hijack, people)
    assert verdict.retiring == 3 and "3 rewritten about something else" in verdict.reason


def test_inserts_and_harmless_updates_do_not_count() -> None:
    ops = [Insert("x", 1.0), Update(1, content="fact number 1, longer"), Update(2, confidence=0.6)]
    assert check(ops, facts(2)).retiring == 0


def test_facts_already_on_their_way_out_are_not_counted_twice() -> None:
    soon = NOW + timedelta(days=5)
    category = [fact(1, expires_at=soon), fact(2, confidence=0.1), *facts(4)[2:]]
    verdict = check([Deactivate(1, "x"), Deactivate(2, "x"), Update(3, content="x")], category)
    assert verdict.base == 2  # facts 3 and 4 are in lasting use
    assert verdict.retiring == 1  # fact 3, rewritten; 1 and 2 were going anyway


@pytest.mark.parametrize(
    ("n", "allowed"), [(0, 0), (1, 1), (2, 1), (3, 1), (4, 2), (5, 2), (10, 5)]
)
def test_the_limit_is_half_rounded_down_but_always_one(n: int, allowed: int) -> None:
    assert guard.limit(n, 0.5) == allowed


def test_a_zero_fraction_allows_no_retirement_at_all() -> None:
    assert guard.limit(10, 0.0) == 0
    assert not guard.check([Deactivate(1, "x")], facts(10), 0.0, HORIZON).allowed


def test_merging_both_facts_of_a_two_fact_category_is_a_merge_not_a_wipe() -> None:
    merge = [Replace((1, 2), "fact number 1 and 2", 0.9)]
    assert check(merge, facts(2)).allowed


def test_deactivating_both_facts_of_a_two_fact_category_is_a_wipe() -> None:
    verdict = check([Deactivate(1, "x"), Deactivate(2, "x")], facts(2))
    assert not verdict.allowed and "2 of 2" in verdict.reason
    doomed_merge = [Replace((1, 2), "fact number 1 and 2", 0.9, expires_at=NOW + timedelta(1))]
    assert not check(doomed_merge, facts(2)).allowed


def test_the_only_fact_of_a_category_may_be_retired() -> None:
    assert check([Deactivate(1, "the owner sold it")], facts(1)).allowed
