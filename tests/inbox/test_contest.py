"""Which operations wait for the owner (kit/curator/contest.py) and when two statements about
the same subject disagree (kit/curator/conflict.py): pure rules, no model, no store."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime

import pytest

from kit.curator.conflict import disagree, same_subject
from kit.curator.contest import contest
from kit.curator.ops import Deactivate, Insert, Operation, Replace, Update
from kit.memory.fact_rows import Fact

NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def fact(i: int, content: str, subject: str = "", confidence: float = 0.8, **more: bool) -> Fact:
    made = Fact(
        id=i, user_id="owner", category="people", subject=subject, content=content,
        confidence=confidence, expires_at=None, active=True, pinned=False, created_at=NOW,
        updated_at=NOW, access_count=0, last_accessed_at=None, replaced_by=None,
    )  # fmt: skip
    return dataclasses.replace(made, **more)


@pytest.mark.parametrize(
    ("subject", "old", "new", "expected"),
    [
        ("Ana", "Ana lives in Lisbon", "Ana lives in Porto", True),
        ("", "The owner works at Acme", "The owner works at Globex", True),
        ("coffee", "Prefers oat-milk flat whites", "Prefers black espresso", True),
        ("Ana", "Ana lives in Lisbon", "Ana lives in Lisbon with Rui", False),  # adds, refines
        ("Ana", "Ana is a nurse", "Ana is a mother", False),  # only the subject and filler
        ("Ana", "Ana lives in Lisbon", "Ana lives in Lisbon", False),  # the same statement
        ("Ana", "Ana lives in Lisbon", "Ana LIVES in   lisbon", False),  # case and spacing
        ("Ana", "Ana lives in Lisbon", "Ana has a dog called Rex and two cats", False),
        ("Ana", "Ana owns a dog", "Ana owns a cat", True),  # errs towards asking
    ],
)
def test_two_statements_disagree_when_one_value_is_swapped(
    subject: str, old: str, new: str, expected: bool
) -> None:
    assert disagree(subject, old, new) is expected


def test_subjects_match_case_and_spacing_aside() -> None:
    assert same_subject(" ana ", "Ana") and same_subject("", "")
    assert not same_subject("Ana", "Anabel")


def _contest(ops: list[Operation], *facts: Fact) -> tuple[list[Operation], list[str]]:
    applied, asked = contest(ops, {f.id: f for f in facts}, list(facts), 0.9)
    return applied, [a.reason for a in asked]


@pytest.mark.parametrize(
    "op",
    [
        Update(1, confidence=0.95),
        Update(1, content="Mum: Rosa, retired"),
        Deactivate(1, "stale"),
        Replace((1,), "Mum: Rosa", 0.9),
    ],
    ids=["confidence", "rewrite", "retire", "merge"],
)
def test_any_change_to_a_pinned_or_owner_written_fact_is_asked(op: Operation) -> None:
    for held in (fact(1, "Mum: Rosa", pinned=True), fact(1, "Mum: Rosa", owner_written=True)):
        applied, asked = _contest([op], held)
        assert applied == [] and len(asked) == 1


@pytest.mark.parametrize(
    ("op", "asked"),
    [
        (Deactivate(1, "stale"), True),
        (Update(1, content="Ana lives in Porto"), True),  # drops "Lisbon"
        (Update(1, subject="Rui", content="Rui lives in Lisbon"), True),
        (Update(1, confidence=0.5), True),  # below the threshold
        (Update(1, expires_at=datetime(2026, 4, 1, tzinfo=UTC)), True),
        (Replace((1,), "Ana lives in Portugal", 0.95), True),
        (Update(1, content="Ana lives in Lisbon with Rui"), False),  # keeps every word, adds
        (Replace((1,), "Ana lives in Lisbon, near the river", 0.95), False),
        (Update(1, confidence=0.99), False),
        (Update(1, confidence=0.92), False),  # still at or above the threshold
        (Update(1, clear_expiry=True), False),
    ],
)
def test_a_confident_fact_is_asked_about_only_when_something_of_it_would_be_lost(
    op: Operation, asked: bool
) -> None:
    sure = fact(1, "Ana lives in Lisbon", "Ana", confidence=0.95)
    applied, reasons = _contest([op], sure)
    assert bool(reasons) is asked and bool(applied) is not asked
    if asked:
        assert reasons == ["fact #1 is held with confidence 0.95 (inbox.protect_confidence 0.90)"]


def test_a_fact_below_the_threshold_changes_without_asking() -> None:
    applied, asked = _contest([Deactivate(1, "stale")], fact(1, "Ana lives in Lisbon"))
    assert len(applied) == 1 and asked == []


def test_a_disagreeing_statement_is_asked_unless_the_pass_changes_the_old_fact_too() -> None:
    old = fact(1, "Ana lives in Lisbon", "Ana")
    new = Insert("Ana lives in Porto", 0.9, "Ana")
    applied, asked = _contest([new], old)
    assert applied == [] and asked == ["it disagrees with fact #1 about the same subject"]
    # the model retires the old one in the same pass: its own correction, applied
    applied, asked = _contest([new, Deactivate(1, "moved")], old)
    assert len(applied) == 2 and asked == []
    # another subject: no disagreement
    applied, asked = _contest([Insert("Bob lives in Porto", 0.9, "Bob")], old)
    assert len(applied) == 1 and asked == []


def test_a_rewrite_that_disagrees_with_another_fact_is_asked_with_both_facts() -> None:
    old, other = fact(1, "Ana lives in Lisbon", "Ana"), fact(2, "Ana likes tea", "Ana")
    applied, asked = contest(
        [Update(2, content="Ana lives in Porto")], {1: old, 2: other}, [old, other], 0.9
    )
    (question,) = asked
    assert applied == [] and question.kind == "conflict"
    assert [f.id for f in question.old] == [1] and [f.id for f in question.targets] == [2]


def test_keep_both_is_offered_only_where_there_is_something_new_to_keep() -> None:
    held = fact(1, "Mum: Rosa", pinned=True)
    offered = {
        name: contest([op], {1: held}, [held], 0.9)[1][0].choices
        for name, op in (
            ("retire", Deactivate(1, "x")),
            ("confidence", Update(1, confidence=0.5)),
            ("rewrite", Update(1, content="Mum: Rosa, retired")),
            ("merge", Replace((1,), "Mum: Rosa", 0.9)),
        )
    }
    assert offered == {
        "retire": ("keep-old", "take-new"),
        "confidence": ("keep-old", "take-new"),
        "rewrite": ("keep-old", "take-new", "keep-both"),
        "merge": ("keep-old", "take-new", "keep-both"),
    }
