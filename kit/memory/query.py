"""What a search query says besides its words: who it names, which days, whether it asks when.

Worked out once per search and used by every layer's ranking (kit/memory/search.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from typing import Literal

from kit.memory.dates import DateMention, DateSpan, asks_when, date_mentions, without
from kit.memory.lexical import STOPWORDS, words_of

# Which of a query's date expressions are also matched as words: absolute ones find
# messages through their indexed day words ("3 June 2023"); relative ones ("last week")
# would only match other messages' own "last week", which meant another week.
DatesAsWords = Literal["all", "absolute", "none"]


@dataclass(frozen=True)
class Query:
    text: str  # as asked: what the vectors see
    mentions: tuple[DateMention, ...]  # date expressions, with the days they name
    speakers: frozenset[str]  # known speakers the text names (as stored)
    wants_time: bool  # a "when" / "how long" question

    @property
    def spans(self) -> tuple[DateSpan, ...]:
        return tuple(m.span for m in self.mentions)

    def words(self, dates: DatesAsWords) -> str:
        """What lexical search matches: the text, without the date expressions that
        `dates` leaves out."""
        dropped = [
            m for m in self.mentions if dates == "none" or (dates == "absolute" and m.relative)
        ]
        return without(self.text, dropped) if dropped else self.text


def understand(text: str, today: date, known_speakers: Iterable[str]) -> Query:
    return Query(
        text=text,
        mentions=tuple(date_mentions(text, today)),
        speakers=named_speakers(text, known_speakers),
        wants_time=asks_when(text),
    )


def named_speakers(text: str, known: Iterable[str]) -> frozenset[str]:
    """The speakers whose name, or a part of it ("Ana" of "Ana Silva"), is a word of `text`.
    Name parts that are stopwords ("Will") do not count: they name nobody."""
    words = set(words_of(text))
    named = set()
    for speaker in known:
        parts = [p for p in words_of(speaker) if len(p) > 1 and p not in STOPWORDS]
        if any(p in words for p in parts):
            named.add(speaker)
    return frozenset(named)
