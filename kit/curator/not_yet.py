"""A denial of the past beside a plan denies only the past (issue 29, round 30B).

`I've never tried borrowing e-books, but I want to` says the speaker has not borrowed one yet
and wants to: a fact that says the plan (`plans to borrow e-books`) rests on it, though the
clause that names the doing is a denial. A clause whose only negation is a perfect `never`
of the speaker's (`I've never tried`, `we have never done`) is read as a plan (hedged, not
denied) for such a fact, when the same message says a plan or a wish of the speaker's
(`I'll`, `I want to`, `I'd love to`, kit/curator/planned.py's forms). A fact that says the
doing as done (`has borrowed e-books`) or denies it (`has never borrowed`) reads the denial
as before; so does a plan fact where the message plans nothing.
Deterministic; no model.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence

from kit.curator.judge import Source
from kit.curator.planned import plans, speakers_plan
from kit.curator.wording import NEGATIONS, fold

_PAST_NEVER = re.compile(r"\b(?:i|we)(?:'ve| have) never\b")
_WORD = re.compile(r"[a-z][a-z'-]*")


def not_yet(fact: str, sources: Sequence[Source], texts: Sequence[str]) -> list[Source]:
    """`sources` (the cited messages, `texts` theirs in the same order) with each clause that
    denies only the speaker's past read as a plan, when `fact` says a plan (module note)."""
    folded_fact = fold(fact).lower()
    if not plans(folded_fact) or _denies(folded_fact):
        return list(sources)
    read = []
    for source, text in zip(sources, texts, strict=False):
        folded = fold(text).lower()
        if not speakers_plan(folded):
            read.append(source)
            continue
        clauses = tuple(
            dataclasses.replace(c, negated=False, hedged=True)
            if c.negated and _past_only(folded[c.start : c.end])
            else c
            for c in source.clauses
        )
        read.append(dataclasses.replace(source, clauses=clauses))
    return read + list(sources[len(read) :])


def _denies(text: str) -> bool:
    return any(w in NEGATIONS or w.endswith("n't") for w in _WORD.findall(text))


def _past_only(clause: str) -> bool:
    """Whether a clause's only negation is the speaker's perfect `never` (`I've never tried`)."""
    if not _PAST_NEVER.search(clause):
        return False
    return not _denies(_PAST_NEVER.sub(" ", clause))
