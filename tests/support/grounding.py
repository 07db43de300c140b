"""One owner's message and the grounding guard's verdict on a fact citing it: the rule tests
of the guard's rounds (tests/curation/test_grounding_round*.py) write their own messages and
facts and read the verdict through these."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from kit.curator import weights
from kit.curator.grounding import Grounding, Verdict
from kit.curator.ops import Insert
from kit.memory.messages import Message


def message(said: str, day: date = date(2024, 5, 6)) -> Message:
    """The owner's message `said` (id 1), at 10:00 UTC on `day`."""
    at = datetime(day.year, day.month, day.day, 10, tzinfo=UTC)
    return Message(1, "o", 1, "user", "", said, at, day, None, "chat")


def check(fact: str, said: str) -> Verdict:
    """The guard's verdict on an INSERT of `fact` citing the message `said`."""
    grounding = Grounding([message(said)], [1], "")
    return grounding.check(Insert(fact, 0.9, "", sources=(1,)), {})


def stored_or_named(fact: str, said: str, named: str) -> None:
    """`fact` citing `said` is stored when `named` is empty; otherwise it is not stored and its
    reason names `named`."""
    verdict = check(fact, said)
    if not named:
        assert verdict.status == "supported", verdict.reason
        return
    assert verdict.status != "supported"
    assert f"'{named}'" in verdict.reason, verdict.reason


def bars(monkeypatch: pytest.MonkeyPatch, lift: float, doubt: float) -> None:
    """The weighing's bars (kit/curator/weights.py) set for one test."""
    monkeypatch.setattr(weights, "LIFT", lift)
    monkeypatch.setattr(weights, "DOUBT", doubt)


def rules_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """The guard without its weighing (kit/curator/weighing.py): bars no likelihood crosses,
    so what a rule of the word-level guard or the meaning check decides is what it says."""
    bars(monkeypatch, lift=2.0, doubt=-1.0)
