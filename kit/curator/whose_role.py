"""Whose role: a person word set next to a name is that person's (issue 29, round 28A).

"which attorney Stephanie confirmed" says Stephanie is an attorney; "Stephanie, the owner's
accountant, confirmed ..." gives her another role, with every other word there, and the
word-level guard weighs "accountant" as one soft word among many, so it was stored. A person
word (kit/curator/persons.py: "attorney", "accountant", "landlady") is bound to a name when it
stands right before it, with at most a describing word or two between its determiner and it
("my new attorney Diana"), or right after it in an apposition ("Stephanie, my attorney,").
A fact that binds a name to a person word its cited messages bind to another, and never to
that one, is no fact. Kin words ("sister", "cousin") are the word-level guard's (kin).

What it cannot tell: a role said in a clause of its own ("Diana, who is an attorney"), or
said in other words ("my lawyer" for "attorney" is another word, so such a fact is dropped
only when the message binds the name to a word that is no form of the fact's).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from kit.curator.clause_words import PEOPLE, word_key
from kit.curator.persons import person
from kit.curator.related import family
from kit.curator.wording import fold, stem

_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*|[,.;:!?]")
_DETERMINERS = frozenset("my our his her their the a an owner's user's".split())
_BETWEEN = 2  # describing words between a determiner and the person word ("my new | attorney")


def roles(text: str) -> dict[str, set[str]]:
    """Each name in `text` a person word is bound to -> those words, lower-cased."""
    words = _WORD.findall(fold(text))
    bound: dict[str, set[str]] = {}
    for n, word in enumerate(words):
        if not _role_word(word):
            continue
        after = words[n + 1] if n + 1 < len(words) else ""
        if _name(after):  # "attorney Stephanie"
            bound.setdefault(word_key(after), set()).add(word.lower())
        name = _apposed(words, n)
        if name:  # "Stephanie, my attorney,"
            bound.setdefault(word_key(name), set()).add(word.lower())
    return bound


def misroled(fact: str, cited: Iterable[str]) -> str | None:
    """Why `fact` gives a name another role than its cited messages do, or None."""
    said: dict[str, set[str]] = {}
    for text in cited:
        for name, words in roles(text).items():
            said.setdefault(name, set()).update(words)
    for name, words in roles(fact).items():
        theirs = said.get(name)
        if not theirs:
            continue
        for word in sorted(words):
            if not any(_same(word, other) for other in theirs):
                return (
                    f"it calls {name.capitalize()} '{word}', and its cited messages call them "
                    f"'{sorted(theirs)[0]}'"
                )
    return None


def _role_word(word: str) -> bool:
    low = word.lower()
    return low.isalpha() and word.islower() and stem(low) not in PEOPLE and person(low)


def _name(word: str) -> bool:
    return word[:1].isupper() and word[1:].islower() and word.removesuffix("'s").isalpha()


def _apposed(words: list[str], n: int) -> str | None:
    """The name an apposition ending in the person word at `n` follows: "Name , det (adj)
    word ,"."""
    j = n - 1
    while j >= 0 and n - j <= _BETWEEN and words[j].islower() and words[j] not in _DETERMINERS:
        j -= 1
    if j < 0 or words[j].lower() not in _DETERMINERS:
        return None
    if j >= 1 and words[j] in ("owner's", "user's") and words[j - 1].lower() == "the":
        j -= 1  # "Stephanie, the owner's accountant,"
    if j >= 2 and words[j - 1] == "," and _name(words[j - 2]):
        following = words[n + 1] if n + 1 < len(words) else ""
        return words[j - 2] if following in (",", ".", ";", "") else None
    return None


def _same(word: str, other: str) -> bool:
    return stem(word) == stem(other) or stem(other) in {stem(f) for f in family(word)}
