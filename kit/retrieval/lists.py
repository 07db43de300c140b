"""Questions that ask for many things: "what are all…", "how many times…", "which cities has…".

Their answers are spread over many turns, usually said on different days (one trip in May,
another in August), and the best-ranked turns of such a question tend to crowd one sitting
that talks about the thing at length. Search spreads them over days
(`RankingParams.list_spread`, kit/retrieval/ranking.py), so the same places hold more of the
items asked for.
"""

from __future__ import annotations

import re

_MANY = re.compile(
    r"\bhow many\b|\blist\b|\ball (?:the|of)\b|\bwhat are (?:some|all)\b"
    r"|\b(?:kinds|types|sorts) of\b|\b(?:what|which) \w+s (?:has|have|did|does|do|are|were)\b",
    re.IGNORECASE,
)


def asks_for_many(text: str) -> bool:
    """Whether the question asks for several things (a list, a count)."""
    return _MANY.search(text) is not None
