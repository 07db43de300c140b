"""Whether a date a fact says is a day a cited message names (kit/curator/grounding.py): the
same days, or for a date written without its year ("June 30") the same day or month of any
year, each text guessing its year on its own."""

from __future__ import annotations

from kit.curator.fact_terms import Term
from kit.curator.wording import tokens
from kit.dates.text import DateSpan
from kit.dates.words import ABBREVIATIONS, MONTHS


def same_day(span: DateSpan, term: Term) -> bool:
    """The days overlap; for a date written without its year ("June 30"), the same day or
    month of any year (each text guesses the year on its own)."""
    assert term.span is not None
    if span.overlaps(term.span) or term.year_said or not names_month(term.shown):
        return span.overlaps(term.span)  # "ten years ago" is no month of any year
    if term.span.start == term.span.end:
        return span.start == span.end and (span.start.month, span.start.day) == (
            term.span.start.month,
            term.span.start.day,
        )
    return (span.start.month, span.end.month) == (term.span.start.month, term.span.end.month)


def names_month(text: str) -> bool:
    return any(
        t.group().lower().rstrip(".") in MONTHS or t.group().lower() in ABBREVIATIONS
        for t in tokens(text)
    )
