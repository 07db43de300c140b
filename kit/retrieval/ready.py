"""What a search waits for besides its lexical searches, started before them and awaited only
where used (kit/retrieval/search.py): the query's vector, the facts that may take a rank, the
messages' places in their conversations, the speakers the query names, and the memory
versions the kept rows (kit/retrieval/rows.py) are read at.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import Generic, TypeVar

from kit.embed.base import Vectors
from kit.memory.versions import MemoryVersion
from kit.retrieval.links import ConversationLinks
from kit.retrieval.liveness import ShownFacts
from kit.retrieval.query import Query

T = TypeVar("T")


class Soon(Generic[T]):
    """A value a task started now is computing, which several layers await."""

    def __init__(self, work: Coroutine[object, object, T]) -> None:
        self._task = asyncio.create_task(work)

    async def get(self) -> T:
        return await self._task

    def close(self) -> None:
        """Stop the task if it still runs; either way its failure is not left unseen (a
        search that failed, or did not need the value, stops waiting for it)."""
        self._task.add_done_callback(lambda t: t.cancelled() or t.exception())
        self._task.cancel()  # a task already done stays as it is


@dataclass(frozen=True)
class Ready:
    """What the layers need besides the query's words, started before their lexical
    searches and awaited only where used: the query's vector (given, or being embedded on
    its own thread meanwhile), the facts that may take a rank, the messages' places in
    their conversations, and what the query says besides its words."""

    given: Vectors | None
    embedding: Soon[tuple[Vectors | None, float]] | None
    shown: Soon[ShownFacts] | None
    links: Soon[ConversationLinks] | None
    plan: Query  # what the query says besides its words, naming no speakers yet
    named: Soon[Query] | None  # the same, with the speakers it names
    memory: Soon[MemoryVersion] | None = None  # read first: the kept rows' versions

    async def versions(self) -> MemoryVersion:
        assert self.memory is not None, "started for searches of facts or days"
        return await self.memory.get()

    async def named_plan(self) -> Query:
        return self.plan if self.named is None else await self.named.get()

    async def vector(self) -> tuple[Vectors | None, float | None]:
        """The query's vector, and how long embedding it took (None: it was given)."""
        if self.embedding is None:
            return self.given, None
        return await self.embedding.get()

    async def shown_facts(self) -> ShownFacts:
        assert self.shown is not None, "started for searches of facts"
        return await self.shown.get()

    async def conversation_links(self) -> ConversationLinks:
        assert self.links is not None, "started for searches of messages"
        return await self.links.get()

    def close(self) -> None:
        for soon in (self.embedding, self.shown, self.links, self.named, self.memory):
            if soon is not None:
                soon.close()
