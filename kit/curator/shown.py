"""Which facts a curation pass is shown: the whole category while it fits the budget
(`curation.facts_budget_tokens`), else the facts related to the batch.

A category that outgrows the budget would make every pass pay for all of it (seven passes a
batch), so a pass is shown, in this order until the budget is full:
1. facts whose subject the batch names and which few facts share (a person's dossier, a
   project's entry: what an UPDATE or a merge most likely needs);
2. the facts memory search finds for each of the batch's messages (vector and lexical, the
   chat's own machinery), best first and those about someone the batch names before
   look-alikes about someone else, taking turns between messages so one long message does not
   crowd out the others;
3. the other facts whose subject the batch names, newest first.
In what the budget leaves, it is also shown (without ids: they are not its to change) up to
ELSEWHERE live facts of other categories whose subject the batch names, so that it does not
store again what another category already holds.
They are listed in id order, so the same facts always render the same way. Operations may
name only facts shown (apply.py checks); the guard still counts against the whole category.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from kit.curator.progress import Batch
from kit.embed.base import Vectors
from kit.memory.fact_rows import Fact
from kit.memory.facts import Facts
from kit.memory.messages import Message
from kit.retrieval.lexical import STOPWORDS
from kit.retrieval.search import MemorySearch

# Hits per message from memory search, over all categories (the category's share is kept).
NEIGHBOURS = 40
# A subject named in the batch that at most this many facts share is shown first.
FEW = 3
# Other categories' facts about what the batch names a pass is shown, so that it does not
# store them again under its own (kit/curator/known.py drops such a copy all the same).
ELSEWHERE = 8

_WORD = re.compile(r"[^\W_]+")


@dataclass(frozen=True)
class ShownFacts:
    facts: tuple[Fact, ...]  # in id order
    total: int  # active facts in the category
    elsewhere: tuple[Fact, ...] = ()  # other categories' facts about what the batch names

    @property
    def complete(self) -> bool:
        return len(self.facts) == self.total

    @property
    def ids(self) -> frozenset[int]:
        return frozenset(f.id for f in self.facts)


@dataclass(frozen=True)
class _Neighbours:
    """Memory search's fact hits for one batch, per message, best first: (fact id, category)."""

    key: tuple[str, tuple[int, ...]]
    per_message: tuple[tuple[tuple[int, str], ...], ...]


class FactSelector:
    def __init__(
        self,
        facts: Facts,
        search: MemorySearch,
        budget_tokens: int,
        line_tokens: Callable[[Fact], int],
    ) -> None:
        self._facts = facts
        self._search = search
        self._budget = budget_tokens
        self._line_tokens = line_tokens  # what one fact's line costs in the prompt
        # The seven passes over a batch share one search (each keeps its category's hits).
        self._last: _Neighbours | None = None

    async def select(self, batch: Batch, now: datetime, budget: int | None = None) -> ShownFacts:
        """`budget` overrides `curation.facts_budget_tokens` (a model with a small window)."""
        budget = self._budget if budget is None else min(budget, self._budget)
        current = await self._facts.listing(batch.user_id, category=batch.category)
        facts = await self._within(batch, current, now, budget)
        room = budget - sum(self._line_tokens(f) for f in facts)
        return ShownFacts(facts, len(current), await self._elsewhere(batch, now, room))

    async def _within(
        self, batch: Batch, current: Sequence[Fact], now: datetime, budget: int
    ) -> tuple[Fact, ...]:
        # Rendering every line only to learn that a large category does not fit took longer
        # than the search (20,000 facts): twice the budget in raw text cannot fit.
        if sum(len(f.subject) + len(f.content) for f in current) <= 8 * budget:
            if sum(self._line_tokens(f) for f in current) <= budget:
                return tuple(current)
        by_id = {f.id: f for f in current}
        chosen: set[int] = set()
        room = budget
        for fact_id in await self._ranked(batch, current, now):
            if fact_id not in chosen and (cost := self._line_tokens(by_id[fact_id])) <= room:
                chosen.add(fact_id)
                room -= cost
        return tuple(by_id[i] for i in sorted(chosen))

    async def _elsewhere(self, batch: Batch, now: datetime, room: int) -> tuple[Fact, ...]:
        """Other categories' live facts about someone or something the batch names (every
        word of the subject said), newest first, at most ELSEWHERE, in what the budget left:
        read afresh by each pass, so one sees what an earlier pass of the batch stored."""
        if room <= 0:
            return ()
        said = _words(f"{_author(m)} {m.text}" for m in batch.messages)
        named = {
            (category, subject)
            for category, subject, _ in await self._facts.subjects(batch.user_id)
            if category != batch.category and (key := _subject_key(subject)) and key <= said
        }
        if not named:  # the usual case: no fact's rows are read
            return ()
        live = await self._facts.live(batch.user_id, now, subjects={s for _, s in named})
        others = [f for f in live if (f.category, f.subject) in named]
        chosen: list[Fact] = []
        for fact in sorted(others, key=lambda f: -f.id):
            if len(chosen) == ELSEWHERE:
                break
            if (cost := self._line_tokens(fact)) <= room:
                chosen.append(fact)
                room -= cost
        return tuple(sorted(chosen, key=lambda f: f.id))

    async def _ranked(self, batch: Batch, current: Sequence[Fact], now: datetime) -> list[int]:
        """The category's facts related to the batch, most wanted first (see the module)."""
        said = _words(f"{_author(m)} {m.text}" for m in batch.messages)
        keys = {f.id: _subject_key(f.subject) for f in current}
        sharing = Counter(k for k in keys.values() if k)
        named = [f for f in current if keys[f.id] and keys[f.id] <= said]
        about = {f.id for f in named}
        active = {f.id for f in current}
        retrieved: dict[int, tuple[int, int]] = {}  # id -> (rank in its message's list, order)
        for order, hits in enumerate((await self._neighbours(batch, now)).per_message):
            mine = [i for i, category in hits if category == batch.category and i in active]
            # Of what a message is about, what is about someone the batch names comes first.
            mine.sort(key=lambda i: i not in about)
            for rank, fact_id in enumerate(mine):  # a fact keeps its best place
                retrieved[fact_id] = min((rank, order), retrieved.get(fact_id, (rank, order)))
        few = [f.id for f in named if sharing[keys[f.id]] <= FEW]
        few.sort(key=lambda i: (sharing[keys[i]], retrieved.get(i, (NEIGHBOURS, 0)), i))
        found = sorted(retrieved, key=lambda i: retrieved[i])
        rest = sorted((f for f in named if f.id not in retrieved), key=lambda f: -f.id)
        return [*few, *found, *(f.id for f in rest)]

    async def _neighbours(self, batch: Batch, now: datetime) -> _Neighbours:
        said = [m for m in batch.messages if m.role == "user"]
        key = (batch.user_id, tuple(m.id for m in said))
        if self._last is not None and self._last.key == key:
            return self._last
        queries = [_query(m) for m in said]
        vectors = await self._embed(queries)
        per_message = []
        for n, query in enumerate(queries):
            result = await self._search.search(
                batch.user_id,
                query,
                now=now,
                k=NEIGHBOURS,
                kinds=("fact",),
                query_vector=None if vectors is None else vectors[n],
            )
            per_message.append(tuple((h.id, h.fact.category) for h in result.hits if h.fact))
        self._last = _Neighbours(key, tuple(per_message))
        return self._last

    async def _embed(self, queries: list[str]) -> Vectors | None:
        """All the batch's queries in one call to the model (one by one is several times
        slower); None when embeddings are off (search is then lexical only)."""
        if not queries:
            return None
        embedder = await self._search.vectors.loaded()
        if embedder is None:
            return None
        return await embedder.embed(queries)


def _query(message: Message) -> str:
    # Who said it is part of what it is about: "Ana: I moved" finds the facts about Ana.
    who = _author(message)
    return f"{who}: {message.text}" if who else message.text


def _author(message: Message) -> str:
    """Whose words these are: the speaker's, or the person's they forwarded."""
    return message.forwarded_from or message.speaker


def _words(texts: Iterable[str]) -> frozenset[str]:
    return frozenset(w for t in texts for w in _WORD.findall(t.casefold()))


def _subject_key(subject: str) -> frozenset[str]:
    """A subject's content words: it is named when all of them occur in the batch."""
    return frozenset(w for w in _words([subject]) if w not in STOPWORDS)
