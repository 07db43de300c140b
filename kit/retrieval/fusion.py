"""Fusion helpers for hybrid search (kit/retrieval/search.py): how the vector and lexical
scores of one layer become one ranking, and what is done to that ranking before its top k
are kept: neighbours' share, strong vector hits lifted, identical lines merged, a list
question's places spread over days.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Hashable, Mapping, Sequence
from datetime import datetime
from typing import Any, TypeVar

from kit.memory.messages import Message
from kit.retrieval.lexical import words_of
from kit.retrieval.ranking import RankingParams


def fuse(
    p: RankingParams, vector: Mapping[int, float], lexical: Mapping[int, float]
) -> dict[int, float]:
    """Relevance in [0, 1] per item: 1.0 is the best of both rankings."""
    weights = p.vector_weight + p.lexical_weight
    fused: dict[int, float] = {}
    for scores, weight in ((vector, p.vector_weight), (lexical, p.lexical_weight)):
        if not scores or weight == 0:
            continue
        if p.fusion == "rrf":
            ranked = sorted(scores, key=lambda i: -scores[i])
            parts = {i: (p.rrf_k + 1) / (p.rrf_k + rank) for rank, i in enumerate(ranked, 1)}
        elif scores is vector and p.vector_floor is not None:
            parts = above_floor(scores, p.vector_floor)
        else:
            best = max(scores.values())
            if scores is lexical:
                best = max(best, p.lexical_reference)
            parts = {i: s / best for i, s in scores.items()}
        for item, part in parts.items():
            fused[item] = fused.get(item, 0.0) + weight * part / weights
    return fused


# (score, item, text, time, ref), best first: a layer's candidates as search scores them.
def with_neighbours(
    links: Mapping[int, tuple[int | None, int | None]],
    vector: dict[int, float],
    lexical: dict[int, float],
    skip: Collection[int],
    previous_weight: float,
    next_weight: float,
) -> tuple[dict[int, float], dict[int, float]]:
    """Both rankings' scores with a share of each candidate's neighbours' scores mixed
    in: in a conversation the answer often sits in a reply that does not repeat the
    question's words. (Neighbours that are not candidates themselves are not added:
    measured, that bought nothing.)"""

    def mixed(scores: dict[int, float]) -> dict[int, float]:
        out: dict[int, float] = {}
        for item, (before, after) in links.items():
            total = scores.get(item, 0.0)
            if before is not None and before not in skip:
                total += previous_weight * scores.get(before, 0.0)
            if after is not None and after not in skip:
                total += next_weight * scores.get(after, 0.0)
            if total > 0:
                out[item] = total
        return out

    return mixed(vector), mixed(lexical)


def without_names(text: str, speakers: Collection[str]) -> str:
    """The text's words less every part of the speakers' names."""
    if not speakers:
        return text
    names = {part for speaker in speakers for part in words_of(speaker)}
    return " ".join(w for w in words_of(text) if w not in names)


def strong_hits(hits: Sequence[tuple[int, float]], z: float | None, most: int) -> list[int]:
    """The best `most` vector candidates whose cosine stands `z` standard deviations above
    the candidates' mean (too few candidates tell no distribution; None: none)."""
    if z is None or most <= 0 or len(hits) < 20:
        return []
    cosines = [c for _, c in hits]
    mean = sum(cosines) / len(cosines)
    spread = math.sqrt(sum((c - mean) ** 2 for c in cosines) / len(cosines))
    if spread <= 0:
        return []
    bar = mean + z * spread
    best = sorted(hits, key=lambda h: -h[1])[:most]
    return [i for i, c in best if c >= bar]


Scored = TypeVar("Scored", bound=tuple[float, Any, str, datetime, "str | None"])


def lift(scored: list[Scored], strong: Collection[int], within: int) -> list[Scored]:
    """`scored` (best first) with every strong item below rank `within` moved up to it,
    taking the score of the item it passes (the order and the scores stay consistent)."""
    out = list(scored)
    for item_id in strong:
        at = next((n for n, s in enumerate(out) if s[1].id == item_id), None)
        if at is None or at < within:
            continue
        entry = out.pop(at)
        place = within - 1
        out.insert(place, (out[place][0], *entry[1:]))  # type: ignore[arg-type]
    return out


def spread_over_days(
    scored: list[Scored], spread: float, day_of: Callable[[Any], object] | None = None
) -> list[Scored]:
    """`scored` re-ranked so each message counts `spread` less for every better one from the
    same day (greedily: the best first, then the best of the rest as weighed); `day_of`: an
    item's day (a message's own)."""
    _day_of = day_of or _message_day
    left = list(scored)
    out: list[Scored] = []
    per_day: dict[object, int] = {}
    while left:
        weighed = [
            (e[0] * (1 - spread) ** per_day.get(_day_of(e[1]), 0), n) for n, e in enumerate(left)
        ]
        score, at = max(weighed, key=lambda w: (w[0], -w[1]))
        entry = left.pop(at)
        per_day[_day_of(entry[1])] = per_day.get(_day_of(entry[1]), 0) + 1
        out.append((score, *entry[1:]))  # type: ignore[arg-type]
    return out


def _message_day(item: object) -> object:
    return item.day if isinstance(item, Message) else id(item)


def _line_key(item: object, text: str) -> tuple[str, str] | None:
    """What makes two messages the same line: the speaker and the words, case and spacing
    aside. Only messages repeat (an echoed reply, a "thanks!"); a fact or a day is its own
    line (None)."""
    if not isinstance(item, Message):
        return None
    return (item.speaker or item.role).casefold(), " ".join(text.casefold().split())


def merge_repeats(
    scored: list[Scored], line_key: Callable[[Any, str], Hashable | None] = _line_key
) -> tuple[list[Scored], dict[int, tuple[int, datetime]]]:
    """`scored` (best first) with each repeated line kept once, where it ranks best, and
    per kept id with repeats: how many there were and the newest one's time. (An echoed
    reply said ten times took ten of the fifteen places; issue 21.) `line_key`: what makes
    two items the same line (None: its own)."""
    first: dict[Hashable, tuple[int, datetime]] = {}  # line -> kept id, its time
    kept: list[Scored] = []
    counts: dict[int, tuple[int, datetime]] = {}
    for entry in scored:
        key = line_key(entry[1], entry[2])
        if key is None:
            kept.append(entry)
            continue
        if key not in first:
            first[key] = (entry[1].id, entry[3])
            kept.append(entry)
            continue
        item_id, at = first[key]
        count, latest = counts.get(item_id, (1, at))
        counts[item_id] = (count + 1, max(latest, entry[3]))
    return kept, counts


def above_floor(scores: Mapping[int, float], quantile: float) -> dict[int, float]:
    """Each score's height above the `quantile` of all of them, the best at 1.0 (and every
    one at 1.0 when they are all the same: nothing to tell them apart by)."""
    ordered = sorted(scores.values())
    floor = ordered[min(len(ordered) - 1, int(quantile * len(ordered)))]
    span = ordered[-1] - floor
    if span <= 0:
        return {i: 1.0 for i in scores}
    return {i: max(0.0, (s - floor) / span) for i, s in scores.items()}


def under_floor_within(
    hits: Sequence[tuple[int, float]], floor: float, ranks: int
) -> list[tuple[int, float]]:
    """Vector hits (best first) at or above the cosine `floor`, and those under it that rank
    within the first `ranks` (0: none under it): a rank-based cut beside the floor, so that a
    turn the embedder scores low but ranks near the top still takes part."""
    return [(i, c) for rank, (i, c) in enumerate(hits) if c >= floor or rank < ranks]
