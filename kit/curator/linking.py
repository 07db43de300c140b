"""A word of a fact said another way in one clause (kit/curator/judge.py): a hyphenated word by its
parts (kit/curator/word_parts.py), and a verb of seeming by another (round 27C): `worries about
sounding aggressive` is said by `might come off as too aggressive`, `sounds` by `seems` or
`comes across as`; `stays motivated` by `keeps me motivated` (with an object: `kept the bags in
Paris` says no stay). What the seeming is of (`aggressive`) is a word of the fact of its own,
which the messages must say too; `look` is left out (`looked for a flat` is no seeming). A
refusal (`refused`) is said by `said no to`. A word by its clipped form
(kit/curator/clipped.py): `fest` says `festival`."""

from __future__ import annotations

from kit.curator.clauses import Clause
from kit.curator.clipped import clipped_said
from kit.curator.word_parts import parts_said
from kit.curator.wording import REFUSALS, stem

_SEEMING = frozenset(stem(w) for w in ("seem", "appear", "sound"))  # a fact's
_SAYS_SEEMING = frozenset({stem("seem")})  # a message's ("appeared on TV", "a sound system")
_AS_IF = frozenset({"across", "off"})  # "come across as", "came off as"
_COMING = frozenset("come comes came coming".split())
_STAYING = frozenset(stem(w) for w in ("stay", "remain"))  # a fact's "stays motivated"
_KEEPING = stem("keep")  # ... said by "keeps me motivated" (an object: not "kept the bags")
_OBJECTS = frozenset("me him her us them".split())
_SAYING = frozenset("say says said saying".split())


def said_otherwise(word: str, clause: Clause) -> bool:
    """Whether `clause` says the fact's `word` by its parts or, a verb of seeming, staying or
    refusing, by another (module note)."""
    return (
        parts_said(word, clause)
        or clipped_said(word, clause.words)
        or _seeming(word, clause)
        or _staying(word, clause)
        or _refusing(word, clause)
    )


def _seeming(word: str, clause: Clause) -> bool:
    if stem(word) not in _SEEMING:
        return False
    coming = bool(clause.words & _COMING) and bool(clause.words & _AS_IF)
    return bool(clause.stems & _SAYS_SEEMING) or coming


def _staying(word: str, clause: Clause) -> bool:
    return stem(word) in _STAYING and _KEEPING in clause.stems and bool(clause.words & _OBJECTS)


def _refusing(word: str, clause: Clause) -> bool:
    """A refusal (`refused the offer`) said by `said no to` (wording.REFUSALS: no longer only
    the fact's denial, a word its messages must say)."""
    return word.lower() in REFUSALS and "no" in clause.words and bool(clause.words & _SAYING)
