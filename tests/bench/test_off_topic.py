"""bench/off_topic.py: questions of another corpus asked where nothing answers them, and what a
turn's context would show for them (the floor's work that no recall number measures)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from kit.eval.locomo import parse
from kit.eval.metrics import Outcome
from tests.eval.tiny import tiny

REPO = Path(__file__).resolve().parents[2]


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("off_topic", REPO / "bench" / "off_topic.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sys.modules.pop("off_topic", None)
    return module


def test_each_conversation_gets_the_other_corpus_questions_without_evidence() -> None:
    bench = _bench()
    samples = parse(tiny(), "tiny.json")
    mine, others = samples[:1], samples[1:]
    (asked,) = bench.off_topic(mine, others, 3)
    assert asked.turns == mine[0].turns  # the same conversation
    pool = [q.text for s in others for q in s.questions]
    assert [q.text for q in asked.questions] == [pool[i % len(pool)] for i in range(3)]
    assert all(q.evidence == () for q in asked.questions)
    with pytest.raises(ValueError, match="another corpus"):
        bench.off_topic(mine, [], 3)


def test_what_is_shown_is_counted_within_the_budget() -> None:
    bench = _bench()
    full = Outcome("x", ("a", "b", "c"), (), 0.0, (), costs=(400, 500, 600), shows=3)
    none = Outcome("x", (), (), 0.0, (), costs=(), shows=15)
    hits, tokens = bench.shown_when_nothing_answers([full, none], 1000)
    assert hits == pytest.approx(1.0)  # two fit in 1,000 tokens, then nothing: (2 + 0) / 2
    assert tokens == pytest.approx(450.0)
