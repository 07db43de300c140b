"""Where a hedge reaches less far than its word (kit/curator/clauses.py reads it; grounding
round 16B):

- **A goal, a plan or a dream named as a thing hedges nothing**: `I'm on track to meet my goal`,
  `I can manage with this plan`, `to align with the employer's engagement goals` (the noun
  ends its clause, after `my`, `the`, `this`, ... or a name's `'s`) say what is so; `my goal
  is to ...`, `this goal to reduce ...`, `my savings goal by June`, `my dream of ...` (what it
  aims at follows) stay hedged, and so does `I want to reach my goal` (by its `want`).
- **A doubt whether a past act was right takes the act as done**: in `wondering if choosing
  Leslie's event over the April 15 session was the right call`, the choosing is said; whether
  it was right stays in doubt, and `is the right decision` (present) is still being weighed.

What it cannot tell: a goal named as a thing whose content an earlier sentence gave (`I set a
goal to run 10k. I'm close to my goal`), and an act a doubt takes as done in other words
(`wondering if I was wise to ...`).
"""

from __future__ import annotations

import itertools
import re

# A goal, a plan or a dream named as a thing, ending its clause ("I'm on track to meet my
# goal", "I can manage with this plan") hedges nothing; one followed by what it aims at ("my
# goal is to ...", "this goal to reduce ...", "my goal by June", "my dream of ...") does.
_AIMS = frozenset("goal goals plan plans dream dreams".split())
_OWNS = frozenset("my our your his her their its the this that these those a an".split())


def named_aim(lowered: list[str], i: int) -> bool:
    """Whether the word at `i` of a clause's `lowered` words is a goal, a plan or a dream named
    as a thing (module note)."""
    if lowered[i] not in _AIMS:
        return False
    before = lowered[max(0, i - 4) : i]
    owned = any(w in _OWNS or w.endswith("'s") for w in before)
    return owned and i == len(lowered) - 1  # nothing of what it aims at follows


# "wondering if choosing Leslie's event over the April 15 session was the right call": the
# choice was made; only whether it was right is in doubt (a past "was": "is the right
# decision" is still being weighed).
_RIGHT_CALL = re.compile(
    r"\b(?:wondering|wonder|not sure|unsure|doubting|questioning)\s+(?:if|whether)\s+"
    r"(?P<act>.+?)\s+(?:was|were)\s+(?:really\s+|actually\s+)?(?:the\s+)?(?:right|best|wise|"
    r"smart|correct)\s+(?:call|choice|decision|move|option|path|approach|thing to do)\b",
    re.IGNORECASE,
)


def right_call(sentence: str, offset: int) -> tuple[int, int] | None:
    """Where the act a doubt takes as done is said in `sentence` (`_RIGHT_CALL`), if any."""
    found = _RIGHT_CALL.search(sentence)
    return (offset + found.start("act"), offset + found.end("act")) if found else None


def cut_around(parts: list[tuple[int, int]], span: tuple[int, int]) -> list[tuple[int, int]]:
    """`parts` with a clause boundary at each end of `span`."""
    pieces = []
    for start, end in parts:
        inner = sorted({start, end, *(p for p in span if start < p < end)})
        pieces.extend(itertools.pairwise(inner))
    return pieces
