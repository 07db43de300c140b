"""What a search returns (kit/retrieval/search.py): a hit per item found, the result of one
search, and the protocol the context's sandwich searches with.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

from kit.embed.base import Vectors
from kit.memory.days import Day
from kit.memory.fact_rows import Fact
from kit.memory.messages import Message
from kit.notes.store import NoteChunk
from kit.retrieval.kinds import KINDS, Kind
from kit.retrieval.passages import Passage


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
