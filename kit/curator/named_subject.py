"""Whose act a clause tells, where a person other than the speaker is named inside it.

Kit/curator/clauses.py reads whom a clause is about from its first words. Two ways a message
gives another person's act inside a clause it reads as the speaker's (or no one's):

- **a named subject after a conjunction**: "I had a great time at The Blue Lagoon when Carla
  hosted a celebratory dinner", "since Bryan agreed to write a recommendation letter": from
  the conjunction on, the clause is Carla's (Bryan's), not the owner's; the hosting is not
  the owner's;
- **a name's thing**: "thanks to Linda's recommendation of the narrator", "index funds I
  learned about in Tamara's workshop": the recommendation, the workshop are Linda's,
  Tamara's (read as "her recommendation": `Clause.possessed`), so what the owner did to them
  stays the owner's and they are not the owner's own.

A name here is a capitalised word in no common use (kit/curator/persons.py: "Painting's
great" names no one) or a word for people after "my" ("when my sister hosted"), and its verb
one in the past tense. Rules of thumb, not a parser.
"""

from __future__ import annotations

import re
from dataclasses import replace

from kit.curator.clauses import PEOPLE, Clause, word_key
from kit.curator.persons import common
from kit.curator.presupposed import GIVEN_ENDS
from kit.curator.related import wordnet_or_none
from kit.curator.wording import number_of, stem

_WORD = re.compile(  # as kit/curator/clauses.py reads words
    r"\$?£?€?\d(?:[\d,]*\d)?(?:\.\d+)?(?::\d\d)?(?:k\b|%)?|[^\W\d_][\w'-]*", re.UNICODE
)
# Words that open a clause of their own inside a sentence, before its subject.
_OPENERS = frozenset("when since after before once until as because while whereas".split())
_IRREGULAR = frozenset(
    """made took gave went wrote ran told said brought won led held taught got bought sent
    shared found began kept left lost met paid put read set sold spent thought threw wore
    chose drew drove flew grew knew rode sang spoke stole swam""".split()
)
_KIN_OPENERS = frozenset({"my", "our"})


def refine(folded: str, cut: tuple[Clause, ...]) -> tuple[Clause, ...]:
    """`cut` (the clauses of `folded`) with each named subject's part split off as someone
    else's, and each name's thing marked as theirs (see the module note)."""
    out: list[Clause] = []
    for clause in cut:
        out += [_theirs(folded, part) for part in _split(folded, clause)]
    return tuple(out)


def _split(folded: str, clause: Clause) -> list[Clause]:
    words = [
        (m.group(), m.start(), m.end()) for m in _WORD.finditer(folded, clause.start, clause.end)
    ]
    for i, (word, at, _) in enumerate(words):
        if word.lower() not in _OPENERS or i + 2 >= len(words):
            continue
        taken = _subject(words[i + 1 :])
        if not taken:
            continue
        if i == 0 or all(w.lower() in _OPENERS for w, _, _ in words[:i]):
            return [replace(clause, holder="other", others=True, own_subject=True)]
        head = _part(folded, clause, clause.start, at)
        tail = _part(folded, clause, at, clause.end)
        return [head, replace(tail, holder="other", others=True, own_subject=True)]
    return [clause]


def _subject(words: list[tuple[str, int, int]]) -> int:
    """How many words name a person other than the speaker and are followed by their verb
    in the past tense ("Carla hosted", "my close friend Megan recommended"); 0 if none."""
    n = 0
    if words[0][0].lower() in _KIN_OPENERS:
        n = 1
        while n < len(words) and n < 4 and not _person_word(words[n][0]):
            n += 1
        if n >= len(words) or not _person_word(words[n][0]):
            return 0
        n += 1
        while n < len(words) and _name(words[n][0]):  # "my friend Megan"
            n += 1
    else:
        while n < len(words) and n < 3 and _name(words[n][0]):
            n += 1
        if not n:
            return 0
    return n if n < len(words) and _past(words[n][0]) else 0


def _person_word(word: str) -> bool:
    return stem(word) in PEOPLE


def _name(word: str) -> bool:
    return (
        word[:1].isupper()
        and word != "I"
        and not word.startswith("I'")
        and not word.endswith("'s")
        and not common(word_key(word))
    )


def _past(word: str) -> bool:
    low = word.lower()
    if low in _IRREGULAR:
        return True
    if not low.endswith("ed") or len(low) < 5:
        return False
    net = wordnet_or_none()
    if net is None:
        return False
    return any(part == "verb" for part, _ in net.lemmas(low))


def _part(folded: str, clause: Clause, start: int, end: int) -> Clause:
    found = _WORD.findall(folded[start:end])
    return replace(
        clause,
        start=start,
        end=end,
        stems=frozenset(stem(t) for t in found),
        numbers=frozenset(n for t in found if (n := number_of(t)) is not None),
        words=frozenset(word_key(t) for t in found),
        given_spans=tuple((a, b) for a, b in clause.given_spans if start <= a < end),
    )


def _theirs(folded: str, clause: Clause) -> Clause:
    """A speaker's clause naming a name's thing ("Linda's recommendation of the narrator"):
    that thing is the name's."""
    if clause.holder != "self":
        return clause
    words = _WORD.findall(folded[clause.start : clause.end])
    owned: set[str] = set()
    for i, word in enumerate(words[1:], 1):
        if not word.endswith("'s") or not word[:1].isupper():
            continue
        if common(word_key(word)) and stem(word_key(word)) not in PEOPLE:
            continue
        phrase = []
        for after in words[i + 1 : i + 5]:
            if after.lower() in GIVEN_ENDS or after.lower() in ("of", "on", "in", "at", "about"):
                break
            if number_of(after) is None:  # a number keeps its own reading (whose_number.py)
                phrase.append(stem(after))
        owned.update(phrase)
    if not owned:
        return clause
    return replace(clause, theirs=True, others=True, possessed=clause.possessed | owned)
