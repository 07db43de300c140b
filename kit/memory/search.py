"""Hybrid retrieval: vector and lexical rankings fused, then weighted by what memory knows.

Per layer (facts, days, messages): cosine candidates above the threshold and FTS5 (BM25)
candidates are fused. The default fusion adds the two scores, each divided by the best of its
ranking, so 1.0 means "best in both" and 0.5 "best in one"; reciprocal-rank fusion is the
alternative (`fusion="rrf"`). A message also scores a little of its neighbours' relevance
(the turn before it and the one after, in its conversation): in a conversation the answer
often sits in a reply that does not repeat the question's words. The fused relevance is
multiplied by the item's confidence weight, plus a recency boost (up to +0.1, fading over 7
days) and a small boost for facts that get used a lot. The top `k` per layer survive.
Measured choices (LoCoMo, `kit eval retrieval`) are in the README.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, time
from typing import Literal

from kit.embed.base import Vectors
from kit.memory.days import Day, Days
from kit.memory.facts import Fact, Facts
from kit.memory.lexical import LexicalIndex
from kit.memory.messages import Message, Messages
from kit.memory.vectors import KINDS, Kind, VectorIndex


@dataclass(frozen=True)
class RankingParams:
    threshold: float = 0.3
    rrf_k: int = 60
    vector_weight: float = 1.0
    lexical_weight: float = 1.0
    recency_boost: float = 0.1
    recency_days: float = 7.0
    usage_boost: float = 0.05
    usage_saturation: int = 20  # accesses at which the usage boost is full
    candidates: int = 200  # per ranking and layer, before fusion (and neighbour mixing)
    fusion: Literal["score", "rrf"] = "score"
    # Share of the previous / next message's relevance a message adds to its own.
    previous_weight: float = 0.3
    next_weight: float = 0.15


@dataclass(frozen=True)
class Hit:
    kind: Kind
    id: int
    text: str
    score: float
    at: datetime
    cosine: float | None = None
    vector_rank: int | None = None
    lexical_rank: int | None = None
    ref: str | None = None
    fact: Fact | None = None
    day: Day | None = None
    message: Message | None = None


@dataclass(frozen=True)
class SearchResult:
    query: str
    hits: tuple[Hit, ...]
    query_vector: Vectors | None = field(default=None, compare=False, repr=False)

    def of(self, kind: Kind) -> list[Hit]:
        return [h for h in self.hits if h.kind == kind]


class MemorySearch:
    def __init__(
        self,
        facts: Facts,
        days: Days,
        messages: Messages,
        vectors: VectorIndex,
        lexical: LexicalIndex,
        params: RankingParams,
    ) -> None:
        self._facts = facts
        self._days = days
        self._messages = messages
        self.vectors = vectors
        self._lexical = lexical
        self.params = params

    async def search(
        self,
        user_id: str,
        query: str,
        *,
        now: datetime,
        k: int,
        kinds: Sequence[Kind] = KINDS,
        query_vector: Vectors | None = None,
        exclude_message_ids: frozenset[int] = frozenset(),
    ) -> SearchResult:
        """Top `k` hits per layer in `kinds`, best first within the merged list."""
        if query_vector is None:
            query_vector = await self.vectors.embed_query(query)
        hits: list[Hit] = []
        for kind in kinds:
            hits.extend(
                await self._layer(user_id, kind, query, query_vector, now, k, exclude_message_ids)
            )
        hits.sort(key=lambda h: -h.score)
        return SearchResult(query, tuple(hits), query_vector)

    async def _layer(
        self,
        user_id: str,
        kind: Kind,
        query: str,
        query_vector: Vectors | None,
        now: datetime,
        k: int,
        exclude: frozenset[int],
    ) -> list[Hit]:
        p = self.params
        skip = exclude if kind == "message" else frozenset()
        vector_hits: list[tuple[int, float]] = []
        if query_vector is not None:
            if kind == "fact":
                vector_hits = await self._live_fact_vectors(user_id, query_vector, now)
            else:
                vector_hits = await self.vectors.search(
                    user_id, kind, query_vector, p.candidates, p.threshold, skip=skip
                )
        lexical_hits = await self._lexical.search(
            user_id, kind, query, p.candidates, now=now, skip=skip
        )
        vector_rank = {item: rank for rank, (item, _) in enumerate(vector_hits, 1)}
        lexical_rank = {item: rank for rank, (item, _) in enumerate(lexical_hits, 1)}
        cosine = dict(vector_hits)
        vector, lexical = cosine, dict(lexical_hits)
        if kind == "message" and (p.previous_weight or p.next_weight):
            vector, lexical = await self._with_neighbours(user_id, now, vector, lexical, skip)
        fused = self._fuse(vector, lexical)
        # Load only the best few times k: the boosts are bounded, they cannot lift the rest.
        ids = sorted(fused, key=lambda i: -fused[i])[: max(k * 4, 40)]
        hits = [
            Hit(
                kind=kind,
                id=item.id,
                text=text,
                score=fused[item.id] * weight + self._recency(at, now) + bonus,
                at=at,
                cosine=cosine.get(item.id),
                vector_rank=vector_rank.get(item.id),
                lexical_rank=lexical_rank.get(item.id),
                ref=ref,
                fact=item if isinstance(item, Fact) else None,
                day=item if isinstance(item, Day) else None,
                message=item if isinstance(item, Message) else None,
            )
            for item, text, at, weight, bonus, ref in await self._load(user_id, kind, ids, now)
        ]
        hits.sort(key=lambda h: -h.score)
        return hits[:k]

    async def _live_fact_vectors(
        self, user_id: str, query_vector: Vectors, now: datetime
    ) -> list[tuple[int, float]]:
        """The best live facts by cosine. Inactive and expired facts keep their vectors (undo
        needs them) but must take no rank or slot: fetch more than needed and drop them, asking
        for more only when too many were dead (cheaper than listing every live id per query)."""
        p = self.params
        fetch = 2 * p.candidates
        while True:
            hits = await self.vectors.search(user_id, "fact", query_vector, fetch, p.threshold)
            live = {f.id for f in await self._facts.live(user_id, now, [i for i, _ in hits])}
            kept = [(i, c) for i, c in hits if i in live]
            if len(kept) >= p.candidates or len(hits) < fetch:
                return kept[: p.candidates]
            fetch *= 4

    async def _with_neighbours(
        self,
        user_id: str,
        now: datetime,
        vector: dict[int, float],
        lexical: dict[int, float],
        skip: Collection[int],
    ) -> tuple[dict[int, float], dict[int, float]]:
        """Both rankings' scores with a share of each candidate's neighbours' scores mixed
        in: in a conversation the answer often sits in a reply that does not repeat the
        question's words. (Neighbours that are not candidates themselves are not added:
        measured, that bought nothing.)"""
        p = self.params
        pool = list(dict.fromkeys([*vector, *lexical]))
        links = await self._messages.neighbours(user_id, pool, now)

        def mixed(scores: dict[int, float]) -> dict[int, float]:
            out: dict[int, float] = {}
            for item, (before, after) in links.items():
                total = scores.get(item, 0.0)
                if before is not None and before not in skip:
                    total += p.previous_weight * scores.get(before, 0.0)
                if after is not None and after not in skip:
                    total += p.next_weight * scores.get(after, 0.0)
                if total > 0:
                    out[item] = total
            return out

        return mixed(vector), mixed(lexical)

    def _fuse(self, vector: Mapping[int, float], lexical: Mapping[int, float]) -> dict[int, float]:
        """Relevance in [0, 1] per item: 1.0 is the best of both rankings."""
        p = self.params
        weights = p.vector_weight + p.lexical_weight
        fused: dict[int, float] = {}
        for scores, weight in ((vector, p.vector_weight), (lexical, p.lexical_weight)):
            if not scores or weight == 0:
                continue
            if p.fusion == "rrf":
                ranked = sorted(scores, key=lambda i: -scores[i])
                parts = {i: (p.rrf_k + 1) / (p.rrf_k + rank) for rank, i in enumerate(ranked, 1)}
            else:
                best = max(scores.values())
                parts = {i: s / best for i, s in scores.items()}
            for item, part in parts.items():
                fused[item] = fused.get(item, 0.0) + weight * part / weights
        return fused

    def _recency(self, at: datetime, now: datetime) -> float:
        p = self.params
        if p.recency_days <= 0:
            return 0.0
        age_days = (now - at).total_seconds() / 86400
        if age_days < 0 or age_days > p.recency_days:
            return 0.0
        return p.recency_boost * (1 - age_days / p.recency_days)

    def _usage(self, fact: Fact) -> float:
        p = self.params
        share = math.log1p(fact.access_count) / math.log1p(p.usage_saturation)
        return p.usage_boost * min(1.0, share)

    async def _load(
        self, user_id: str, kind: Kind, ids: list[int], now: datetime
    ) -> list[tuple[Fact | Day | Message, str, datetime, float, float, str | None]]:
        """Rows for candidate ids, with (text, time, confidence weight, usage bonus, ref)."""
        if kind == "fact":
            return [
                (f, f.content, f.updated_at, 0.5 + 0.5 * f.confidence, self._usage(f), None)
                for f in await self._facts.live(user_id, now, ids)
            ]
        if kind == "day":
            return [
                (d, d.best, _end_of(d), 1.0, 0.0, None)
                for d in await self._days.get_many(user_id, ids)
                if d.day <= now.date()
            ]
        return [
            (m, m.text, m.at, 1.0, 0.0, m.ref)
            for m in await self._messages.get_many(user_id, ids)
            if m.at <= now
        ]


def _end_of(day: Day) -> datetime:
    """A day summary's point in time, for recency: the end of that day."""
    return datetime.combine(day.day, time(23, 59), tzinfo=UTC)
