"""A feeling a clause about someone else gives the speaker: `who said something that really
upset me`, `the talk inspired us`: a verb of feeling (WordNet's verb.emotion in one of its
first senses) with `me` or `us` right after it says the speaker felt it, so a fact that the
owner was upset, or had an upsetting time, is said of the owner there (kit/curator/judge.py).
Only where the fact too says it felt (`was annoyed`, `felt upset`, `an upsetting call`:
`as_felt`), never done (`the owner annoyed them` from `they annoyed me`). Only the feeling:
the clause's other words stay theirs (`Ana upset me by selling the car` sells no car of the
owner's). Not `her` or `them` (their feeling), not one only planned or asked (the clause's
hedge holds). Deterministic."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import lru_cache

from kit.curator.clauses import Clause
from kit.curator.related import FEELING, family, lemma_key, wordnet_or_none
from kit.curator.wording import stem, tokens

_SPEAKER = frozenset({"me", "us"})
_SENSES = 3  # a verb's most common senses, one of which is a feeling ("upset": upset the cart)


def felt(folded: str, cut: Sequence[Clause]) -> tuple[frozenset[str], ...]:
    """For each clause of `cut` (offsets into `folded`): the stems of the feelings it says
    the speaker felt (see the module note)."""
    found = []
    for clause in cut:
        words = [t.group() for t in tokens(folded[clause.start : clause.end])]
        found.append(
            frozenset(
                key
                for word, after in itertools.pairwise(words)
                if after.lower() in _SPEAKER and feeling(word)
                for key in {stem(word), *map(stem, family(word))}
            )
        )
    return tuple(found)


@lru_cache(maxsize=65536)
def feeling(word: str) -> bool:
    """Whether the word is a verb one of whose most common senses is a feeling."""
    net = wordnet_or_none()
    if net is None:
        return False
    return any(
        net.topic(part, offset) == FEELING
        for part, lemma in net.lemmas(lemma_key(word))
        if part == "verb"
        for offset in net.senses(part, lemma)[:_SENSES]
    )


def as_felt(text: str) -> frozenset[str]:
    """The stems of the fact's words of feeling said as felt: a participle after a linking
    verb (`was really annoyed`, `felt upset`), or an `-ing` form before what it describes
    (`an upsetting encounter`); not a verb the fact's subject does (`annoyed them`) nor a
    trait (`was annoying`)."""
    words = [t.group().lower() for t in tokens(text)]
    found = set()
    for n, word in enumerate(words):
        if not feeling(word):
            continue
        before = [w for w in words[max(0, n - 3) : n] if w not in _DEGREE]
        linked = bool(before) and before[-1] in _LINKING and not word.endswith("ing")
        described = word.endswith("ing") and bool(before) and before[-1] in _ARTICLES
        if linked or described:
            found.add(stem(word))
    return frozenset(found)


_LINKING = frozenset(
    """is was were am are be been being feel feels felt feeling get gets got getting become
    becomes became seem seems seemed""".split()
)
_ARTICLES = frozenset({"a", "an", "the", "such", "some", "another"})
_DEGREE = frozenset({"really", "very", "so", "quite", "deeply", "truly", "pretty", "rather"})
