"""The units of a period, as English says a rate or a frequency in them (issue 29): one
reading for how_often.py (`daily` is not `weekly`) and per_period.py (`$600 a month` is not
`$600 over 3 months`).

A unit is said by its noun (`month`), its word of how often (`monthly`, `annually`), its short
form after a number or a slash (`/mo`, `/yr`) and, before an amount, a describing word
(`an annual fee`). `every` / `each` / `per` a unit and a slash before one say "in each unit";
`a month` does only after a count or an amount (`3 times a month`, `$600 a month`; not `in a
month`), which each module reads where it stands.
"""

from __future__ import annotations

UNITS = ("day", "week", "month", "year")
# Its word of how often: "we talk weekly", "paid annually"
OFTEN = {"day": "daily", "week": "weekly", "month": "monthly", "year": "annually|yearly"}
_SHORT = {"day": "", "week": "wk", "month": "mo", "year": "yr"}
# A describing word that says no frequency alone ("an annual review" is no habit), but a
# rate before an amount ("an annual $90 fee")
_DESCRIBING = {"year": "annual"}


def words(unit: str, describing: bool = False) -> str:
    """A unit's words as a pattern's alternatives: `month|monthly|mo`; with `describing`,
    its describing word too (`year|annually|yearly|yr|annual`)."""
    found = [unit, OFTEN[unit], _SHORT[unit], _DESCRIBING.get(unit, "") if describing else ""]
    return "|".join(w for w in found if w)


def each(unit: str, describing: bool = False) -> str:
    """A pattern of "in each unit": `every month`, `each month`, `per month`, `/month`,
    `/mo` (with `describing`, `/annual` too)."""
    return rf"(?:\b(?:every|each|per) {unit}|/\s?(?:{words(unit, describing)}))\b"


def a(unit: str) -> str:
    """A pattern of `a month`: "in each unit" only after a count or an amount, which the
    caller reads before it."""
    return rf"\b(?:a|an) {unit}\b"
