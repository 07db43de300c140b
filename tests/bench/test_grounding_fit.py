"""bench/grounding_fit.py: the soft score's refit (kit/curator/soft_score.py). The same rows give
the same weights, one per input, and cut-offs the rows have; the constants written in
kit/curator/soft_score.py are what the script fits from the development sets' rows kept in
bench/data/soft-score-rows.json."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from kit.curator import soft_score

REPO = Path(__file__).resolve().parents[2]
ROWS = REPO / "bench" / "data" / "soft-score-rows.json"


def _bench() -> ModuleType:
    sys.path.insert(0, str(REPO / "bench"))  # the script imports bench/common.py
    try:
        spec = importlib.util.spec_from_file_location(
            "grounding_fit", REPO / "bench" / "grounding_fit.py"
        )
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules["grounding_fit"] = module  # its dataclass looks itself up there
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(REPO / "bench"))
        sys.modules.pop("grounding_fit", None)
    return module


def rows(count: int = 60) -> list[dict[str, Any]]:
    """Made-up rows: an operation is supported when its closest sentence is near and its
    share said high, give or take a few flipped, over two sets; a third of them decided by
    the rules (no inputs)."""
    made = np.random.default_rng(7)
    out = []
    for n in range(count):
        x = made.uniform(0, 1, len(soft_score.FEATURES))
        good = bool(x[0] + x[8] > 1.0) != (n % 11 == 0)
        decided = n % 3 == 0
        out.append(
            {
                "set": "a" if n % 2 else "b",
                "id": f"c{n}",
                "stored": good,
                "outcome": ("stored" if good else "dropped") if decided else "stored",
                "features": None if decided else [float(v) for v in x],
            }
        )
    return out


def test_the_fit_is_one_weight_an_input_and_the_same_each_time() -> None:
    bench = _bench()
    given = [r for r in rows() if r["features"] is not None]
    x = np.array([r["features"] for r in given])
    y = np.array([float(r["stored"]) for r in given])
    first, again = bench.fit(x, y), bench.fit(x, y)
    assert first == again
    assert len(first.weights) == len(soft_score.FEATURES)
    share, best = first.weights[0], first.weights[soft_score.FEATURES.index("best")]
    assert share > 0 and best > 0  # what made the rows supported raises the score


def test_the_cut_offs_are_scores_the_rows_have() -> None:
    bench = _bench()
    made = rows()
    given = [r for r in made if r["features"] is not None]
    found = bench.fit(
        np.array([r["features"] for r in given]), np.array([float(r["stored"]) for r in given])
    )
    store, ask = bench.cut_offs(made, found)
    scores = set(np.round(found.scores(np.array([r["features"] for r in given])), 4))
    assert store in scores and ask in scores and ask <= store


def test_the_script_prints_the_constants_as_the_score_reads_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kept = tmp_path / "rows.json"
    kept.write_text(json.dumps(rows()), encoding="utf-8")
    assert _bench().main(["--from", str(kept)]) == 0
    printed = capsys.readouterr().out
    for name in soft_score.FEATURES:
        assert f'"{name}": ' in printed
    assert "STORE_AT = " in printed and "ASK_AT = " in printed


def test_the_constants_in_the_code_are_the_development_sets_fit() -> None:
    """Refit from the development sets' rows (bench/data/soft-score-rows.json, written by
    `python bench/grounding_fit.py --rows ...`): the same constants, to the digits written."""
    bench = _bench()
    made = json.loads(ROWS.read_text(encoding="utf-8"))
    assert {r["set"] for r in made} == set(bench.DEVELOPMENT)
    given = [r for r in made if r["features"] is not None]
    found = bench.fit(
        np.array([r["features"] for r in given]), np.array([float(r["stored"]) for r in given])
    )
    store, ask = bench.cut_offs(made, found)
    assert round(found.intercept, 4) == soft_score.INTERCEPT
    for name, weight in zip(soft_score.FEATURES, found.weights, strict=True):
        assert round(weight, 4) == soft_score.WEIGHTS[name], name
    assert (round(store, 4), round(ask, 4)) == (soft_score.STORE_AT, soft_score.ASK_AT)
