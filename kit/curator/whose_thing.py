"""Whose is the thing a fact gives its own subject (issue 29, round 32B).

"the bond ladders I learned about in Priya's seminar" does not say "the owner runs a seminar",
"a print of the mural by artist Jonas Whitfield" does not say "the owner produced the mural",
and "Gareth's 1990 thesis on river ecology" does not say "the owner wrote a thesis on river
ecology", though every word of each fact but its verb is there. kit/curator/whose_act.py reads
the act's own noun as another's (`her 2021 audition`); this module reads, for
kit/curator/intended.py, the same of the thing the act is done to, and of later mentions:

- after it: `by` and a person's name (`the mural by artist Jonas Whitfield`);
- which of its mentions is the fact's: where a message says the thing more than once
  (`Gareth's thesis on river ecology ... my thesis`), the mentions whose near words say the
  fact's other words (`river ecology`) are the fact's thing; the others are other things of the
  same kind;
- later in the same message: the thing named again with no own possessive (`Nadia's school show
  rehearsals ... the two evening rehearsals`) is the one already given to another;
- a noun that is also a verb between an article or a possessive and another noun only names
  that noun (`my audition notes`: notes), as a noun-only one does.

A fact that names the possessor itself (`attended Priya's seminar`) is left alone
(kit/curator/intended.py takes it out of the possessives it reads).
A fact whose verb, in its most common sense, only relates its subject to the thing (being
there, perceiving, knowing or feeling: WordNet's stative, perception, cognition and emotion
verbs: `attended Priya's seminar`, `watched Ana's play`) is not read: another's seminar is one
the subject may attend. Verbs of taking part that WordNet files as social acts (`joined`) are
not told from those that run the thing (`organised`). Deterministic.
"""

from __future__ import annotations

from collections.abc import Iterable

from kit.curator.related import thing, wordnet_or_none
from kit.curator.wording import STOP, stem

_BY_GAP = 4  # words between `by` and the name (`by | artist | Jonas Whitfield`)
_NEAR = 4  # words either side of a mention that may say the fact's other words
_DETERMINERS = frozenset({"the", "a", "an", "my", "our", "your", "his", "her", "their", "its"})
_OWN = frozenset({"my", "our", "mine", "i", "we"})
_CLAUSE = frozenset("and but or that which who because so if when while".split())
# WordNet's lexicographer files of verbs that relate a subject to a thing without making it its
# own: verb.cognition, verb.emotion, verb.perception, verb.stative.
_RELATING = frozenset({31, 37, 39, 42})


def relates_only(verb: str) -> bool:
    """Whether a fact's verb, in its most common sense, only relates its subject to a thing
    (`attended`, `watched`, `learned about`), not makes, runs or owns it (`wrote`, `runs`)."""
    net = wordnet_or_none()
    if net is None:
        return False
    return any(
        net.topic(part, senses[0]) in _RELATING
        for part, lemma in net.lemmas(verb)
        if part == "verb" and (senses := net.senses(part, lemma))
    )  # any verb it may be a form of: "saw" is "see" as well as "saw"


def by_other(after: list[str], agents: frozenset[str]) -> bool:
    """Whether the words after a thing give it as made by another (`| by artist Jonas
    Whitfield`): `by` first, then a person's name before any clause opens."""
    if after[:1] != ["by"]:
        return False
    for word in after[1 : 1 + _BY_GAP]:
        if word in agents:
            return True
        if word in _CLAUSE:
            return False
    return False


def details(fact_words: Iterable[str], leave: Iterable[str]) -> frozenset[str]:
    """The fact's other content words (stems), but the act, its thing and its subject."""
    left = {stem(w) for w in leave}
    return frozenset(
        stem(w) for w in fact_words if len(w) >= 4 and w not in STOP and stem(w) not in left
    )


def says_details(words: list[str], n: int, wanted: frozenset[str]) -> bool:
    """Whether the words near the mention at `n` say one of the fact's other words."""
    near = words[max(0, n - _NEAR) : n] + words[n + 1 : n + 1 + _NEAR]
    return any(stem(w) in wanted for w in near)


def own(before: list[str]) -> bool:
    """Whether the noun phrase ending at a mention opens with the speaker's own possessive."""
    return any(w in _OWN for w in before[-3:])


def modifier(before: list[str], following: str) -> bool:
    """Whether a mention stands between a determiner and a noun (`my | audition | notes`):
    a noun naming another noun, not an act."""
    if not before[-1:] or before[-1] not in _DETERMINERS or not following or following in STOP:
        return False
    return thing(following) or _plural(following)


def _plural(word: str) -> bool:
    """Whether WordNet reads a word as a noun's plural (`notes`, a verb's form too)."""
    net = wordnet_or_none()
    found = net.lemmas(word) if net is not None else ()
    return any(part == "noun" and lemma != word for part, lemma in found)
