"""Which option was chosen: a fact choosing an option its message names but does not choose
(issue 29, round 32F).

`I was torn between the bus or the train, but I picked the train` does not say "the owner
chose the bus": every word of that fact is in the message, so the word-level guard stored it.
Here a verb of choosing is read by its WordNet sense, not from a list: a verb whose most
common sense is a sense of `choose` that selects among alternatives (`choose`, `select`,
`opt`) or of `prioritize` (to assign a priority: one thing put before another), or one step
below such a sense (`pick`, `elect`, `adopt`); never a light word (`take`), and not `prefer`,
whose most common sense is a liking. A time after the verb is when, not what (`adopted last
year`). What it chooses is its object, after `for` (`opted for`) or through another verb of
choosing (`chose to prioritize the webinar`), up to a new clause, a reason, a purpose or the
other side (`over`, `rather than`, `instead of`). A fact whose chosen option is named by its
cited messages, which choose only other things and nothing it names, is no fact.

A choice the message only asks about, plans, supposes or denies (`how do I prioritize`,
`should I pick`, `if I chose`, `didn't choose`) chooses nothing; one whose object is a pronoun
(`picked it`) chooses who knows what, and the fact is left alone. What it cannot tell: a
choice said without such a verb (`went with`, `settled on`), or an option named in other words.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from kit.curator.related import LIGHT, lemma_key, wordnet_or_none
from kit.curator.wording import fold, stem
from kit.dates.words import MONTHS, WEEKDAYS

_WORD = re.compile(r"\d[\d,.:]*\d|[a-z0-9][a-z0-9.'-]*[a-z0-9]|[a-z0-9]|[,;:!?()]|\.(?!\d)|—|–")
# The senses that anchor the concept: choosing among alternatives, and putting one first.
_ANCHORS = (("choose", 2), ("prioritize", 1))
_CHOOSING_TOPIC = 31  # WordNet's verb.cognition: deciding, choosing, judging
_UP = frozenset({"@", "@i"})
# Words that end what a verb chooses: a new clause, a reason, a purpose, a time or place, the
# other side of a preference; and punctuation.
_ENDS = frozenset(
    """over rather instead than because since as for to so but which who that when while
    where if in on at by with from during after before until though although since due
    i you he she we they it""".split()
) | frozenset(",;:!?().—–")
# A time said after the verb is when it chose, not what ("adopted last year", "chose in May").
_TIMES = frozenset(
    """last next yesterday today tonight tomorrow recently earlier later ago now then year
    years month months week weeks day days""".split()
).union(MONTHS, WEEKDAYS)
_LITTLE = frozenset("a an the my our your their his her its this that these those some".split())
_PRONOUNS = frozenset("it them one ones both either neither which what this that those".split())
# Before a verb in its clause, what makes it no choice made: a question, a supposition, a
# possibility or a denial.
_UNMADE = frozenset(
    """how should whether if can could would might may shall will must not no
    never don't didn't doesn't won't can't couldn't wouldn't shouldn't haven't hasn't cannot
    to""".split()
)
_CLAUSE = frozenset(",;:!?.—–") | frozenset("but and so because while".split())
_OBJECT = 6  # words an object may run to
_FACT_OBJECT = 4


@lru_cache(maxsize=1)
def _anchors() -> frozenset[int]:
    net = wordnet_or_none()
    if net is None:
        return frozenset()
    found = set()
    for lemma, count in _ANCHORS:
        for offset in net.senses("verb", lemma)[:count]:
            if net.topic("verb", offset) == _CHOOSING_TOPIC:
                found.add(offset)
    return frozenset(found)


@lru_cache(maxsize=65536)
def choosing(word: str) -> bool:
    """Whether a word is a form of a verb of choosing (module note)."""
    net = wordnet_or_none()
    anchors = _anchors()
    if net is None or not anchors:
        return False
    for part, lemma in net.lemmas(lemma_key(word)):
        if part != "verb":
            continue
        senses = net.senses(part, lemma)
        if len(senses) > LIGHT:
            continue
        for offset in senses[:1]:
            if offset in anchors:
                return True
            ups = {t for s, t, p, _, _ in net.synset(part, offset)[1] if s in _UP and p == part}
            if ups & anchors:
                return True
    return False


def _made(words: list[str], i: int) -> bool:
    """Whether the choosing verb at `i` is said as made: nothing in its clause before it asks,
    supposes or denies it."""
    k = i - 1
    while k >= 0 and words[k] not in _CLAUSE:
        if words[k] in _UNMADE or words[k].endswith("n't"):
            return False
        k -= 1
    return True


def _object(words: list[str], i: int, longest: int) -> list[str] | None:
    """What the choosing verb at `i` chooses: its object's words (determiners left out), []
    when it chooses no option it names (a pronoun, an act), None for nothing read."""
    j = i + 1
    if j < len(words) and words[j] in {"for", "out"}:
        j += 1  # "opted for", "picked out"
    if j + 1 < len(words) and words[j] == "to":
        if choosing(words[j + 1]):
            return _object(words, j + 1, longest)  # "chose to prioritize the webinar"
        return None  # "chose to leave": an act, not an option
    while j < len(words) and words[j] in _LITTLE:
        j += 1
    found: list[str] = []
    while j < len(words) and len(found) < longest and words[j] not in _ENDS | _TIMES:
        if words[j] in _PRONOUNS and not found:
            return []
        if words[j] not in _LITTLE and words[j] not in {"and", "or"}:
            found.append(words[j])
        j += 1
    return found or None


def _choices(text: str, longest: int) -> list[list[str]]:
    """What `text` says is chosen, one list of words per choice it says as made."""
    words = _WORD.findall(fold(text).lower())
    found = []
    for i, word in enumerate(words):
        if word.isalpha() and choosing(word) and _made(words, i):
            chosen = _object(words, i, longest)
            if chosen is not None:
                found.append(chosen)
    return found


def chosen_words(text: str) -> frozenset[str]:
    """The words of what `text` says was chosen, as made (`chose the second option`: second,
    option): an option chosen is no option only weighed."""
    return frozenset(w for c in _choices(text, _FACT_OBJECT) for w in c)


def _stems(words: Iterable[str]) -> frozenset[str]:
    return frozenset(stem(w) for w in words)


def unchosen(fact: str, cited: Iterable[str]) -> str | None:
    """The option `fact` says was chosen, where its cited messages name it and choose only
    other options, none of the fact's words; None when they say it or say no choice."""
    mine = _choices(fact, _FACT_OBJECT)
    if len(mine) != 1 or not mine[0]:
        return None
    texts = list(cited)
    said = [c for text in texts for c in _choices(text, _OBJECT)]
    if not said or any(not c for c in said):
        return None  # no choice said, or one of a pronoun: who knows what
    option = _stems(mine[0])
    named = _stems(w for text in texts for w in _WORD.findall(fold(text).lower()))
    if not option <= named or any(option & _stems(c) for c in said):
        return None
    return " ".join(mine[0])
