"""Hybrid retrieval: vector and lexical rankings fused, then weighted by what memory knows.

Per layer (facts, days, messages): cosine candidates above the threshold and FTS5 candidates
are fused by reciprocal rank (normalised so 1.0 means "first in both"), multiplied by the
item's confidence weight, plus a recency boost (up to +0.1, fading over 7 days) and a small
boost for facts that get used a lot. The top `k` per layer survive.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, time

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
    candidates: int = 100  # per ranking and layer, before fusion


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
            # Inactive and expired facts keep their vectors (undo needs them) but must not
            # take ranks or candidate slots from live ones.
            only = await self._facts.live_ids(user_id, now) if kind == "fact" else None
            vector_hits = await self.vectors.search(
                user_id, kind, query_vector, p.candidates, p.threshold, only=only, skip=skip
            )
        lexical_hits = await self._lexical.search(
            user_id, kind, query, p.candidates, now=now, skip=skip
        )
        vector_rank = {item: rank for rank, (item, _) in enumerate(vector_hits, 1)}
        cosine = dict(vector_hits)
        lexical_rank = {item: rank for rank, (item, _) in enumerate(lexical_hits, 1)}
        ids = list(dict.fromkeys([*vector_rank, *lexical_rank]))
        fused = {i: self._fused(vector_rank.get(i), lexical_rank.get(i)) for i in ids}
        # Load only the best few times k: the boosts are bounded, they cannot lift the rest.
        ids = sorted(ids, key=lambda i: -fused[i])[: max(k * 4, 40)]
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

    def _fused(self, vector_rank: int | None, lexical_rank: int | None) -> float:
        p = self.params
        total = 0.0
        if vector_rank is not None:
            total += p.vector_weight / (p.rrf_k + vector_rank)
        if lexical_rank is not None:
            total += p.lexical_weight / (p.rrf_k + lexical_rank)
        return total * (p.rrf_k + 1) / (p.vector_weight + p.lexical_weight)

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
