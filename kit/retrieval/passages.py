"""The passages of a long message: runs of its sentences, each short enough to show on its own.

An assistant's answer runs to hundreds of tokens (BEAM's assistant turns: ~530 on average; the
15 turns a search returned there cost ~8,500 tokens, against a memory budget of 1,200), and so
does a message the owner pastes code or a letter into. The prompt cannot hold fifteen such
turns, and the sentence that answers the question is a small part of each. So a message longer
than `LONG_TOKENS` is cut into passages: consecutive sentences (a line break ends one too)
gathered up to `PASSAGE_TOKENS`, a sentence longer than that cut at word boundaries; what a
search shows of the message is the passage holding most of the query's words (`best_passage`),
with the message's id, time and which part it is (kit/context/sandwich.py, kit/tools.py), so
what reaches the model stays inside the memory budget. The whole message stays in memory and
in its indexes.

Passages are (start, stop) character offsets into the message's text, derived from the text
alone: the same text always gives the same passages. Each passage also has a vector of its
own (kit/retrieval/passage_rows.py keeps their offsets as rows for it), so a long message is
found by the passage that means what the question asks (kit/retrieval/passage_search.py).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator
from dataclasses import dataclass

from kit.llm.tokens import estimate_tokens
from kit.retrieval.lexical import words_of

# A message above this many tokens (~4 characters each) is cut into passages.
LONG_TOKENS = 96
# What one passage holds at most.
PASSAGE_TOKENS = 64

# A sentence ends after . ! ? (and closing quotes or brackets) followed by a space, or at a
# line break; a run of blank lines or spaces belongs to no sentence.
_SENTENCE = re.compile(r"[^\n]*?(?:[.!?][\"'”’)\]]*(?=\s)|\n|$)", re.DOTALL)
_WORD_BREAK = re.compile(r"\s+")


@dataclass(frozen=True)
class Passage:
    start: int  # character offsets into the message's text
    stop: int

    def of(self, text: str) -> str:
        return text[self.start : self.stop]


def sentences(text: str) -> Iterator[tuple[int, int]]:
    """(start, stop) of each sentence, whitespace around it left out."""
    for match in _SENTENCE.finditer(text):
        start, stop = match.span()
        piece = text[start:stop]
        stripped = piece.strip()
        if not stripped:
            continue
        lead = len(piece) - len(piece.lstrip())
        yield start + lead, start + lead + len(stripped)


def _cut(text: str, start: int, stop: int, limit: int) -> Iterator[tuple[int, int]]:
    """A span longer than `limit` characters, cut at the last space before each limit."""
    while stop - start > limit:
        window = text[start : start + limit]
        spaces = [m.start() for m in _WORD_BREAK.finditer(window)]
        cut = spaces[-1] if spaces and spaces[-1] > limit // 2 else limit
        yield start, start + cut
        start += cut
        while start < stop and text[start].isspace():
            start += 1
    if start < stop:
        yield start, stop


def split(
    text: str, *, long_tokens: int = LONG_TOKENS, passage_tokens: int = PASSAGE_TOKENS
) -> tuple[Passage, ...]:
    """The passages of a long message, in order; () for a message of at most `long_tokens`."""
    if estimate_tokens(text) <= long_tokens:
        return ()
    limit = passage_tokens * 4  # characters (kit/llm/tokens.py: ~4 a token)
    pieces = [
        piece
        for start, stop in sentences(text)
        for piece in (_cut(text, start, stop, limit) if stop - start > limit else [(start, stop)])
    ]
    passages: list[Passage] = []
    begin = end = -1
    for start, stop in pieces:
        if begin >= 0 and stop - begin <= limit:
            end = stop
            continue
        if begin >= 0:
            passages.append(Passage(begin, end))
        begin, end = start, stop
    if begin >= 0:
        passages.append(Passage(begin, end))
    return tuple(passages)


def _stem(word: str) -> str:
    """A word as a passage and a query are compared: lower case, a plural's s left off."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def best_passage(
    text: str, words: Collection[str], matched: int | None = None
) -> tuple[Passage, int, int] | None:
    """The passage of a long message to show for a query of `words` (its content words), its
    place (1-based) and how many passages the message has: the one holding the most of the
    query's words (rarer words are not told apart: the message was already found); on a tie,
    or when none holds any, the one whose vector matched the query (`matched`, 1-based:
    kit/retrieval/passage_search.py), else the first (a message's first sentences usually say
    what it is about). None: the message is short, shown whole."""
    passages = split(text)
    if not passages:
        return None
    wanted = {_stem(w) for w in words}
    counts = [
        len(wanted.intersection(_stem(w) for w in words_of(p.of(text)))) if wanted else 0
        for p in passages
    ]
    best = 0
    if matched is not None and 1 <= matched <= len(passages):
        best = matched - 1
    for n, found in enumerate(counts):
        if found > counts[best]:
            best = n
    return passages[best], best + 1, len(passages)
