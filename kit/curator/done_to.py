"""What someone else does to the speaker: a clause of another's ("Sam invited me to the party",
"who said something that really upset me", "They've been there for me, giving me love") that
names the speaker as its object, `me` or `us` (and the clauses that go on with it). It holds up
the owner's part in that act (`The owner declined Sam's invitation to the party`, `had an
upsetting encounter`): the owner is in it. Not `my` (`my sister moved to Porto` names the
owner only as whose the doer is), not another's clause without the owner in it (`Sam is
vegan`, nor one that only moves the speaker: `Michael's promotion makes me think`), and not
the other's act itself, the word right before `me`, given to the owner
(`Sam invited me` is no `The owner invited Sam`; `The owner was invited` is). Read by
kit/curator/grounding.py into each Source, held in kit/curator/judge.py."""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise

from kit.curator.clauses import Clause
from kit.curator.wording import stem, tokens

_ME = frozenset({"me", "us"})
# What only moves the speaker to think or feel: the clause says what someone else is or did
_CAUSING = frozenset("make makes made making let lets letting got gets".split())


def done_to_speaker(
    folded: str, cut: Sequence[Clause], capitalised: frozenset[str]
) -> tuple[tuple[int, frozenset[str]], ...]:
    """The starts of the clauses of someone else's act that name the speaker as its object,
    each with that act (the words right before `me`); `capitalised`: the message's
    capitalised words, folded ("the US" is no `us`)."""
    me = _ME - capitalised
    found: list[tuple[int, frozenset[str]]] = []
    acts: frozenset[str] | None = None
    for clause in cut:
        if clause.own_subject:
            acts = _acts(folded[clause.start : clause.end], me) if clause.words & me else None
        if acts and acts & _CAUSING:  # "Michael's promotion makes me think": no act on me
            acts = None
        if acts is None or clause.holder != "other" or clause.asks:
            acts = None
            continue
        found.append((clause.start, acts))
    return tuple(found)


def _acts(text: str, me: frozenset[str]) -> frozenset[str]:
    """The act done to the speaker (the word right before `me`), and, as `-`-marked stems, the
    words before it: the doer's ("Michael's promotion to HR lead makes me think")."""
    words = [t.group().lower() for t in tokens(text)]
    at = next((i for i, w in enumerate(words) if w in me), 0)
    acts = {w for w, nxt in pairwise(words) if nxt in me}
    return frozenset(acts | {f"-{stem(w)}" for w in words[: max(at - 1, 0)]})


def received(fact: str) -> frozenset[str]:
    """The words a fact says as done to its subject ("was invited", "got promoted")."""
    return frozenset(m.group(1).lower() for m in _PASSIVE.finditer(fact))


_PASSIVE = re.compile(r"\b(?:was|were|been|being|is|are|got|gets|get|getting)\s+(\w+)", re.I)


def part_in(
    done_to: tuple[tuple[int, frozenset[str]], ...], start: int, word: str, passive: frozenset[str]
) -> bool:
    """Whether the clause at `start` is another's act done to the speaker (`done_to`, from
    done_to_speaker) that holds up a fact's `word`: not the act itself, unless the fact says it
    as done to its subject (`passive`: received)."""
    acts = dict(done_to).get(start)
    low = word.lower()
    if acts is None or f"-{stem(word)}" in acts:  # the doer's words, not the owner's
        return False
    return low not in acts or low in passive
