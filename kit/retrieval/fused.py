"""A layer's candidates from its two rankings to the rows worth loading, as numpy arrays
(issue 33, round 13): the neighbours' share, score fusion and the order by fused relevance.

The same numbers and the same order as kit/retrieval/fusion.py's `with_neighbours` and `fuse`
followed by `MemorySearch._worth_loading` over dicts, without a Python step per candidate
(a message layer has ~400: every one of them looked up, summed and sorted by a lambda, three
dicts made and read, on the event loop of every turn). Each sum is the same IEEE operations
in the same order, and ties keep the order the dicts inserted them in (a stable sort), so the
rows loaded, their scores and the context are those of the dict path. Reciprocal-rank fusion
and a vector floor stay on the dict path (`applies`).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from kit.retrieval.ranking import RankingParams

Ids = npt.NDArray[np.int64]
Scores = npt.NDArray[np.float64]


def applies(p: RankingParams) -> bool:
    """Whether the arrays compute this fusion (score fusion, no vector floor)."""
    return p.fusion == "score" and p.vector_floor is None


@dataclass(frozen=True)
class Fused:
    """Fused relevance per candidate, best first (ties in the dicts' insertion order)."""

    ids: Ids
    scores: Scores

    def as_dict(self) -> dict[int, float]:
        return dict(zip(self.ids.tolist(), self.scores.tolist(), strict=True))

    def worth_loading(self, k: int, spread: float) -> list[int]:
        """`MemorySearch._worth_loading`: a few times k, and every candidate the query's fit
        could lift into the top k."""
        depth = max(k * 4, 40)
        if spread > 1 and len(self.ids) > k:
            bar = self.scores[k - 1] / spread
            depth = max(depth, int(np.count_nonzero(self.scores >= bar)))
        result: list[int] = self.ids[:depth].tolist()
        return result


def _arrays(scores: Mapping[int, float]) -> tuple[Ids, Scores]:
    ids = np.fromiter(scores.keys(), dtype=np.int64, count=len(scores))
    values = np.fromiter(scores.values(), dtype=np.float64, count=len(scores))
    return ids, values


def _lookup(ids: Ids, values: Scores, wanted: Ids) -> Scores:
    """The value of each of `wanted` (0.0 where it has none)."""
    if len(ids) == 0:
        return np.zeros(len(wanted), dtype=np.float64)
    order = np.argsort(ids, kind="stable")
    keys = ids[order]
    at = np.minimum(np.searchsorted(keys, wanted), len(keys) - 1)
    return np.where(keys[at] == wanted, values[order][at], 0.0)


def _none_of(ids: Ids, skip: Ids) -> Ids:
    """`ids` with those in `skip` as none (-1)."""
    return np.where(np.isin(ids, skip), -1, ids) if len(skip) else ids


def fuse_arrays(
    p: RankingParams,
    vector: Mapping[int, float],
    lexical: Mapping[int, float],
    neighbours: tuple[Ids, Ids, Ids] | None = None,
    skip: Collection[int] = (),
) -> Fused:
    """`fuse(p, *with_neighbours(...))` (with `neighbours`: each known candidate's id and the
    ids before and after it, -1 for none, in the order the candidates were pooled) or
    `fuse(p, vector, lexical)`, best first."""
    v_ids, v_values = _arrays(vector)
    l_ids, l_values = _arrays(lexical)
    if neighbours is not None:
        items, before, after = neighbours
        skipped = np.fromiter(skip, dtype=np.int64, count=len(skip))
        before, after = _none_of(before, skipped), _none_of(after, skipped)

        def mixed(ids: Ids, values: Scores) -> Scores:
            # the dict path's order: its own, + the one before's share, + the one after's
            total = _lookup(ids, values, items)
            total = total + p.previous_weight * _lookup(ids, values, before)
            return total + p.next_weight * _lookup(ids, values, after)

        v_mixed, l_mixed = mixed(v_ids, v_values), mixed(l_ids, l_values)
        in_v, in_l = v_mixed > 0, l_mixed > 0
        v_ids, v_values = items[in_v], v_mixed[in_v]
        l_ids, l_values = items[in_l], l_mixed[in_l]
        lexical_only = items[in_l & ~in_v]
    else:
        lexical_only = l_ids[~np.isin(l_ids, v_ids)]
    weights = p.vector_weight + p.lexical_weight
    # As `fuse`: a ranking that is empty or weighs nothing adds no candidate.
    with_v = bool(len(v_ids)) and p.vector_weight != 0
    with_l = bool(len(l_ids)) and p.lexical_weight != 0
    parts = [v_ids] if with_v else []
    if with_l:
        parts.append(lexical_only if with_v else l_ids)
    ids = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
    scores = np.zeros(len(ids), dtype=np.float64)
    if with_v:
        scores[: len(v_ids)] = p.vector_weight * (v_values / v_values.max()) / weights
    if with_l:
        best = max(float(l_values.max()), p.lexical_reference)
        scores = scores + p.lexical_weight * (_lookup(l_ids, l_values, ids) / best) / weights
    order = np.argsort(-scores, kind="stable")
    return Fused(ids[order], scores[order])
