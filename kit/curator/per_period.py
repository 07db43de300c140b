"""An amount's period: a total is not a rate (issue 29, round 32F).

`a contract for $3,500 over 3 months` does not say "the contract pays $3,500 a month": the
amount is in the message and the message says "monthly" of other amounts, so neither the
word-level guard nor how_often.py kept the fact out. Here an amount (`$`, `£`, `€`) a fact
says at a rate (`a month`, `per year`, `/week`, `monthly`, `each day`, or a `monthly` /
`annual` before it) is held against how its cited messages say that amount: said as a total
(`over 3 months`, `across two years`, `for six weeks`, `in total`, `altogether`, `a total of`)
and never at the fact's rate, it is no fact. An amount said with no period at all is left
alone (`my rent is $1,100` holds up `$1,100 a month in rent`: a curator may know the custom).

What it cannot tell: a rate worked out from a total (`$3,000 over 3 months` is `$1,000 a
month`, which the guard holds unsaid anyway), or an amount in words (`three grand`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from kit.curator.period_units import UNITS, a, each, words
from kit.curator.wording import fold, number_of

_AMOUNT = re.compile(r"[$£€]\s?\d[\d,]*(?:\.\d+)?k?")
_NEAR = 40  # characters after an amount its rate or its span may be said in
_COUNT = r"(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|few|several)"
# Right after the amount: "$600 a month", "$600 per month", "$600/mo", "$600 monthly" (not
# "$600 month of ..." nor "$600 month and ...": a noun the amount is of)
_RATES = {
    unit: re.compile(
        rf"^\s*(?:{a(unit)}|{each(unit, describing=True)}"
        rf"|(?:{words(unit, describing=True)})\b(?!\s+(?:of|and)\b))",
        re.I,
    )
    for unit in UNITS
}
# A describing word of the period before the amount: "a monthly rent of $600", "annual $90 fee"
_BEFORE = {
    unit: re.compile(
        rf"\b(?:{words(unit, describing=True)})\b(?:\s+[a-z]+){{0,3}}\s+(?:of\s+)?$", re.I
    )
    for unit in UNITS
}
_PERIOD = rf"(?:(?:{'|'.join(UNITS)}|semester|term|quarter)s?)"  # a span's unit
# Said as a total: "over 3 months", "for the next six weeks", "in total"
_TOTAL_AFTER = re.compile(
    rf"^[^.;!?$£€]{{0,{_NEAR}}}?\b(?:(?:over|across|for|spread over)\s+(?:the\s+)?"
    rf"(?:next\s+|first\s+|last\s+|coming\s+)?{_COUNT}\s+{_PERIOD}\b"
    r"|in\s+total\b|total\b|altogether\b|in\s+all\b)",
    re.I,
)
_TOTAL_BEFORE = re.compile(r"\b(?:total|totaling|totalling|overall|altogether)\s+(?:of\s+)?$", re.I)


def _amounts(text: str) -> list[tuple[str, int, int]]:
    """Each amount of `text` (folded) as its value, where it starts and where it ends."""
    found = []
    for match in _AMOUNT.finditer(text):
        value = number_of(match.group().replace(" ", ""))
        if value is not None:
            found.append((value, match.start(), match.end()))
    return found


def _units(text: str, start: int, end: int) -> frozenset[str]:
    """The periods an amount at `start`..`end` is said at: right after it, or a describing
    word before it."""
    after, before = text[end : end + _NEAR], text[max(0, start - _NEAR) : start]
    return frozenset(
        unit for unit in UNITS if _RATES[unit].search(after) or _BEFORE[unit].search(before)
    )


def _total(text: str, start: int, end: int) -> bool:
    """Whether the amount at `start`..`end` is said as a total over a span, not a rate."""
    after = text[end : end + _NEAR + 20]
    before = text[max(0, start - 20) : start]
    return bool(_TOTAL_AFTER.search(after) or _TOTAL_BEFORE.search(before))


def unsaid_rate(fact: str, cited: Iterable[str]) -> str | None:
    """An amount `fact` says at a rate that its cited messages say only as a total (module
    note), or None."""
    folded = fold(fact)
    texts = [fold(t) for t in cited]
    for value, start, end in _amounts(folded):
        units = _units(folded, start, end)
        if not units:
            continue
        said = [(t, s, e) for t in texts for v, s, e in _amounts(t) if v == value]
        if not said or any(_units(t, s, e) & units for t, s, e in said):
            continue
        if all(_total(t, s, e) for t, s, e in said):
            return folded[start:end]
    return None
