"""A fact's plain word for people ("people", "an individual", "a woman", "a guy") as a message
may say it without the word: by whomever it names. "People" or "an individual" is said by any
name, word for people or he / she in the clause; "a woman", "a girl" by she or a female
relation ("my sister", "my wife"); "a man", "a guy", "a boy" by he or a male relation. A
name alone says no woman or man (it does not tell which). Deterministic."""

from __future__ import annotations

from kit.curator.clause_words import PEOPLE
from kit.curator.persons import common, person
from kit.curator.related import kinds_of
from kit.curator.wording import STOP, stem

_ANYONE = frozenset(stem(w) for w in "person people individual someone somebody".split())
_FEMALE = frozenset(stem(w) for w in "woman lady girl".split())
_MALE = frozenset(stem(w) for w in "man guy boy".split())
_SHE = frozenset({"she", "her", "hers", "herself"})
_HE = frozenset({"he", "him", "his", "himself"})


def plain_person(key: str) -> bool:
    """Whether a fact's word (its stem) is a plain word for a person (see the module note)."""
    return key in _ANYONE or key in _FEMALE or key in _MALE


def someone_said(key: str, words: frozenset[str], names: frozenset[str]) -> bool:
    """Whether a clause's words (case-folded) say the plain word for a person `key`; `names`:
    the capitalised words of its message, folded."""
    people = [w for w in words if stem(w) in PEOPLE or person(w)]
    if key in _ANYONE:
        named = {n for n in names & words if n not in STOP and not common(n)}
        return bool(named or people or words & (_SHE | _HE))
    sex, pronouns = ("female", _SHE) if key in _FEMALE else ("male", _HE)
    return bool(words & pronouns) or any(
        k == sex or k.startswith(f"{sex}_") for w in people for k in kinds_of(w)
    )
