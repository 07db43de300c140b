"""Fit the grounding guard's weighing (kit/curator/weighing.py) on the development sets and
write kit/curator/weights.py.

    python bench/grounding_fit.py            # fit and print what it would store on each set
    python bench/grounding_fit.py --write    # and write kit/curator/weights.py

Each development set's operations go through the guard as bench/grounding.py runs them (with
the meaning check: Kit's MiniLM), the weighing set aside, and the readings of each one it may
weigh are kept with whether the operation is supported. A logistic weighing of them (L2 of
LAMBDA, Newton's steps; deterministic) is fitted on those, and the bar is chosen on the
development sets alone: the one that gets the most of them right without letting any set's
kept-out share fall below TARGET where it stood at or above it. The unseen sets
(fresh6 to fresh11) and the verdict sets (fresh16 on) are never read here: run
bench/grounding.py on them with the written weights.

Numbers only: nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import sys
import textwrap
from collections.abc import Sequence
from typing import Any

import grounding
import numpy as np
from common import ROOT

from kit.curator import weighing

DEVELOPMENT = (
    "planted", "fresh", "fresh2", "fresh3", "fresh4", "fresh5", "fresh12", "fresh13",
    "fresh14", "fresh15",
)  # fmt: skip
LAMBDA = 1.0
BARS = tuple(round(0.05 * n, 2) for n in range(21))  # the bars tried, 0 to 1
WEIGHTS = ROOT / "kit" / "curator" / "weights.py"
RULES = 2.0  # a bar no likelihood reaches: the rules alone
TARGET = 0.95  # issue 29's share, stored or kept out


async def _readings(name: str) -> list[tuple[dict[str, Any], str, list[float] | None]]:
    """Each case of a set with its word-level outcome and its weighing inputs (None: the
    weighing may not decide it)."""
    path = ROOT / "bench" / "data" / f"grounding-{name}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    cases = data["cases"] if isinstance(data, dict) else data
    seen: list[list[float]] = []

    def unweighed(x: Sequence[float]) -> tuple[bool, float]:
        seen.append(list(x))
        return False, 0.0

    inputs: dict[str, list[float] | None] = {}
    one = grounding._one

    async def kept(kit: Any, case: dict[str, Any], *args: Any) -> grounding.Result:
        seen.clear()
        result = await one(kit, case, *args)
        inputs[case["id"]] = seen[-1] if seen else None
        return result

    lifts, grounding._one, weighing.lifts = weighing.lifts, kept, unweighed
    try:
        results = await grounding.evaluate(cases, meaning=True)
    finally:
        grounding._one, weighing.lifts = one, lifts
    return [(r.case, r.outcome, inputs[r.case["id"]]) for r in results]


def fit(x: np.ndarray, y: np.ndarray) -> weighing.Weights:
    """A logistic weighing of standardised inputs, bias unpenalised (the bar set after)."""
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale == 0] = 1.0
    z = np.hstack([(x - mean) / scale, np.ones((len(x), 1))])
    w = np.zeros(z.shape[1])
    penalty = LAMBDA * np.eye(len(w))
    penalty[-1, -1] = 0.0
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-(z @ w)))
        hessian = z.T @ (z * (p * (1 - p))[:, None]) + penalty
        step = np.linalg.solve(hessian, z.T @ (p - y) + penalty @ w)
        w -= step
        if np.abs(step).max() < 1e-10:
            break
    return weighing.Weights(
        weighing.FEATURES, tuple(map(float, mean)), tuple(map(float, scale)),
        tuple(float(v) for v in w[:-1]), float(w[-1]), RULES,
    )  # fmt: skip


Row = tuple[bool, str, float | None]  # supported, the rules' outcome, the likelihood


def _stored(row: Row, lift: float) -> bool:
    _, outcome, p = row
    return outcome == "stored" or (p is not None and p >= lift)


def _right(rows: list[Row], lift: float) -> int:
    """How many rows the bar gets right."""
    return sum(_stored(row, lift) == row[0] for row in rows)


def _kept_share(rows: list[Row], lift: float) -> float:
    """The share of the unsupported rows the bar keeps out."""
    unsupported = [row for row in rows if not row[0]]
    return sum(not _stored(row, lift) for row in unsupported) / max(len(unsupported), 1)


def _safe(rows: list[Row], lift: float) -> bool:
    """Whether the bar keeps out TARGET of a set's unsupported where the rules do."""
    return _kept_share(rows, RULES) < TARGET or _kept_share(rows, lift) >= TARGET


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help="write kit/curator/weights.py")
    args = parser.parse_args(argv)
    found = {name: asyncio.run(_readings(name)) for name in DEVELOPMENT}
    weighed = [(c, x) for rows in found.values() for c, _, x in rows if x is not None]
    x = np.array([v for _, v in weighed], dtype=float)
    y = np.array([c["expect"] == "stored" for c, _ in weighed], dtype=float)
    fitted = fit(x, y)
    rows = {
        name: [
            (c["expect"] == "stored", o, None if v is None else fitted.likelihood(v))
            for c, o, v in found[name]
        ]
        for name in DEVELOPMENT
    }
    every = [r for name in DEVELOPMENT for r in rows[name]]
    safe = [b for b in BARS if all(_safe(rows[n], b) for n in DEVELOPMENT)]
    lift = max(safe, key=lambda b: (_right(every, b), b))
    print(f"{len(every)} operations, {len(weighed)} weighed; lift {lift}")
    for bar in BARS:
        print(f"  bar {bar:4}: right {_right(every, bar)}" + (" (safe)" if bar in safe else ""))
    for name in DEVELOPMENT:
        print(
            f"  {name:9} right by the rules {_right(rows[name], RULES):4}"
            f"  weighed {_right(rows[name], lift):4}  of {len(rows[name])}"
        )
    if args.write:
        chosen = dataclasses.replace(fitted, lift=lift)
        WEIGHTS.write_text(_source(chosen, len(every), len(weighed)), encoding="utf-8")
        print(f"wrote {WEIGHTS.relative_to(ROOT)}")
    return 0


def _source(weights: weighing.Weights, cases: int, weighed: int) -> str:
    def listed(values: Sequence[object]) -> str:
        return "(\n" + "".join(f"    {v!r},\n".replace("'", '"') for v in values) + ")"

    said = textwrap.fill(
        "The grounding guard's weighing (kit/curator/weighing.py) as bench/grounding_fit.py "
        f"fitted it on the development sets ({', '.join(DEVELOPMENT)}: {cases} operations, "
        f"{weighed} of them weighable). Written by `python bench/grounding_fit.py --write`; "
        "not edited by hand.",
        width=96,
    )
    return f'''"""{said}
"""

NAMES = {listed(weights.names)}
MEAN = {listed(weights.mean)}
SCALE = {listed(weights.scale)}
WEIGHTS = {listed(weights.weights)}
BIAS = {weights.bias!r}
LIFT = {weights.lift!r}
'''


if __name__ == "__main__":
    sys.exit(main())
