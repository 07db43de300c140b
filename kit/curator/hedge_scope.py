"""Where a hedge reaches less far than its word (kit/curator/clauses.py reads it; grounding
round 16B):

- **A doubt whether a past act was right takes the act as done**: in `wondering if choosing
  Leslie's event over the April 15 session was the right call`, the choosing is said; whether
  it was right stays in doubt, and `is the right decision` (present) is still being weighed.

What it cannot tell: an act a doubt takes as done in other words (`wondering if I was wise to
...`), or in an earlier sentence (`that was the right call`).
"""

from __future__ import annotations

import itertools
import re

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
    pieces: list[tuple[int, int]] = []
    for start, end in parts:
        inner = sorted({start, end, *(p for p in span if start < p < end)})
        pieces.extend(itertools.pairwise(inner))
    return pieces
