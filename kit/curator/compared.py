"""What a comparison takes as so, whatever the clause it compares with only plans or asks.

`thinking of joining an online discussion, like the one Wyatt organized`: the joining is a
plan, but `the one ... organized` says Wyatt organized such a discussion: the comparison says
again the words of the phrase it points back to, of whom it is about (not of the planner:
the owner organized nothing, joined nothing). So with `like <name> <verb>` (`using shared
boards for batching, like Laura suggested`: she suggested them). And `like <name>'s <phrase>`
inside a question (`ideas like Ana's paper craft session?`) gives the phrase: there was such
a session. Only a phrase: the verb a plan or a question opens (`joining`, `using`) is not said
again.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from kit.curator.wording import number_of, stem

if TYPE_CHECKING:  # kit/curator/clauses.py calls this module
    from kit.curator.clauses import Clause

_WORD = re.compile(r"[\w'-]+")
# A clause opening a comparison with something that happened: `like the one(s) ...`, or
# `like <Name> <verb>` (`like Laura suggested`, `like Sam did`); not `like Laura` alone (an
# example of a kind).
_POINTS_BACK = re.compile(
    r"^\W*(?:(?:kinda|kind of|sort of|just|much|a lot)\s+)?like\s+"
    r"(?:the\s+ones?\b|[A-Z][a-z]+\s+(?:[a-z]+ed|did|does|said|says|told|wrote|made|had)\b)"
)
# Where the phrase it points back to opens (after it) and ends (before it).
_OPENS = frozenset("a an some any the this that if whether about of".split())
_ENDS = frozenset(
    "to that which who and but so because when while is are was were will would can could".split()
)
_LONGEST = 8


def compared(folded: str, found: list[Clause]) -> list[Clause]:
    """`found` with what its comparisons point back to given (module note)."""
    marked = list(found)
    for i, clause in enumerate(found):
        text = folded[clause.start : clause.end]
        if clause.hedged:
            marked[i] = _with(marked[i], _named_thing(text))
        before = marked[i - 1] if i else None
        if before is None or not before.hedged or not _POINTS_BACK.match(text):
            continue
        if folded[before.end : clause.start].strip(" ,-"):
            continue  # not right after it
        # said of whom the comparison is about, not of the planner: it says the words again
        phrase = _trailing(folded[before.start : before.end])
        marked[i] = replace(
            marked[i],
            stems=marked[i].stems | {stem(w) for w in phrase},
            words=marked[i].words | {_key(w) for w in phrase},
        )
    return marked


def _with(clause: Clause, words: list[str]) -> Clause:
    if not words:
        return clause
    given = {stem(w) for w in words} | {n for w in words if (n := number_of(w)) is not None}
    return replace(clause, given=clause.given | given)


def _key(word: str) -> str:
    low = word.casefold().strip("'-")
    return low[:-2] if low.endswith("'s") else low


def _trailing(text: str) -> list[str]:
    """The phrase a clause ends on (`joining an online discussion`: `online discussion`), no
    verb in -ing first (`if using shared boards`: `shared boards`)."""
    words = _WORD.findall(text)
    start = max((k + 1 for k, w in enumerate(words) if w.lower() in _OPENS), default=0)
    phrase = words[start:]
    if phrase and phrase[0].lower().endswith("ing"):
        phrase = phrase[1:]
    ends = next((k for k, w in enumerate(phrase) if w.lower() in _ENDS), len(phrase))
    phrase = phrase[:ends]
    return phrase if 0 < len(phrase) <= _LONGEST else []


def _named_thing(text: str) -> list[str]:
    """The phrase after `like <Name>'s` in a clause (`ideas like Ana's paper craft session`)."""
    found: list[str] = []
    for match in re.finditer(r"\blike\s+[A-Z][a-z]+'s\s+", text):
        after = _WORD.findall(text[match.end() :])
        ends = next((k for k, w in enumerate(after) if w.lower() in _ENDS), len(after))
        found += after[: min(ends, _LONGEST)]
    return found
