"""bench/grounding.py runs end to end in quick mode on the planted set (numbers are printed,
never asserted: what it measures is in docs/measurements.md)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DATA = REPO.parent / "shared" / "data"

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(not (DATA / "locomo-dev.json").exists(), reason="no evaluation data here"),
]


def _bench(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """bench/grounding.py run with `args`; it must exit 0."""
    done = subprocess.run(
        [sys.executable, str(REPO / "bench" / "grounding.py"), *args],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done


def test_the_grounding_bench_reports_both_rates(tmp_path: Path) -> None:
    done = _bench(tmp_path, "--quick", "--split", "all")
    assert "supported stored:" in done.stdout and "unsupported kept out:" in done.stdout


def test_a_set_without_a_tuning_split_is_scored_whole(tmp_path: Path) -> None:
    """The fresh sets have no 'tune' split: with no --split the bench scored nothing and
    divided by zero in the meaning check's line (round 9); now it scores every case."""
    fresh3 = REPO / "bench" / "data" / "grounding-fresh3.json"
    done = _bench(tmp_path, "--data", str(fresh3), "--meaning", "--quick")
    assert "grounding-fresh3.json, split all: 40 operations" in done.stdout
    assert "supported stored:" in done.stdout and "unsupported kept out:" in done.stdout
