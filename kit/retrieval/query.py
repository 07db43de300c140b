"""What a search query says besides its words: who it names, which days, whether it asks when.

Worked out once per search and used by every layer's ranking (kit/retrieval/search.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from typing import Literal

from kit.dates.text import (
    SPAN_DAYS,
    DateMention,
    DateOrder,
    DateSpan,
    asks_when,
    date_mentions,
    iso_spans,
    said_in,
    said_spans,
    with_days_as_words,
    without,
)
from kit.retrieval.lexical import STOPWORDS, query_words, words_of

# How a query's date expressions are matched as words. "resolved": as the days they name,
# in the words messages' days are indexed with ("last Friday" -> "11 August 2023", "on
# 2023-07-05" -> "Wednesday 5 July 2023"): they find the messages written on those days.
# "absolute": absolute ones as written, relative ones not at all ("last week" would only
# match other messages' own "last week", which meant another week); "all": every one as
# written; "none": none.
DatesAsWords = Literal["resolved", "all", "absolute", "none"]
# Days a span may have to be matched by its days' words when a query says nothing else.
ALONE_SPAN_DAYS = 10


@dataclass(frozen=True)
class Query:
    text: str  # as asked: what the vectors see
    mentions: tuple[DateMention, ...]  # date expressions, with the days they name
    speakers: frozenset[str]  # known speakers the text names (as stored)
    wants_time: bool  # a "when" / "how long" / "before or after" question
    order: DateOrder = "dmy"  # how the owner writes numeric dates (kit/dates/text.py)
    # It asks what Kit itself said ("what did you recommend…"): Kit's replies are its
    # evidence as much as the owner's words (`asks_about_replies`).
    about_replies: bool = False
    # The mentions' spans, made once: every candidate of a search is tested against them.
    spans: tuple[DateSpan, ...] = field(init=False, repr=False, compare=False)
    # ...and as ISO days, to test the days stored with a message (`dated`).
    iso: tuple[tuple[str, str], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "spans", tuple(m.span for m in self.mentions))
        object.__setattr__(self, "iso", iso_spans(self.spans))

    def words(self, dates: DatesAsWords) -> str:
        """What lexical search matches: the text, its date expressions as `dates` says."""
        if dates == "resolved":
            if not self.mentions:
                return self.text
            # A week's days as words would outweigh the question's other words; when the
            # dates are all it says ("what did I do last week?"), they are its words.
            alone = not query_words(without(self.text, self.mentions))
            days = ALONE_SPAN_DAYS if alone else SPAN_DAYS
            return with_days_as_words(self.text, self.mentions, days)
        dropped = [
            m for m in self.mentions if dates == "none" or (dates == "absolute" and m.relative)
        ]
        return without(self.text, dropped) if dropped else self.text

    def dated(
        self,
        day: date,
        text: str | None,
        slack_days: int,
        said_days: str | None = None,
    ) -> bool:
        """Something written on `day` falls in a span the query names: written inside one
        (or up to `slack_days` after it: people tell of a thing when it happens or soon
        after), or its `text` names a day inside one, read as of the day it was written
        ("last Friday" said on Monday 8 May is 5 May). `said_days`: the days the text names
        as stored with it (`Message.said_days`), so the text is not parsed again."""
        spans = self.spans
        if not spans:
            return False
        if any(s.holds(day, slack_days) for s in spans):
            return True
        if said_days is not None:
            return said_in(said_days, self.iso)
        if not text:
            return False
        return any(s.overlaps(said) for said in said_spans(text, day) for s in spans)


def understand(
    text: str, today: date, known_speakers: Iterable[str], order: DateOrder = "dmy"
) -> Query:
    return Query(
        text=text,
        mentions=tuple(date_mentions(text, today, order)),
        speakers=named_speakers(text, known_speakers),
        wants_time=asks_when(text),
        order=order,
        about_replies=asks_about_replies(text),
    )


# "What did you recommend…", "you told me…", "your advice": the question is about what the
# assistant said. "Would you suggest…" asks for advice now, not about earlier advice.
_REPLIES = re.compile(
    r"\b(?:did|have|had) you\s+(?:\w+\s+)?(?:recommend|suggest|say|tell|mention|advise|propose"
    r"|explain|help|give|share|outline|describe)"
    r"|\byou(?:'ve| have)?\s+(?:\w+\s+)?(?:recommended|suggested|said|told|mentioned|advised"
    r"|proposed|explained|gave|shared|outlined|described|helped)\b"
    r"|\byour (?:advice|recommendations?|suggestions?|answers?|replies|reply|explanations?)\b",
    re.IGNORECASE,
)


def asks_about_replies(text: str) -> bool:
    """Whether the question asks what the assistant itself said earlier."""
    return _REPLIES.search(text) is not None


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
