"""Who a word names: a person by role, or no one (a word in common use).

- `person`: a noun whose most common sense is a kind of person in WordNet
  (kit/retrieval/lexicon.py: "accountant", "advisor", "landlord"), so that what a fact says
  of "the owner's accountant" is held against what the messages say of the accountant. Only
  a word that is mostly a noun (related.thing) and only its first sense: "guide" or "judge"
  stay words.
- `common`: a capitalised word before "'s" in common use ("Painting's great", "Tomorrow's
  gonna be") is that word and "is", not someone's ("Michael's promotion").
- `acting`: a verb's -ing form ("Coding is going smoothly", "Weeding has taken my Sundays")
  names an act, no one who does it (rare words too: "coding" is tagged once).
Without WordNet, neither: the guard reads as it did. Deterministic; cached.
"""

from __future__ import annotations

from functools import lru_cache

from kit.curator.related import lemma_key, tagged, thing
from kit.retrieval.lexicon import lexicon
from kit.retrieval.wordnet import WordNetMissing

_UP = frozenset({"@", "@i"})
_PERSON = frozenset({"person", "individual", "someone", "somebody"})  # person.n.01's words
_DEPTH = 12  # hypernym steps: "accountant" reaches person in 3, "advisor" in 4
# Tagged uses (related.tagged) from which a word is in common use, not a name: names are
# tagged 0-2 times ("John" 2, "Maria" 1), "painting" 68, "tomorrow" 27.
COMMON = 5


@lru_cache(maxsize=65536)
def person(word: str) -> bool:
    """Whether the word's first noun sense rises to person.n.01 (see the module note)."""
    low = lemma_key(word)
    if not thing(low):
        return False
    try:
        net = lexicon()
    except WordNetMissing:
        return False
    nouns = [lemma for part, lemma in net.lemmas(low) if part == "noun"]
    senses = net.senses("noun", nouns[0]) if nouns else ()
    seen, frontier = set(senses[:1]), list(senses[:1])
    for _ in range(_DEPTH):
        following = []
        for offset in frontier:
            words, pointers = net.synset("noun", offset)
            if len(_PERSON & set(words)) >= 2:
                return True
            following += [t for s, t, part, _, _ in pointers if s in _UP and part == "noun"]
        frontier = [o for o in following if o not in seen]
        seen.update(frontier)
    return False


def role(words: list[str]) -> bool:
    """Whether words after "the owner's" in a fact name a person by role ("academic
    advisor", "landlord raised"; not "producer job": a person word before a thing describes
    it)."""
    for n, word in enumerate(words):
        if person(word):
            return n + 1 >= len(words) or not thing(words[n + 1])
    return False


def common(word: str) -> bool:
    """Whether the word is in common use (tagged COMMON times or more), so no name."""
    return tagged(word) >= COMMON  # `tagged` reads the word's lemma_key


def acting(word: str) -> bool:
    """Whether the word is a verb's -ing form (a gerund), so no name: its lemma is a verb."""
    low = word.lower()
    if not low.endswith("ing") or len(low) < 6:
        return False
    try:
        forms = lexicon().lemmas(low)
    except WordNetMissing:
        return False
    return any(part == "verb" and base != low for part, base in forms)
