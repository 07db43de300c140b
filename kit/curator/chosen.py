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

A choice said with a particle (round 34B): a verb with any sense, however rare, one step below
such a sense or a sense of `decide` (WordNet's `plump, go`: "make a choice of one out of a
group"; `decide, settle, resolve`), in a form that says it done or going on (not `I'll go
with`: a promise or a leaning, beside which the option taken is often said another way,
`I'll try ...`), chooses what follows `with`, `for`, `on` or `upon` after it (`went with the
train`, `settled on Leeds`, `decided on the blue one`); a light verb's
rare sense never counts alone (`go to Leeds`), and a sense of choosing itself is not enough
(`take on a project`). And the shape `X it is` (`the train it is!`): a sentence that is only a
name or a thing and `it is` chooses that.

A choice the message only asks about, plans, supposes or denies (`how do I prioritize`,
`should I pick`, `if I chose`, `didn't choose`) chooses nothing; one whose object is a pronoun
(`picked it`) chooses who knows what, and the fact is left alone. What it cannot tell: a
choice said by a verb WordNet gives no such sense (`ended up with`, a result, not a choice),
or an option named in other words.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from kit.curator.related import LIGHT, lemma_key, verb_ups, wordnet_or_none
from kit.curator.wording import fold, stem
from kit.dates.words import MONTHS, WEEKDAYS

_WORD = re.compile(r"\d[\d,.:]*\d|[a-z0-9][a-z0-9.'-]*[a-z0-9]|[a-z0-9]|[,;:!?()]|\.(?!\d)|—|–")
# The senses that anchor the concept: choosing among alternatives, and putting one first.
_ANCHORS = (("choose", 2), ("prioritize", 1))
_DECIDING = "decide"  # its senses of verb.cognition: what a particle after it settles on
_PARTICLES = frozenset({"with", "for", "on", "upon"})
_CHOOSING_TOPIC = 31  # WordNet's verb.cognition: deciding, choosing, judging
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
            if anchors.intersection(verb_ups(net, offset)):
                return True
    return False


@lru_cache(maxsize=1)
def _deciding() -> frozenset[int]:
    net = wordnet_or_none()
    if net is None:
        return frozenset()
    senses = net.senses("verb", _DECIDING)
    return frozenset(o for o in senses if net.topic("verb", o) == _CHOOSING_TOPIC)


@lru_cache(maxsize=65536)
def choosing_through(word: str) -> bool:
    """Whether a word is a form of a verb that chooses through a particle after it: one with
    a sense one step below a sense of choosing, or a sense of deciding (module note)."""
    net = wordnet_or_none()
    anchors = _anchors()
    if net is None or not anchors:
        return False
    deciding = _deciding()
    for part, lemma in net.lemmas(lemma_key(word)):
        if part != "verb":
            continue
        for offset in net.senses(part, lemma):
            if offset in deciding:
                return True
            if anchors.intersection(verb_ups(net, offset)):
                return True
    return False


def _settled(word: str) -> bool:
    """A verb choosing through a particle, said as a choice made, not its bare form: `went
    with`, `settled on`, `going with`; not `I'll go for` or `I'd go with`, a promise or a
    leaning, beside which the option taken is often said another way (`I'll try ...`)."""
    net = wordnet_or_none()
    bare = net is not None and ("verb", word) in net.lemmas(word)
    return not bare and choosing_through(word)


def _made(words: list[str], i: int) -> bool:
    """Whether the choosing verb at `i` is said as made: nothing in its clause before it asks,
    supposes or denies it."""
    k = i - 1
    while k >= 0 and words[k] not in _CLAUSE:
        if words[k] in _UNMADE or words[k].endswith("n't"):
            return False
        k -= 1
    return True


def _object(words: list[str], i: int, longest: int, particle: bool = False) -> list[str] | None:
    """What the choosing verb at `i` chooses: its object's words (determiners left out), []
    when it chooses no option it names (a pronoun, an act), None for nothing read;
    `particle`: chosen through the particle after it (`went with`)."""
    j = i + 1
    if j < len(words) and (words[j] in {"for", "out"} or particle):
        j += 1  # "opted for", "picked out", "settled on"
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
        if not word.isalpha() or not _made(words, i):
            continue
        chosen = None
        if choosing(word):
            chosen = _object(words, i, longest)
        elif words[i + 1 : i + 2] and words[i + 1] in _PARTICLES and _settled(word):
            chosen = _object(words, i, longest, particle=True)
        if chosen is not None:
            found.append(chosen)
    return found + _it_is(words, longest)


def _it_is(words: list[str], longest: int) -> list[list[str]]:
    """The choices said as `X it is` (`bus or train? okay, the train it is!`): a sentence,
    after its last comma (a word of assent before it), that is only what it names and `it
    is`, where what it names was named before it (one of the options weighed)."""
    found = []
    start = 0
    for i, word in enumerate(words):
        if word in _SENTENCE_ENDS or word == ",":
            start = i + 1
        if word != "is" or i < 2 or words[i - 1] != "it" or not _ending(words, i + 1):
            continue
        named = [w for w in words[start : i - 1] if w not in _LITTLE]
        if not 0 < len(named) <= longest or any(_not_named(w) for w in named):
            continue
        if _stems(named) <= _stems(words[:start]):
            found.append(named)
    return found


_SENTENCE_ENDS = frozenset(".!?;:—–")
_AFTER_IT_IS = _SENTENCE_ENDS | {","}  # "Sunday it is, then."


def _ending(words: list[str], j: int) -> bool:
    return j >= len(words) or words[j] in _AFTER_IT_IS


def _not_named(word: str) -> bool:
    """A word that names no option: a pronoun, a question word, a verb's form."""
    return (
        word in _PRONOUNS
        or word in _UNMADE
        or word == "i"
        or word.startswith(("wh", "how"))
        or (word.endswith(("'s", "'re", "n't", "'m")))
    )


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
