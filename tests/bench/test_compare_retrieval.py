"""bench/compare_retrieval.py pairs two `kit eval retrieval --json` runs question by question
(numbers are printed, never asserted by the script: docs/retrieval-quality.md has them)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "bench" / "compare_retrieval.py"


def _question(sample: str, text: str, category: str, r5: float, r15: float) -> dict[str, Any]:
    return {
        "sample_id": sample,
        "question": text,
        "category": category,
        "evidence": ["D1:1"],
        "unshared": [],
        "ranked": [],
        "recall": {"5": r5, "15": r15},
    }


def _run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_it_pools_parts_and_pairs_questions_by_conversation_and_text(tmp_path: Path) -> None:
    before = [
        _question("a", "when?", "temporal", 0.0, 1.0),
        _question("a", "who?", "single-hop", 0.0, 0.0),
        _question("b", "when?", "temporal", 1.0, 1.0),
        _question("b", "when?", "temporal", 0.0, 0.0),  # asked twice: pairs in order
    ]
    # the after side in two parts (one per conversation), its questions in another order
    part_a = [before[1] | {"recall": {"5": 1.0, "15": 1.0}}, before[0]]
    part_b = [before[2], before[3] | {"recall": {"5": 0.0, "15": 1.0}}]
    (tmp_path / "before.json").write_text(json.dumps({"model": "small", "questions": before}))
    (tmp_path / "a.json").write_text(json.dumps({"model": "big", "questions": part_a}))
    (tmp_path / "b.json").write_text(
        json.dumps({"corpora": {"b.json": {"model": "big", "questions": part_b}}})
    )
    done = _run(tmp_path, "--before", "before.json", "--after", "a.json", "b.json")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "before: small; after: big"
    rows = {line.split()[0]: line.split() for line in lines[2:]}
    # all: R@5 0.25 -> 0.5, R@15 0.5 -> 1.0 over 4 questions
    assert rows["all"][1:4] == ["4", "0.250", "0.500"]
    assert rows["all"][8:10] == ["0.500", "1.000"]
    assert rows["single-hop"][1:4] == ["1", "0.000", "1.000"]
    # temporal: only the second "when?" of b changed, at R@15 (0 -> 1): +0.333 over 3
    assert rows["temporal"][1:4] == ["3", "0.333", "0.333"]
    assert rows["temporal"][8:11] == ["0.667", "1.000", "+0.333"]


def test_runs_over_different_questions_are_an_error_not_a_number(tmp_path: Path) -> None:
    one = [_question("a", "when?", "temporal", 0.0, 1.0)]
    other = [_question("a", "where?", "temporal", 0.0, 1.0)]
    (tmp_path / "one.json").write_text(json.dumps({"questions": one}))
    (tmp_path / "other.json").write_text(json.dumps({"questions": other}))
    done = _run(tmp_path, "--before", "one.json", "--after", "other.json")
    assert done.returncode != 0
    assert "not the same questions: 2 on one side only" in done.stderr
