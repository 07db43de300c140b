"""How near a fact's unsaid soft words stand to the words its cited messages say: one of the
weighing's inputs (kit/curator/weighing.py).

Why: a curator rewords one or two soft words of a fact that is otherwise said ("started" for
"set up", "lacking" for "low on"), and a fact that swaps one detail for a wrong one looks the
same to the word-level judgement (one word unsaid). What tells them apart more often is how
near the unsaid word is to a word the message does say: a paraphrase has one close by, a
swapped detail mostly does not. Each unsaid word and each word of the cited messages is
embedded alone by Kit's own model (the meaning check's, kit/curator/meaning.py), and the
nearness of a fact is the lowest, over its unsaid words, of each one's highest cosine to a
cited word (1 when every word is said). The weighing decides what it is worth; it never
overrules a name, number, date or kin word (`weighing.weighable`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from kit.curator.related import lemma_key
from kit.curator.wording import number_of, tokens

SAID = 1.0  # the nearness of a fact whose soft words are all said


def cited_words(cited: Sequence[str]) -> list[str]:
    """The words of the cited messages, each once, as the model reads them (no numbers)."""
    found: dict[str, None] = {}
    for text in cited:
        for token in tokens(text):
            word = token.group()
            if number_of(word) is None and any(ch.isalpha() for ch in word):
                found.setdefault(lemma_key(word), None)
    return list(found)


def to_read(unsaid: Iterable[str], cited: Sequence[str]) -> list[str]:
    """The words the embedding model must read for `nearness` (none when all are said)."""
    words = [lemma_key(w) for w in unsaid]
    return [*words, *cited_words(cited)] if words else []


def nearness(
    unsaid: Iterable[str], cited: Sequence[str], cosine: Callable[[str, str], float | None]
) -> float:
    """The lowest, over the unsaid words, of each one's highest cosine to a cited word (module
    note); a word or a message word not read counts as near nothing (0)."""
    said = cited_words(cited)
    lowest = SAID
    for word in unsaid:
        scores = [cosine(lemma_key(word), other) for other in said]
        lowest = min(lowest, max((s for s in scores if s is not None), default=0.0))
    return lowest
