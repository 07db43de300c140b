"""Kinds of things a question may name, and whether an item names an instance of one, from
WordNet (kit/retrieval/wordnet.py): no vocabulary is written here.

"Which country is she from?" is answered by "my home country, Sweden": the turn names an
instance, the question the kind, and neither words nor a small embedding model join the two
reliably. So a question that asks "which / what <noun>" ("what kind of <noun>") names a kind:
every word WordNet files below that noun, in any of its senses (hyponyms and instances, all
the way down), is an instance of it, and an item that names one counts
`RankingParams.instance_weight` more (kit/retrieval/ranking.py). A sense with more than
`MOST` words below it ("thing", "animal", "activity") says nothing about an item and is left
out. WordNet is general English of 2006: a miss costs nothing (the item keeps its relevance).
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from functools import lru_cache

from kit.retrieval.lexical import STOPWORDS, words_of
from kit.retrieval.wordnet import wordnet

MOST = 3000  # words below one sense of a kind, at most
LONGEST = 3  # words in the longest instance matched ("new york city")

# "which country", "what pets", "what kind of animal", "what type of music": the noun asked is
# among the three words after "which" / "what" (an adjective, "kind of" passed over).
_ASKED = re.compile(r"\b(?:which|what)\b", re.IGNORECASE)


_SKIPPED = frozenset(("kind", "kinds", "type", "types", "sort", "sorts"))


@dataclass(frozen=True)
class KindOfThing:
    name: str  # the noun, as WordNet has it ("country")
    instances: frozenset[str]  # lower-case words or phrases below it


@lru_cache(maxsize=256)
def _kind(noun: str) -> KindOfThing | None:
    net = wordnet()
    words: set[str] = set()
    for sense in net.senses(noun):
        below = net.below(sense, MOST)
        if below:
            words.update(below)
    words.discard(noun.replace("_", " "))
    return KindOfThing(noun, frozenset(words)) if words else None


def kinds_named(query: str) -> tuple[KindOfThing, ...]:
    """The kinds of things the query asks for (the noun after "which" / "what", or the one
    after an adjective there: "what new hobby")."""
    found: list[KindOfThing] = []
    lowered = query.lower()
    for match in _ASKED.finditer(lowered):
        after = words_of(lowered[match.start() :])[1:4]
        for word in after:
            if word in _SKIPPED or word in STOPWORDS or len(word) < 3:
                continue
            noun = wordnet().lemma(word)
            kind = _kind(noun) if noun else None
            if kind is not None and kind not in found:
                found.append(kind)
                break
    return tuple(found)


def _forms(word: str) -> tuple[str, ...]:
    """A text's word and the singular it may be a plural of."""
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return (word, word[:-1], word[:-3] + "y" if word.endswith("ies") else word[:-1])
    return (word,)


def names_an_instance(text: str, kinds: Collection[KindOfThing]) -> bool:
    """Whether the text names an instance of any of the kinds (a word or a run of up to
    `LONGEST` words, a plural matching its singular)."""
    if not kinds:
        return False
    words = words_of(text)
    for n in range(len(words)):
        for size in range(1, LONGEST + 1):
            if n + size > len(words):
                break
            head = " ".join(words[n : n + size - 1])
            for last in _forms(words[n + size - 1]):
                phrase = f"{head} {last}" if head else last
                if any(phrase in kind.instances for kind in kinds):
                    return True
    return False
