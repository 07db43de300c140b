"""bench/real_model.py drives its five steps through either provider's real SDK (here against
the local fake playing a well-behaved model) and prints its scorecard."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_the_smoke_run_prints_a_scorecard_on_either_provider(tmp_path: Path, provider: str) -> None:
    done = subprocess.run(
        [sys.executable, str(REPO / "bench" / "real_model.py"), "--fake", provider],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    rows = {line.split()[0]: line for line in done.stdout.splitlines()[2:] if line.strip()}
    assert set(rows) >= {"chat", "curate", "daily", "REM", "context"}
    assert "4 of 4 replies" in rows["chat"] and "1 applied, 6 noop" in rows["curate"]
    assert "1 written, 0 rejected" in rows["daily"] and "'Porto' in the context" in rows["context"]
