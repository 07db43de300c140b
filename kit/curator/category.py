"""A fact's word that only names what kind of thing another of its words is.

Why: a curator names a thing's kind beside the thing ("The owner's favourite drink is
coffee." from "coffee is my fave"): "drink" says nothing the message does not, once "coffee"
is said, since coffee is a drink to WordNet. Without this the kind is an unsaid word and a
short fact is asked about or dropped for it. Only a kind the fact itself says the thing is
("<kind> is <thing>", "are", "was", an article between), and only where its messages say the
thing (kit/curator/judge.py); "The owner's favourite drink is tea." from "coffee is my fave"
still lacks "tea", and "The owner drinks coffee" still lacks "drinks".
"""

from __future__ import annotations

from collections.abc import Iterable

from kit.curator.related import kinds_of, lemma_key
from kit.curator.wording import tokens

_BE = frozenset({"is", "are", "was", "were"})
_ARTICLES = frozenset({"a", "an", "the"})


def kind_named(word: str, said: Iterable[str], fact: str) -> bool:
    """Whether `word` names, in `fact`, what kind of thing a `said` word is: "<word> is
    <thing>", the thing one of `said` that WordNet has as a kind of `word`."""
    words = [t.group().lower() for t in tokens(fact)]
    held = {lemma_key(w) for w in said}
    key = lemma_key(word)
    for at, seen in enumerate(words[:-2]):
        if lemma_key(seen) != key or words[at + 1] not in _BE:
            continue
        rest = [w for w in words[at + 2 :] if w not in _ARTICLES]
        thing = lemma_key(rest[0]) if rest else ""
        if thing in held and key in kinds_of(thing):
            return True
    return False
