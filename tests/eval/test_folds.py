"""Leave-one-conversation-out: each conversation is measured with the value chosen on the others."""

from __future__ import annotations

import pytest

from kit.eval.folds import Scored, format_leave_one_out, leave_one_out
from kit.eval.metrics import Outcome


def q(sample: str, found: bool, category: str = "single-hop") -> Scored:
    ranked = ("D1:1",) if found else ("D9:9",)
    return Scored(sample, Outcome(category, ranked, ("D1:1",), 0.0, (0,)))


def variant(hits: dict[str, list[bool]]) -> list[Scored]:
    return [q(sample, found) for sample, founds in hits.items() for found in founds]


def test_a_value_that_only_fits_one_conversation_is_not_credited_there() -> None:
    variants = {
        # "off" finds half everywhere
        "off": variant({"a": [True, False], "b": [True, False], "c": [True, False]}),
        # "tuned" is perfect on c, worse on b: on all three together it ties with "off"
        "tuned": variant({"a": [True, False], "b": [False, False], "c": [True, True]}),
    }
    result = leave_one_out(variants, k=1)
    chosen = {f.held_out: (f.chosen, f.held_out_recall, f.best_recall) for f in result.folds}
    assert chosen["a"] == ("off", 0.5, 0.5)  # on b + c: 2/4 each, the tie goes to the first
    assert chosen["b"] == ("tuned", 0.0, 0.5)  # on a + c tuned wins 3/4, and fails on b
    assert chosen["c"] == ("off", 0.5, 1.0)  # on a + b off wins; c's own best is not reached
    assert result.all_data_choice == "off" and result.all_data_recall == pytest.approx(0.5)
    assert result.recall == pytest.approx(2 / 6)  # below what tuning on everything reports
    assert "held-out" in format_leave_one_out(result)


def test_ties_go_to_the_first_variant_listed() -> None:
    same = variant({"a": [True], "b": [False]})
    result = leave_one_out({"old": same, "new": list(same)}, k=1)
    assert {f.chosen for f in result.folds} == {"old"}


def test_each_question_counts_once_and_categories_are_reported() -> None:
    good = [q("a", True, "temporal"), q("a", True), q("b", False, "temporal")]
    result = leave_one_out({"only": good}, k=1)
    assert result.recall == pytest.approx(2 / 3)
    assert result.by_category == {"single-hop": 1.0, "temporal": 0.5}


def test_it_refuses_what_it_cannot_measure() -> None:
    with pytest.raises(ValueError, match="two conversations"):
        leave_one_out({"x": [q("a", True)]}, k=1)
    with pytest.raises(ValueError, match="questions"):
        leave_one_out({"x": [q("a", True), q("b", True)], "y": [q("a", True)]}, k=1)
    with pytest.raises(ValueError, match="at least one"):
        leave_one_out({}, k=1)
