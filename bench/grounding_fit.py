"""Refit the grounding guard's soft score (kit/curator/soft_score.py) on the development sets.

    python bench/grounding_fit.py                      # read the sets, fit, print the constants
    python bench/grounding_fit.py --rows bench/data/soft-score-rows.json   # ... and keep them
    python bench/grounding_fit.py --from bench/data/soft-score-rows.json   # fit from kept rows

Each development set (the planted set, tune and held, and grounding-fresh.json to
-fresh5.json: never the sets kept unseen) is run through the bench's own `evaluate` with Kit's
MiniLM (bench/grounding.py --meaning), and every operation that reaches the score (all its
hard parts hold, its soft words fall short of the word-level bar) gives one row: its inputs
(`soft_score.features`) and whether it should be stored. The rest keep the verdict the rules
gave them. The fit: a logistic regression with an L2 penalty (PENALTY, on inputs scaled to
mean 0 and spread 1, the intercept free), by Newton's method from zero, so the same rows give
the same weights; the weights are printed folded back to the raw inputs, as
kit/curator/soft_score.py writes them. Two things unsaid are stored at no score
(soft_score.swapped), here too. The cut-offs: STORE_AT the score at which the most
development operations are right (stored if supported, not stored if not), the highest such
score on a tie; ASK_AT, below it, the score that best sends the supported to a question and
the unsupported away.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from common import ROOT

from kit.curator import grounding as guard
from kit.curator import soft_score

DEVELOPMENT = ("planted", "fresh", "fresh2", "fresh3", "fresh4", "fresh5")
PENALTY = 1.0  # the L2 penalty on the scaled weights
STEPS = 50  # Newton steps (it settles in well under 20)


@dataclass(frozen=True)
class Fit:
    intercept: float
    weights: tuple[float, ...]  # raw-scale, in the order of soft_score.FEATURES

    def scores(self, x: np.ndarray) -> np.ndarray:
        z = np.clip(self.intercept + x @ np.array(self.weights), -60, 60)
        return np.asarray(1.0 / (1.0 + np.exp(-z)))


def fit(x: np.ndarray, y: np.ndarray, penalty: float = PENALTY) -> Fit:
    """A penalised logistic regression of `y` (0/1) on the rows of `x`, by Newton's method."""
    x = np.asarray(x, dtype=np.float64)
    y = np.asarray(y, dtype=np.float64)
    mean = x.mean(axis=0)
    spread = x.std(axis=0)
    spread[spread == 0] = 1.0  # an input that never varies gets no weight
    scaled = np.hstack([np.ones((len(x), 1)), (x - mean) / spread])
    beta = np.zeros(scaled.shape[1])
    ridge = np.full(scaled.shape[1], penalty)
    ridge[0] = 0.0  # the intercept is not penalised
    for _ in range(STEPS):
        p = 1.0 / (1.0 + np.exp(-np.clip(scaled @ beta, -60, 60)))
        gradient = scaled.T @ (p - y) + ridge * beta
        hessian = (scaled * (p * (1 - p))[:, None]).T @ scaled + np.diag(ridge)
        step = np.linalg.solve(hessian, gradient)
        beta -= step
        if np.max(np.abs(step)) < 1e-10:
            break
    weights = beta[1:] / spread
    return Fit(float(beta[0] - weights @ mean), tuple(float(w) for w in weights))


def cut_offs(rows: list[dict[str, Any]], found: Fit) -> tuple[float, float]:
    """STORE_AT and ASK_AT on these rows (module note), each a score some row has. STORE_AT
    keeps at LINE or more every set that can keep out LINE of its unsupported (with nothing
    that reaches the score stored)."""
    weighed = [r for r in rows if r["features"] is not None]
    scores = found.scores(np.array([r["features"] for r in weighed]))
    scores[[soft_score.swapped(r["features"]) for r in weighed]] = 0.0  # stored at no score
    y = np.array([r["stored"] for r in weighed])
    marks = np.unique(np.round(scores, 4))
    guarded = [name for name in dict.fromkeys(r["set"] for r in rows)
               if kept_share(rows, name, (found, 2.0)) >= LINE]  # fmt: skip
    allowed = [m for m in marks if all(kept_share(rows, n, (found, m)) >= LINE for n in guarded)]
    marks = np.array(allowed or [marks[-1]])
    right = [int(((scores >= m) == y).sum()) for m in marks]
    store = float(marks[max(range(len(marks)), key=lambda i: (right[i], marks[i]))])
    below = scores < store
    asks = [m for m in np.unique(np.round(scores, 4)) if m < store] or [store]
    sent = [int((below & (scores >= m) & y).sum() + (below & (scores < m) & ~y).sum())
            for m in asks]  # fmt: skip
    ask = float(asks[max(range(len(asks)), key=lambda i: (sent[i], asks[i]))])
    return store, ask


LINE = 0.95  # issue 29's share of the unsupported kept out


def stored(row: dict[str, Any], decided: tuple[Fit, float]) -> bool:
    """Whether the row's operation is stored: by the score (`decided`: a fit and its
    STORE_AT) where it reaches the score, else by the rules' verdict."""
    if row["features"] is None:
        return bool(row["outcome"] == "stored")
    found, store = decided
    if soft_score.swapped(row["features"]):
        return False
    return bool(found.scores(np.array([row["features"]]))[0] >= store)


def kept_share(rows: list[dict[str, Any]], name: str, decided: tuple[Fit, float]) -> float:
    unsupported = [r for r in rows if r["set"] == name and not r["stored"]]
    kept = sum(not stored(r, decided) for r in unsupported)
    return kept / len(unsupported) if unsupported else 1.0


def constants(found: Fit, store: float, ask: float) -> str:
    """The fit as kit/curator/soft_score.py writes it."""
    lines = [f"INTERCEPT = {found.intercept:.4f}", "WEIGHTS = {"]
    for name, w in zip(soft_score.FEATURES, found.weights, strict=True):
        lines.append(f'    "{name}": {w:.4f},')
    lines += ["}", f"STORE_AT = {store:.4f}", f"ASK_AT = {ask:.4f}"]
    return "\n".join(lines)


async def read(name: str) -> list[dict[str, Any]]:
    """One development set's rows: each case, its outcome by the rules and, where it reached
    the score, the score's inputs."""
    import grounding as bench  # bench/grounding.py, on the path as this script's neighbour

    path = bench.DATA if name == "planted" else ROOT / "bench" / "data" / f"grounding-{name}.json"
    cases = json.loads(path.read_text(encoding="utf-8"))["cases"]
    seen: dict[str, tuple[float, ...]] = {}
    current: list[str] = []
    scored, one = guard.scored, bench._one

    def recording(words: soft_score.SoftWords, close: soft_score.Closeness) -> guard.Verdict:
        seen[current[-1]] = soft_score.features(words, close)
        return scored(words, close)

    async def each(kit: Any, case: dict[str, Any], *args: Any) -> Any:
        current.append(case["id"])
        return await one(kit, case, *args)

    guard.scored = recording
    bench._one = each  # type: ignore[assignment]
    try:
        results = await bench.evaluate(cases, meaning=True)
    finally:
        guard.scored, bench._one = scored, one
    return [
        {
            "set": name,
            "id": r.case["id"],
            "stored": r.case["expect"] == "stored",
            "outcome": r.outcome,
            "features": seen.get(r.case["id"]),
        }
        for r in results
    ]


def report(rows: list[dict[str, Any]], found: Fit, store: float) -> None:
    """Each set's supported stored and unsupported kept out, with the score deciding."""
    for name in dict.fromkeys(r["set"] for r in rows):
        mine = [r for r in rows if r["set"] == name]
        kept = sum(not stored(r, (found, store)) and not r["stored"] for r in mine)
        good = sum(stored(r, (found, store)) and r["stored"] for r in mine)
        supported = sum(r["stored"] for r in mine)
        print(f"  {name}: {good}/{supported} stored · {kept}/{len(mine) - supported} kept out")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", nargs="*", default=list(DEVELOPMENT), choices=DEVELOPMENT)
    parser.add_argument("--rows", type=Path, help="write the rows read to this file")
    parser.add_argument("--from", dest="given", type=Path, nargs="*", help="fit from kept rows")
    args = parser.parse_args(argv)
    if args.given:
        rows = [r for p in args.given for r in json.loads(p.read_text(encoding="utf-8"))]
    else:
        rows = [r for name in args.sets for r in asyncio.run(read(name))]
    if args.rows:
        lines = ",\n".join(json.dumps(r) for r in rows)  # a row a line
        args.rows.write_text(f"[\n{lines}\n]\n", encoding="utf-8")
    weighed = [r for r in rows if r["features"] is not None]
    if not weighed:
        print("no operation reached the score", file=sys.stderr)
        return 1
    x = np.array([r["features"] for r in weighed])
    y = np.array([float(r["stored"]) for r in weighed])
    found = fit(x, y)
    store, ask = cut_offs(rows, found)
    print(f"{len(weighed)} of {len(rows)} operations reach the score ({int(y.sum())} supported)")
    print(constants(found, store, ask))
    report(rows, found, store)
    return 0


if __name__ == "__main__":
    sys.exit(main())
