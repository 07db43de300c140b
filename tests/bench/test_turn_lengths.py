"""bench/turn_lengths.py: how long evidence turns are in a model's word pieces, and whether the
sentence that answers sits past the part the model reads."""

from __future__ import annotations

import importlib.util
import sys
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType

from kit.eval.locomo import Question, Sample, Turn

REPO = Path(__file__).resolve().parents[2]
AT = datetime(2024, 3, 1, tzinfo=UTC)


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "turn_lengths", REPO / "bench" / "turn_lengths.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sys.modules.pop("turn_lengths", None)
    return module


def words(text: str) -> int:
    return len(text.split())


LONG = (
    "Here is the plan for the week. Start with the database schema and its indexes. "
    "Then write the migration for both engines. My sister Ada moves to Lisbon in May."
)


def test_the_answering_sentence_is_found_where_it_starts() -> None:
    bench = _bench()
    asked = "Where does Ada move to? Lisbon"
    assert bench.answer_start(LONG, asked, words) == words(LONG.split("My sister")[0])
    assert bench.answer_start(LONG, "What plan for the week?", words) == 0
    assert bench.answer_start(LONG, "nothing shared here", words) == 0


def test_evidence_over_a_cut_with_its_answer_past_it_is_counted() -> None:
    bench = _bench()
    turns = (
        Turn("D1:1", 1, "Assistant", LONG, AT),
        Turn("D1:2", 1, "User", "Thanks, noted.", AT),
    )
    questions = (
        Question("Where does Ada move to?", 1, ("D1:1",), answer="Lisbon"),
        Question("What did I say?", 4, ("D1:2",), answer="noted"),
    )
    sample = Sample("s", ("User", "Assistant"), turns, questions, 0, 0)
    lines = bench.report([sample], words, [10, 40])
    assert "evidence turns 2" in lines[0]
    # over 10 words: the long turn (one of two evidence turns), its answer from word 23
    assert (
        "over 10: turns 1 (50%), evidence 1 (50%); answering sentence past the cut in 1 "
        in lines[1]
    )
    # over 40 words: nothing is (the long turn is 31 words with its speaker)
    assert (
        "over 40: turns 0 (0%), evidence 0 (0%); answering sentence past the cut in 0 " in lines[2]
    )
