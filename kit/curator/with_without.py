"""`with` against `without`: a fact that turns round the one word its messages say a thing
is had or done with (issue 29).

`Always format code snippets with syntax highlighting` does not say "the owner wants code
snippets without syntax highlighting": every word of the fact is in the message but the one
that turns it round, so the word-level guard stored it. Here each `without <phrase>` of a fact
(its content words up to a clause's end, an article skipped) is held against its cited
messages: where they say the phrase after `with` and never after `without` or `with no`, the
fact says the opposite; and a fact's `with <phrase>` that its messages say only after
`without` or `with no`. What it cannot tell: the same thing said in other words on either
side (`minus`, `lacking`, `free of`), which the other readings are left to. Deterministic.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from kit.curator.wording import STOP, fold, stem

_WORD = re.compile(r"[a-z0-9][a-z0-9'-]*|[,;:.!?()]")
_PHRASE = 3  # content words of a phrase after `with` / `without`
_REACH = 5  # words after the message's `with` its phrase may stand in
_SKIP = frozenset("a an the any some my our your their his her its all".split())
_ENDS = frozenset(",;:.!?()") | frozenset("and or but so because when while which that".split())


def _words(text: str) -> list[str]:
    return _WORD.findall(fold(text).lower())


def _phrase(words: list[str], start: int) -> tuple[str, ...]:
    """The content words (stems) of the phrase after `with` or `without` at `start`."""
    found: list[str] = []
    for word in words[start + 1 :]:
        if word in _ENDS or len(found) == _PHRASE:
            break
        if word in _SKIP:
            continue
        if word in STOP:
            break
        found.append(stem(word))
    return tuple(found)


def _said(words: list[str], phrase: tuple[str, ...]) -> tuple[bool, bool]:
    """Whether `words` say `phrase` after `with` (had) and after `without` / `with no` (lacked)."""
    had = lacked = False
    for n, word in enumerate(words):
        if word not in ("with", "without"):
            continue
        after = words[n + 1 : n + 1 + _REACH]
        stems = [stem(w) for w in after]
        if not all(p in stems for p in phrase):
            continue
        if word == "without" or after[:1] == ["no"]:
            lacked = True
        else:
            had = True
    return had, lacked


def turned_with(fact: str, cited: Iterable[str]) -> str | None:
    """The phrase `fact` says with `without` where its messages say it only with `with` (or
    the other way round), or None."""
    words = _words(fact)
    said = [_words(text) for text in cited]
    for n, word in enumerate(words):
        if word not in ("with", "without"):
            continue
        with_no = words[n + 1 : n + 2] == ["no"]
        phrase = _phrase(words, n + 1 if with_no else n)
        if not phrase:
            continue
        lacking = word == "without" or with_no
        had = lacked = False
        for message in said:
            h, lack = _said(message, phrase)
            had, lacked = had or h, lacked or lack
        if (had and not lacked) if lacking else (lacked and not had):
            return " ".join(words[n : n + 1 + len(phrase)])
    return None
