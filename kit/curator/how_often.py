"""How often: a fact's "daily" is not a message's "weekly" (issue 29, round 28A).

A frequency is a hard part, as a number is: "we agreed on weekly video calls" does not say
"daily video calls", "I volunteer once a month" does not say "every week", and "saving $50
weekly" does not say "$50 a month". The word-level guard weighs "daily" as one soft word among
many and the meaning check finds the sentences close, so such a fact was stored. Here each
text's frequencies are read by their unit (day, week, month, year, as
kit/curator/period_units.py reads them): `daily`, `every day`, `each day`, `per day`, `/day`,
and `a day` after a number, an amount or `once` / `twice` / `times` ("$600 a month", "3 times
a week"; not "a week ago", "in a month"). A fact that says a unit its cited messages do not,
where they say how often in another unit, is no fact.

What it cannot tell: a frequency said as an interval ("every two weeks", "fortnightly"), on a
weekday ("every Sunday"), or one the messages never say at all (a generalisation: "every
month" from "this month", which the guard cannot catch, module note of grounding.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from kit.curator.period_units import OFTEN, UNITS, a, each
from kit.curator.wording import fold

_NUMBER = r"(?:[$£€]?\d[\d,.]*k?|once|twice|times|hours?|minutes?|mins?)"
_PATTERNS = {
    unit: re.compile(rf"\b(?:{OFTEN[unit]})\b|{each(unit)}|\b{_NUMBER} {a(unit)}", re.I)
    for unit in UNITS
}


def units(text: str) -> frozenset[str]:
    """The units of how often `text` says something happens ("day", "week", ...)."""
    folded = fold(text)
    return frozenset(unit for unit, pattern in _PATTERNS.items() if pattern.search(folded))


def unsaid_frequency(fact: str, support: Iterable[str]) -> str | None:
    """How often `fact` says something happens, where its support says how often only in
    another unit (the fact's words for it), or None."""
    said = frozenset().union(*(units(text) for text in support))
    if not said:
        return None  # the messages say no frequency: nothing to hold it against
    for unit in sorted(units(fact) - said):
        found = _PATTERNS[unit].search(fold(fact))
        if found is not None:
            return found.group()
    return None
