"""The benchmark suite runs end to end in quick mode, so its scripts cannot rot unnoticed.
(Numbers are printed, never asserted: speed belongs to the benchmarks, not to tests.)"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
LOCOMO = REPO.parent / "shared" / "data" / "locomo-dev.json"


@pytest.mark.integration
def test_every_benchmark_reports_its_rows_in_quick_mode(tmp_path: Path) -> None:
    out = tmp_path / "rows.json"
    done = subprocess.run(
        [sys.executable, str(REPO / "bench" / "run.py"), "--quick", "--json", str(out)],
        cwd=tmp_path,  # not the repository: the script finds its own way
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    data = json.loads(out.read_text())
    assert data["mode"] == "quick" and "CPUs" in data["machine"]
    rows = {(r["bench"], r["metric"]): r for r in data["rows"]}
    benches = {bench for bench, _ in rows}
    assert {"sandwich 200", "sandwich 1k", "tokens/turn", "curation", "REM", "engine"} <= benches
    assert all(math.isfinite(r["value"]) for r in data["rows"])
    # a growth is a difference: the process may hand memory back (negative), any other row not
    assert all(r["value"] >= 0 for r in data["rows"] if "growth" not in r["metric"])
    # what the table is for: every measured quantity is there, with a real value
    for key in [
        ("sandwich 1k", "build p50"),
        ("sandwich 1k", "search_memory p95"),
        ("curation", "pass over a busy day"),
        ("REM", "REM pass"),
        ("tokens/turn", "Kit p50"),
        ("engine", "RSS idle"),
        ("kit mcp", "search_memory round trip p50"),
        ("kit mcp", "over HTTP: search_memory round trip p50"),
    ]:
        assert rows[key]["value"] > 0, key
    if LOCOMO.exists():  # what curation is shown is measured on real conversations
        assert rows[("curation context", "prompt tokens/pass, 1,000 facts")]["value"] > 0
        assert ("curation context", "needed fact shown, same session, 1,000 facts") in rows
    printed = done.stdout
    assert "Kit benchmarks (quick)" in printed and "build p50" in printed
