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
from collections.abc import Sequence
from dataclasses import dataclass, replace

from kit.curator.wording import number_of, stem

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


@dataclass(frozen=True)
class Compared:
    """What one clause gains: stems given whatever its hedge, and stems and words said again."""

    given: frozenset[str] = frozenset()
    stems: frozenset[str] = frozenset()
    words: frozenset[str] = frozenset()


def compared(folded: str, found: Sequence[tuple[int, int, bool]]) -> list[Compared]:
    """For each clause of `found` (its start, end and whether it is hedged), what the
    comparisons in it or after it give it (module note)."""
    marked: list[Compared] = []
    for i, (start, end, hedged) in enumerate(found):
        text = folded[start:end]
        gained = Compared(given=_given(_named_thing(text)) if hedged else frozenset())
        before = found[i - 1] if i else None
        if before is not None and before[2] and _POINTS_BACK.match(text):
            if not folded[before[1] : start].strip(" ,-"):  # right after it
                # said of whom the comparison is about, not of the planner: said again
                phrase = _trailing(folded[before[0] : before[1]])
                gained = replace(
                    gained,
                    stems=frozenset(stem(w) for w in phrase),
                    words=frozenset(_key(w) for w in phrase),
                )
        if not hedged and (phrase := _one_of(folded, found, i)):  # "never attended one"
            gained = replace(
                gained,
                stems=gained.stems | {stem(w) for w in phrase},
                words=gained.words | {_key(w) for w in phrase},
            )
        marked.append(gained)
    return marked


# `one` standing for a thing named before ("a visa interview ... I've never attended one"):
# after a verb, with no noun after it.
_ONE = re.compile(
    r"\b(?!the\b|this\b|that\b|which\b|each\b|every\b|no\b|any\b|only\b|another\b|"
    r"a\b|last\b|first\b)[a-z]+\s+one\b(?=\s*(?:$|[,.!?;]|before\b|yet\b|too\b|"
    r"already\b|ever\b|again\b|myself\b|now\b|since\b))",
    re.IGNORECASE,
)
_A = frozenset({"a", "an"})


def _one_of(folded: str, found: Sequence[tuple[int, int, bool]], i: int) -> list[str]:
    """The phrase `one` stands for in clause `i` (the last `a <phrase>` of the two clauses
    before it), or none."""
    start, end, _ = found[i]
    if not _ONE.search(folded[start:end]):
        return []
    for before_start, before_end, _ in reversed(found[max(0, i - 2) : i]):
        words = _WORD.findall(folded[before_start:before_end])
        opens = [k for k, w in enumerate(words) if w.lower() in _A]
        if opens:
            phrase = words[opens[-1] + 1 :]
            ends = next((k for k, w in enumerate(phrase) if w.lower() in _ENDS), len(phrase))
            return phrase[: min(ends, 4)]
    return []


def _given(words: list[str]) -> frozenset[str]:
    stems = {stem(w) for w in words}
    return frozenset(stems | {n for w in words if (n := number_of(w)) is not None})


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
