"""bench/run.py --json writes the rows even when a benchmark computed a value with numpy
(a count summed from numpy booleans is an int64, which json cannot write)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import numpy as np

REPO = Path(__file__).resolve().parents[2]


def _run_module() -> ModuleType:
    sys.path.insert(0, str(REPO / "bench"))  # bench/run.py imports bench/common.py
    try:
        spec = importlib.util.spec_from_file_location("bench_run", REPO / "bench" / "run.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(REPO / "bench"))


def test_rows_with_numpy_values_are_written_as_plain_numbers(tmp_path: Path) -> None:
    run = _run_module()
    hits = np.array([True, False, True])
    rows = [
        run.Row("real 100k", "planted answer in exact vector top 15", hits.sum(), "of 3"),
        run.Row("real 100k", "share", np.float32(0.5), ""),
        run.Row("real 100k", "ms", 12.5, "ms"),
    ]
    out = tmp_path / "rows.json"
    run.write_json(out, rows, "full")
    data = json.loads(out.read_text())
    assert [r["value"] for r in data["rows"]] == [2, 0.5, 12.5]
    assert all(type(r["value"]) is float for r in data["rows"])
