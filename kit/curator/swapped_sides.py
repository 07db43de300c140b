"""A preference whose two sides the fact turns round (issue 29, round 31E).

`I picked the sleeper train over the night bus` says the train was chosen; a fact `... picked
the night bus over the sleeper train` has every word of it, so the word-level guard stores it.
Here a fact that sets one thing against another (`A over B`, `A rather than B`, `A instead of
B`) is held against the cited messages' own such pairs: when one of them has a word of the
fact's B before its `over` and a word of the fact's A after it, and none has them the fact's
way round, the fact turns the preference round.

Only the words of the two sides that the other side does not share count (`series`, not
`the`). What it cannot tell: a preference said without such a word (`prioritize the webinar`
over a meeting named elsewhere), or sides said in other words than the fact's.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from kit.curator.wording import fold, stem

_AGAINST = re.compile(r"\b(?:over|rather than|instead of)\b")
_WORD = re.compile(r"[a-z0-9][a-z0-9'-]*")
# What ends a side: a reason, a new clause, a place or a time after it.
_ENDS = frozenset(
    """because since as for due so but and while which who that when where if to in on at
    by with""".split()
)
SIDE = 6  # words a side may run to, either way from its `over`
_LITTLE = frozenset("a an the my our your their his her its this that these those".split())


def _side(words: list[str]) -> frozenset[str]:
    side: list[str] = []
    for word in words[:SIDE]:
        if word in _ENDS:
            break
        if word not in _LITTLE:
            side.append(stem(word))
    return frozenset(side)


def _pairs(text: str) -> list[tuple[frozenset[str], frozenset[str]]]:
    """Each `A over B` of `text`, as the words of A (going back) and of B."""
    low = fold(text).lower()
    found = []
    for match in _AGAINST.finditer(low):
        before = _WORD.findall(low[: match.start()])
        after = _WORD.findall(low[match.end() :])
        found.append((_side(before[::-1]), _side(after)))
    return found


def turned_round(fact: str, cited: Iterable[str]) -> bool:
    """Whether the cited messages say the fact's preference only the other way round."""
    pairs = _pairs(fact)
    if len(pairs) != 1:
        return False
    chosen, other = pairs[0]
    chosen, other = chosen - other, other - chosen
    if not chosen or not other:
        return False
    said = [p for text in cited for p in _pairs(text)]
    same = any(a & chosen and b & other for a, b in said)
    reverse = any(a & other and b & chosen for a, b in said)
    return reverse and not same
