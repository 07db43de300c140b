"""A plan stated as a plan is said (issue 29, round 27A).

"I'll ask around to see if anyone I know wants to help" is a hedged clause to the word-level
guard (kit/curator/clauses.py reads its `if` as a supposition over the whole clause), so "John
will ask around for volunteers" found `ask` said only in a question, a wish, a plan or an 'if'
and was dropped. A fact that itself says the plan (`will`, `'ll`, `is going to`, `plans to`)
rests on a clause in which the speaker says the same plan (`I'll`, `we will`, `I'm going to`,
`let's`), when nothing else hedges it: no wish, doubt or question (`I'd love to ...`, `Should
I ...?`, `I'll think about ...`), and an `if` or `whether` only as what is found out (`to see
if`, `check with my landlord if`), never a condition (`I'll buy the sofa if the price drops`).
Such a clause holds up the fact's words as a fact's, when the fact's plan is the speaker's:
its subject (the words before `will`) names the owner or the cited message's speaker, not
someone the plan finds out about (`Ana will move to Porto` from `I'll see if Ana is moving to
Porto`), and a capitalised `Will` is a name. A fact that says the act as done is not
helped (kit/curator/intended.py keeps it out); a denial stays a denial (`I won't ...`).
Deterministic; no model.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence

from kit.curator.clause_words import word_key
from kit.curator.source import Source
from kit.curator.wording import HEDGES, fold

_IN_FACT = re.compile(
    r"\b(?:will|'ll|shall|(?:is|are|am) (?:going to|gonna)|plans? (?:to|on)|planning (?:to|on))\b"
)  # lower case: "Will is moving" names Will
_OWNER = frozenset({"owner", "user"})  # word_key: "owner's" too
# The speaker's own plan in a message.
_SPEAKERS = re.compile(
    r"\b(?:(?:i|we)(?:'ll| will| shall|'m going to| am going to|'re going to| are going to"
    r"|'m gonna|'re gonna| plan to| plan on|'m planning to|'re planning to)|let's)\b"
)
# What the plan may find out: "to see if", "check with my landlord whether".
_FOUND_OUT = re.compile(
    r"\b(?:see|check|ask|find out|figure out|know|learn|hear)(?: [\w'$-]+){0,3}? (?:if|whether)\b"
)
_PLAN_WORDS = re.compile(r"\bplan(?:ning)? (?:to|on)\b")
_WORD = re.compile(r"[a-z][a-z'-]*")


def as_planned(fact: str, sources: Sequence[Source], texts: Sequence[str]) -> list[Source]:
    """`sources` (the cited messages, `texts` theirs in the same order) with each clause that
    says the speaker's plan read as said, when `fact` says a plan itself (module note)."""
    plan = _IN_FACT.search(fold(fact))
    if plan is None:
        return list(sources)
    subject = {word_key(w) for w in _WORD.findall(fold(fact)[: plan.start()].lower())}
    read = []
    for source, text in zip(sources, texts, strict=False):
        if not (source.names & subject or (source.owner and _OWNER & subject)):
            read.append(source)  # someone else's plan, or what the speaker's plan finds out
            continue
        folded = fold(text).lower()
        clauses = tuple(
            dataclasses.replace(c, hedged=False, supposed=False)
            if c.hedged and not c.asks and _plan_only(folded[c.start : c.end])
            else c
            for c in source.clauses
        )
        read.append(dataclasses.replace(source, clauses=clauses))
    return read + list(sources[len(read) :])


def _plan_only(clause: str) -> bool:
    """Whether `clause` says the speaker's plan and nothing else hedges it."""
    if not _SPEAKERS.search(clause):
        return False
    rest = _PLAN_WORDS.sub(" ", _FOUND_OUT.sub(" ", clause))
    words = _WORD.findall(rest)
    return not any(w in HEDGES or w.endswith("'d") for w in words)
