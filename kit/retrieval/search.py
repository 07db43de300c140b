"""Hybrid retrieval: vector and lexical rankings fused, then weighted by what memory knows.

Per layer (facts, days, messages): cosine candidates above the threshold and FTS5 (BM25)
candidates are fused. The default fusion adds the two scores, each divided by the best of its
ranking, the vector share weighted 1.5 times the lexical one: 1.0 means "best in both", 0.6
"best by meaning", 0.4 "best by words"; reciprocal-rank fusion is the alternative
(`fusion="rrf"`).
A message also scores a little of its neighbours' relevance (the turn before it and the one
after, in its conversation): in a conversation the answer often sits in a reply that does not
repeat the question's words (and a message's lexical unit holds the words of the one before
it, m010). A named speaker's name is not a word to match in messages (every one of theirs
carries it). The fused relevance is multiplied by the item's confidence weight, by how it
fits what the query says besides its words (kit/retrieval/fit.py: who it names, which days,
whether it asks when) and whether it names an instance of a kind of thing the query names
(kit/retrieval/instances.py), plus a recency boost (up to +0.1, fading over 7 days) and a
small boost for facts that get used a lot. Identical messages are one hit, with their
count and newest time (kit/retrieval/fusion.py). Messages are scored from columns kept in
memory, their rows read only for the hits kept (kit/retrieval/message_scores.py). The best
few word matches that fit the query are lifted into the first places when a crowd of middling
cosines outscored them (`lexical_lift`). The top `k` per layer survive. A fourth layer,
sections of the owner's notes (kind "note"), is searched the same way when asked for
(`search_memory`, `kit search`); a turn's context does not retrieve from it. A long message is
shown by its passage that matched (kit/retrieval/passages.py). Measured choices (LoCoMo's dev
split and BEAM-100K, `kit eval retrieval`, paired bootstrap intervals) are in
docs/retrieval-quality.md.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta, tzinfo
from time import perf_counter
from typing import Any

from kit.dates.text import DateOrder
from kit.embed.base import Vectors
from kit.memory.days import Day, Days
from kit.memory.fact_rows import Fact
from kit.memory.fact_times import FactTimes
from kit.memory.facts import Facts
from kit.memory.messages import Message, Messages
from kit.memory.versions import MemoryVersion
from kit.notes.store import NoteChunk, Notes
from kit.retrieval.candidates import load_candidates
from kit.retrieval.fit import Fit, fit_range, fitter, message_factor
from kit.retrieval.fusion import (
    fuse,
    lift,
    merge_repeats,
    spread_over_days,
    strong_hits,
    under_floor_within,
    with_neighbours,
    without_names,
)
from kit.retrieval.hits import Hit, SearchResult
from kit.retrieval.instances import KindOfThing, kinds_named, names_an_instance
from kit.retrieval.kinds import KINDS, Kind
from kit.retrieval.lexical import LexicalSearch, query_words
from kit.retrieval.links import ConversationLinks, Links
from kit.retrieval.lists import asks_for_many
from kit.retrieval.liveness import LiveFacts, ShownFacts
from kit.retrieval.message_scores import Entry, scored_messages
from kit.retrieval.passage_rows import PassageRow
from kit.retrieval.passage_search import message_vectors
from kit.retrieval.passages import best_passage
from kit.retrieval.query import Query, named_speakers, understand
from kit.retrieval.ranking import RankingParams
from kit.retrieval.ready import Ready, Soon
from kit.retrieval.rows import KeptRows
from kit.retrieval.vectors import VectorIndex

# A layer's vector candidates (id, cosine), best first, and per message found through a
# passage's vector, that passage.
Ranking = tuple[list[tuple[int, float]], dict[int, PassageRow]]


class MemorySearch:
    def __init__(
        self,
        facts: Facts,
        days: Days,
        messages: Messages,
        vectors: VectorIndex,
        lexical: LexicalSearch,
        params: RankingParams,
        tz: tzinfo = UTC,
        notes: Notes | None = None,
        *,
        live_facts: LiveFacts,
        links: Links,
        date_order: DateOrder = "dmy",
        fact_times: FactTimes | None = None,
    ) -> None:
        self._notes = notes
        self._date_order = date_order  # how the owner writes 03/05 (kit/dates/text.py)
        self._fact_times = fact_times  # facts as of a past moment (`facts_as_of`)
        # Which facts may take a rank, and messages' neighbours and speakers: kept in memory
        # (kit/retrieval/liveness.py, kit/retrieval/links.py), not asked of the database per turn.
        self._live_facts = live_facts
        self._links = links
        self._facts = facts
        self._days = days
        self._messages = messages
        # Candidates' rows, kept by id while their layer is unchanged (kit/retrieval/rows.py).
        self._rows = KeptRows(facts, days, messages)
        self.vectors = vectors
        self._lexical = lexical
        self.params = params
        self._tz = tz

    @property
    def lexical(self) -> LexicalSearch:
        """The word search (FTS5's, kept in memory once warmed; or tsvector's)."""
        return self._lexical

    def forget_cache(self, user_id: str | None = None) -> None:
        """Drop what is kept in memory of a user's messages (all users': None), after rows
        were removed."""
        self._links.forget(user_id)
        self._rows.forget(user_id)

    async def warm(self, user_id: str) -> None:
        """Read what a first search of `user_id` would (which facts may be shown, the
        conversations' links, the words of the word search), so that it finds them kept (a
        daemon, after its start)."""
        await self._live_facts.snapshot(user_id)
        await self._links.current(user_id)
        await self._lexical.warm()  # every user's words (FTS5's statistics are the table's)

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
        facts_as_of: datetime | None = None,
    ) -> SearchResult:
        """Top `k` hits per layer in `kinds`, best first within the merged list.

        Without `query_vector` the query is embedded here, on its own thread while the
        lexical searches (which need no vector) run: a turn waits for the longer of the
        two, not their sum. With `facts_as_of`, the facts ranked are those that held then
        (kit/memory/fact_times.py), superseded ones included, not those live now."""
        embedding = Soon(self._embed(query)) if query_vector is None else None
        memory = None
        if "fact" in kinds or "day" in kinds:
            memory = Soon(self._live_facts.versions(user_id))
        shown = None
        if "fact" in kinds and memory is not None:
            if facts_as_of is None:
                shown = Soon(self._shown(user_id, memory))
            else:
                shown = Soon(self._held(user_id, facts_as_of))
        links = Soon(self._links.current(user_id)) if "message" in kinds else None
        # What the query says besides its words; the speakers it may name are read while
        # the lexical searches run (only the ranking after them needs them).
        plan = understand(query, now.astimezone(self._tz).date(), (), self._date_order)
        things = kinds_named(query) if self.params.instance_weight else ()
        many = asks_for_many(query)
        named = Soon(self._named(plan, links)) if links is not None else None
        ready = Ready(query_vector, embedding, shown, links, plan, named, memory)
        # Each layer's vector ranking, started before the layers and the messages' first:
        # the first to wait for the query's vector is the first resumed when it comes, so
        # the biggest scan goes to its thread before any layer's inline scan or other work.
        rankings = {
            kind: Soon(self._vector_ranking(user_id, kind, ready, now, exclude_message_ids))
            for kind in sorted(kinds, key=lambda kind: kind != "message")
        }
        try:
            # The layers are independent: searched at once (the database has several
            # readers, SQLite and numpy work outside the GIL): a turn waits for the slowest.
            layers = await asyncio.gather(
                *(
                    self._layer(
                        user_id,
                        kind,
                        ready,
                        rankings[kind],
                        now,
                        k,
                        exclude_message_ids,
                        things,
                        many,
                        facts_as_of,
                    )
                    for kind in kinds
                )
            )
            vector, embed_ms = await ready.vector()
        finally:
            ready.close()  # what no layer awaited (a failed search; no vector): stopped
            for ranking in rankings.values():
                ranking.close()
        hits = [hit for layer in layers for hit in layer]
        hits.sort(key=lambda h: -h.score)
        return SearchResult(query, tuple(hits), vector, embed_ms)

    async def _shown(self, user_id: str, memory: Soon[MemoryVersion]) -> ShownFacts:
        """The user's shown facts at the memory versions this search read."""
        return await self._live_facts.snapshot(user_id, await memory.get())

    async def _held(self, user_id: str, at: datetime) -> ShownFacts:
        """The facts that held at `at`, in the shape of the live ones (a version of its own:
        never kept)."""
        if self._fact_times is None:
            raise RuntimeError("this search was built without fact times")
        return ShownFacts(-1, await self._fact_times.held_ids(user_id, at))

    async def _named(self, plan: Query, links: Soon[ConversationLinks]) -> Query:
        """`plan` with the speakers of the user's archive that the query names."""
        speakers = (await links.get()).speakers
        return dataclasses.replace(plan, speakers=named_speakers(plan.text, speakers))

    async def _embed(self, query: str) -> tuple[Vectors | None, float]:
        began = perf_counter()
        vector = await self.vectors.embed_query(query)
        return vector, (perf_counter() - began) * 1000

    async def _layer(
        self,
        user_id: str,
        kind: Kind,
        ready: Ready,
        ranking: Soon[Ranking],
        now: datetime,
        k: int,
        exclude: frozenset[int],
        things: tuple[KindOfThing, ...] = (),
        many: bool = False,
        facts_as_of: datetime | None = None,
    ) -> list[Hit]:
        p = self.params
        skip = exclude if kind == "message" else frozenset()
        if many and kind == "message" and p.list_k > 1:
            k = max(k, round(k * p.list_k))  # `k_for`

        words = ready.plan.words(p.dates_as_words)
        if kind == "message" and not p.speaker_names_as_words:
            words = without_names(words, (await ready.named_plan()).speakers)
        # The vector ranking runs meanwhile (started by `search`): numpy and SQLite both
        # work outside the GIL.
        lexical_hits = await self._lexical.search(
            user_id,
            kind,
            words,
            p.candidates,
            now=now,
            skip=skip,
            context_weight=p.context_weight,
            common_rows=p.common_rows,
            held_then=facts_as_of is not None,
        )
        vector_hits, matched = await ranking.get()
        vector_rank = {item: rank for rank, (item, _) in enumerate(vector_hits, 1)}
        lexical_rank = {item: rank for rank, (item, _) in enumerate(lexical_hits, 1)}
        cosine = dict(vector_hits)
        if p.cosines_for_words:
            cosine.update(await self._word_cosines(user_id, kind, ready, lexical_hits, cosine))
        vector, lexical = cosine, dict(lexical_hits)
        if kind == "message" and (p.previous_weight or p.next_weight):
            pool = list(dict.fromkeys([*vector, *lexical]))
            gap = timedelta(hours=p.session_gap_hours) if p.session_gap_hours > 0 else None
            links = (await ready.conversation_links()).neighbours(pool, now, within=gap)
            vector, lexical = with_neighbours(
                links, vector, lexical, skip, p.previous_weight, p.next_weight
            )
        fused = fuse(self.params, vector, lexical)
        plan = await ready.named_plan()
        strong = strong_hits(vector_hits, p.strong_z, p.strong_hits)
        by_words = [i for i, _ in lexical_hits[: p.lexical_lift]]
        spread = fit_range(p, plan, kind) * (1 + p.instance_weight if things else 1.0)
        ids = self._worth_loading(fused, k, spread)
        ids += [i for i in (*strong, *by_words) if i not in ids and i in fused]
        # Scored first, and only the top k made into hits; messages from columns, with only
        # the top k's rows read (kit/retrieval/message_scores.py).
        found = None
        if kind == "message" and not things:
            columns, factor = await ready.conversation_links(), message_factor(p, plan)
            found = await scored_messages(
                self._rows, columns, user_id, ids, fused, factor, p, now, k, strong, by_words, many
            )
        if found is None:
            fit = fitter(p, plan, kind)
            loaded = await self._scored(
                user_id, kind, ids, fused, fit, now, ready, things, facts_as_of
            )
            found = self._reranked(loaded, kind, fit, strong, by_words, many)
        scored, repeats = found
        shown = set(query_words(words)) if kind == "message" and p.passages else None
        return [
            Hit(
                kind=kind,
                id=item.id,
                text=text,
                score=score,
                at=at,
                cosine=cosine.get(item.id),
                vector_rank=vector_rank.get(item.id),
                lexical_rank=lexical_rank.get(item.id),
                ref=ref,
                fact=item if isinstance(item, Fact) else None,
                day=item if isinstance(item, Day) else None,
                message=item if isinstance(item, Message) else None,
                note=item if isinstance(item, NoteChunk) else None,
                strong=item.id in strong,
                repeats=repeats[item.id][0] if item.id in repeats else 1,
                latest=repeats[item.id][1] if item.id in repeats else None,
                **_passage_of(text, shown, matched.get(item.id)),
            )
            for score, item, text, at, ref in scored[:k]
        ]

    async def _scored(
        self,
        user_id: str,
        kind: Kind,
        ids: list[int],
        fused: Mapping[int, float],
        fit: Fit,
        now: datetime,
        ready: Ready,
        things: tuple[KindOfThing, ...],
        facts_as_of: datetime | None,
    ) -> list[Entry]:
        """The candidates `ids` with their rows, scored, best first."""
        p = self.params
        boosted = p.boosted_after(now)  # older: no recency boost (most candidates)
        return sorted(
            (
                (
                    fused[item.id] * weight * fit(item) * self._names(things, text)
                    + (p.recency(at, now) if at > boosted else 0.0)
                    + bonus,
                    item,
                    text,
                    at,
                    ref,
                )
                for item, text, at, weight, bonus, ref in await load_candidates(
                    self._rows,
                    user_id,
                    kind,
                    ids,
                    now,
                    ready,
                    facts_as_of,
                    notes=self._notes,
                    fact_times=self._fact_times,
                    params=p,
                )
            ),
            key=lambda s: -s[0],
        )

    def _reranked(
        self,
        scored: list[Entry],
        kind: Kind,
        fit: Fit,
        strong: list[int],
        by_words: list[int],
        many: bool,
    ) -> tuple[list[Entry], dict[int, tuple[int, datetime]]]:
        """`scored` spread over days (a list question's messages), lifted, repeats merged."""
        p = self.params
        if many and kind == "message" and p.list_spread:
            scored = spread_over_days(scored, p.list_spread)
        if strong:
            scored = lift(scored, strong, p.strong_within)
        if by_words:  # only word matches that fit who / whose the question asks
            fits = {e[1].id for e in scored if e[1].id in by_words and fit(e[1]) >= 1}
            scored = lift(scored, [i for i in by_words if i in fits], p.lexical_within)
        return merge_repeats(scored)

    async def _vector_ranking(
        self, user_id: str, kind: Kind, ready: Ready, now: datetime, exclude: frozenset[int]
    ) -> Ranking:
        """A layer's candidates by cosine, best first, once the query's vector is ready; and
        the messages found by a passage's vector, with that passage."""
        query_vector, _ = await ready.vector()
        if query_vector is None:
            return [], {}
        p = self.params
        skip = exclude if kind == "message" else frozenset()
        matched: dict[int, PassageRow] = {}
        if kind == "fact":
            ranked = await self._live_fact_vectors(user_id, query_vector, now, ready)
        elif kind == "message" and p.passage_vectors:
            ranked, matched = await message_vectors(
                self.vectors, user_id, query_vector, p.candidates, self._reach(kind), skip
            )
        else:
            ranked = await self.vectors.search(
                user_id, kind, query_vector, p.candidates, self._reach(kind), skip=skip
            )
        if p.floor_ranks:
            ranked = under_floor_within(ranked, self._floor(kind), p.floor_ranks)
        return ranked, matched

    async def _word_cosines(
        self,
        user_id: str,
        kind: Kind,
        ready: Ready,
        lexical_hits: Sequence[tuple[int, float]],
        cosine: Mapping[int, float],
    ) -> list[tuple[int, float]]:
        """The cosines of the word matches the vector ranking left out (at or above the
        floor), from the vectors of those rows alone."""
        query_vector, _ = await ready.vector()
        best = lexical_hits[: self.params.cosines_for_words]
        missing = [i for i, _ in best if i not in cosine]
        if query_vector is None or not missing:
            return []
        return await self.vectors.search(
            user_id, kind, query_vector, len(missing), self._floor(kind), only=missing
        )

    def _floor(self, kind: Kind) -> float:
        """The cosine a vector candidate of `kind` has to reach."""
        p = self.params
        return p.message_threshold if kind == "message" else p.threshold

    def _reach(self, kind: Kind) -> float:
        """The lowest cosine the vector search is asked for: the floor, or with a rank-based
        cut (`floor_ranks`) any positive one (the cut is made after the ranking)."""
        floor = self._floor(kind)
        return min(floor, 0.0) if self.params.floor_ranks else floor

    def k_for(self, query: str, k: int, kind: Kind = "message") -> int:
        """How many hits of `kind` a search for `query` keeps when asked for `k`: more messages
        for a question asking for many things (`RankingParams.list_k`)."""
        if kind == "message" and self.params.list_k > 1 and asks_for_many(query):
            return max(k, round(k * self.params.list_k))
        return k

    def _worth_loading(self, fused: Mapping[int, float], k: int, spread: float) -> list[int]:
        """The candidates whose rows are loaded, best first: a few times k (the additive
        boosts are small), and every one that the query's fit could still lift into the
        top k (`spread`: the most one item's fit can exceed another's)."""
        order = sorted(fused, key=lambda i: -fused[i])
        depth = max(k * 4, 40)
        if spread > 1 and len(order) > k:
            bar = fused[order[k - 1]] / spread
            depth = max(depth, sum(1 for i in order if fused[i] >= bar))
        return order[:depth]

    def _names(self, things: tuple[KindOfThing, ...], text: str) -> float:
        """More weight for an item naming an instance of a kind of thing the query names."""
        if things and names_an_instance(text, things):
            return 1 + self.params.instance_weight
        return 1.0

    async def _live_fact_vectors(
        self, user_id: str, query_vector: Vectors, now: datetime, ready: Ready
    ) -> list[tuple[int, float]]:
        """The best live facts by cosine. Inactive and expired facts keep
        their vectors (undo needs them) but must take no rank or slot: fetch a quarter more
        than needed and drop them, asking for more only when too many were dead (cheaper than
        listing every live id per query; the graph's cost grows with what is asked of it)."""
        p = self.params
        fetch = p.candidates + p.candidates // 4
        while True:
            hits = await self.vectors.search(
                user_id, "fact", query_vector, fetch, self._reach("fact")
            )
            ids = [i for i, _ in hits]
            live = (await ready.shown_facts()).live(ids, now)
            kept = [(i, c) for i, c in hits if i in live]
            if len(kept) >= p.candidates or len(hits) < fetch:
                return kept[: p.candidates]
            fetch *= 4


def _passage_of(text: str, words: set[str] | None, matched: PassageRow | None) -> dict[str, Any]:
    """A long message's passage to show for the query's `words` (or the one whose vector
    `matched`), as Hit fields (None: not a message, shown whole)."""
    if words is None:
        return {}
    found = best_passage(text, words, matched.part if matched is not None else None)
    if found is None:
        return {}
    passage, part, parts = found
    return {"passage": passage, "part": part, "parts": parts}
