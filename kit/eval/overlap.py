"""Does an evidence turn share a content word with its question?

The split that tells word matching from understanding: a turn that shares a word with the
question can be found by lexical search alone; one that shares none only by meaning, by its
neighbours or by luck. Words are compared as Kit's lexical search would see them: lower-cased,
Kit's stopwords out (kit/retrieval/lexical.py), each reduced to its English (Snowball) stem, so
"painting" and "painted" are one word and "courage" / "courageous" too. A stemmer is not FTS5's
porter tokenizer, but it errs the same way (both strip suffixes only): it never calls a shared
word unshared because of an inflection.
"""

from __future__ import annotations

from functools import lru_cache

from py_rust_stemmers import SnowballStemmer

from kit.retrieval.lexical import STOPWORDS, words_of

_STEMMER = SnowballStemmer("english")


@lru_cache(maxsize=65536)
def _stem(word: str) -> str:
    return str(_STEMMER.stem_word(word))


def content_stems(text: str) -> frozenset[str]:
    """The stems of the text's content words (no stopwords, no single letters)."""
    return frozenset(
        _stem(w) for w in words_of(text) if w not in STOPWORDS and (len(w) > 1 or w.isdigit())
    )


def shares_a_word(question: str, turn: str) -> bool:
    return not content_stems(question).isdisjoint(content_stems(turn))
