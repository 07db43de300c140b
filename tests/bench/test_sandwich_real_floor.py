"""bench/sandwich_real.py's "exact top 15 kept" counts the exact top 15 whole: rows whose
cosine sits under the search's floor are in its denominator, so a floor that keeps them out
shows as rows the fast path lost (issue 33: 16-20% of real evidence turns sit under it)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np

REPO = Path(__file__).resolve().parents[2]


def _bench() -> ModuleType:
    sys.path.insert(0, str(REPO / "bench"))  # the script imports its bench neighbours
    try:
        spec = importlib.util.spec_from_file_location(
            "sandwich_real", REPO / "bench" / "sandwich_real.py"
        )
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(REPO / "bench"))


def test_rows_under_the_floor_count_in_the_denominator() -> None:
    bench = _bench()
    ids = np.arange(100, 140, dtype=np.int64)
    # 40 rows: 5 above the 0.3 floor, the rest under it (the exact top 15 holds 10 of those)
    scores = np.concatenate([np.linspace(0.6, 0.4, 5), np.linspace(0.29, 0.01, 35)])
    above = [int(i) for i, s in zip(ids, scores, strict=True) if s >= 0.3]
    found, wanted = bench.kept_of_exact(ids, scores, above)  # what a floored search returns
    assert (found, wanted) == (5, 15)
    everything = [int(i) for i in ids]
    assert bench.kept_of_exact(ids, scores, everything) == (15, 15)


def test_ties_at_the_fifteenth_place_are_any_of_them() -> None:
    bench = _bench()
    ids = np.arange(20, dtype=np.int64)
    scores = np.array([0.9] * 10 + [0.5] * 10)  # places 11-15 are five of ten equals
    kept = [int(i) for i in ids[:10]] + [10, 11, 12, 13, 19]
    assert bench.kept_of_exact(ids, scores, kept) == (15, 15)
