"""Fit the grounding guard's weighing (kit/curator/weighing.py) on the development sets and
write kit/curator/weights.py.

    python bench/grounding_fit.py            # fit and print what it would store on each set
    python bench/grounding_fit.py --write    # and write kit/curator/weights.py

Each development set's operations go through the guard as bench/grounding.py runs them (with
the meaning check: Kit's MiniLM), the weighing set aside, and the readings of each one it may
weigh are kept with whether the operation is supported. A logistic weighing of them (L2 of
LAMBDA, Newton's steps; deterministic) is fitted on those, and the two bars are chosen on the
development sets alone: the pair that keeps or stores the most of them right. The unseen sets
(fresh6 to fresh11) and the verdict sets (fresh16 to fresh21) are never read here: run
bench/grounding.py on them with the written weights. The short-fact development sets fresh22
and fresh23 are not in DEVELOPMENT: a refit with them did not hold on the unseen sets
(docs/measurements.md, "Round 26 with short facts among the development sets").

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
RULES = (2.0, -1.0)  # bars at which the weighing changes nothing
TARGET = 0.95  # issue 29's share, stored or kept out


async def _readings(name: str) -> list[tuple[dict[str, Any], str, list[float] | None]]:
    """Each case of a set with its word-level outcome and its weighing inputs (None: the
    weighing may not decide it)."""
    path = ROOT / "bench" / "data" / f"grounding-{name}.json"
    cases = json.loads(path.read_text(encoding="utf-8"))["cases"]
    seen: list[list[float]] = []

    def unweighed(status: str, x: Sequence[float]) -> tuple[str, float]:
        seen.append(list(x))
        return status, 0.0

    inputs: dict[str, list[float] | None] = {}
    one = grounding._one

    async def kept(kit: Any, case: dict[str, Any], *args: Any) -> grounding.Result:
        seen.clear()
        result = await one(kit, case, *args)
        inputs[case["id"]] = seen[-1] if seen else None
        return result

    decide, grounding._one, weighing.decide = weighing.decide, kept, unweighed
    try:
        results = await grounding.evaluate(cases, meaning=True)
    finally:
        grounding._one, weighing.decide = one, decide
    return [(r.case, r.outcome, inputs[r.case["id"]]) for r in results]


def fit(x: np.ndarray, y: np.ndarray) -> weighing.Weights:
    """A logistic weighing of standardised inputs, bias unpenalised (bars set after)."""
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
        tuple(float(v) for v in w[:-1]), float(w[-1]), 1.0, 0.0,
    )  # fmt: skip


Row = tuple[bool, str, float | None, bool]  # supported, word-level outcome, likelihood, was stored


def _row(
    case: dict[str, Any], outcome: str, x: list[float] | None, fitted: weighing.Weights, was: int
) -> Row:
    likelihood = None if x is None else fitted.likelihood(x)
    return case["expect"] == "stored", outcome, likelihood, x is not None and x[was] == 1.0


def _right(rows: list[Row], lift: float, doubt: float) -> int:
    """How many rows the bars get right."""
    return sum(_stored(row, lift, doubt) == row[0] for row in rows)


def _kept(rows: list[Row], lift: float, doubt: float) -> int:
    """How many unsupported rows the bars keep out."""
    return sum(not row[0] and not _stored(row, lift, doubt) for row in rows)


def _share(rows: list[Row], lift: float, doubt: float) -> float:
    """The share of the supported rows the bars store."""
    supported = [row for row in rows if row[0]]
    return sum(_stored(row, lift, doubt) for row in supported) / max(len(supported), 1)


def _safe(rows: list[Row], lift: float, doubt: float) -> bool:
    """Whether the bars keep out no fewer than the rules do, and store no share of the
    supported at or above TARGET that the rules store below it."""
    stores = _share(rows, *RULES) < TARGET or _share(rows, lift, doubt) >= TARGET
    return stores and _kept(rows, lift, doubt) >= _kept(rows, *RULES)


def _stored(row: Row, lift: float, doubt: float) -> bool:
    _, outcome, p, was = row
    if p is None:
        return outcome == "stored"
    return p >= doubt if was else p >= lift


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help="write kit/curator/weights.py")
    args = parser.parse_args(argv)
    found = {name: asyncio.run(_readings(name)) for name in DEVELOPMENT}
    weighed = [(c, x) for rows in found.values() for c, _, x in rows if x is not None]
    x = np.array([v for _, v in weighed], dtype=float)
    y = np.array([c["expect"] == "stored" for c, _ in weighed], dtype=float)
    fitted = fit(x, y)
    was = weighing.FEATURES.index("was-supported")
    rows = {name: [_row(c, o, v, fitted, was) for c, o, v in found[name]] for name in DEVELOPMENT}
    every = [r for name in DEVELOPMENT for r in rows[name]]
    # the bars that get the most right and are safe on every set (`_safe`)
    safe = [
        (lift, doubt)
        for lift in BARS
        for doubt in BARS
        if doubt <= lift and all(_safe(rows[n], lift, doubt) for n in DEVELOPMENT)
    ]
    best = max(safe, key=lambda b: (_right(every, *b), b[0], b[1]))
    chosen = dataclasses.replace(fitted, lift=best[0], doubt=best[1])
    print(f"{len(every)} operations, {len(weighed)} weighed; lift {best[0]}, doubt {best[1]}")
    for name in DEVELOPMENT:
        print(f"  {name:9} right by the rules {_right(rows[name], *RULES):4}"
              f"  weighed {_right(rows[name], *best):4}  of {len(rows[name])}")  # fmt: skip
    if args.write:
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
DOUBT = {weights.doubt!r}
'''


if __name__ == "__main__":
    sys.exit(main())
