"""A hyphenated word of a fact said by its parts (kit/curator/judge.py): "six-week" by "a 6-week
course" (the message's "6-week" is two words to the guard, "6" and "week"), "dining-out" by
"dining out". Each part must be said in one clause: a number part as that number ("eight-week"
is not said by "6-week"), a word part in its stem's forms; the little words ("out", "a") are
left out."""

from __future__ import annotations

import re

from kit.curator.clauses import Clause
from kit.curator.wording import STOP, number_of, same, stem


def parts_said(word: str, clause: Clause) -> bool:
    """Whether `clause` says each part of the hyphenated `word` (module note)."""
    parts = [p for p in _HYPHEN.split(word) if p and p.lower() not in STOP]
    if _HYPHEN.search(word) is None or not parts:
        return False
    return all(_part_said(p, clause) for p in parts)


def _part_said(part: str, clause: Clause) -> bool:
    number = number_of(part)
    if number is not None:
        return number in clause.numbers
    return any(same(stem(part), s) for s in clause.stems)


_HYPHEN = re.compile(r"[-–—]")
