"""Whether a date a fact says is a day a cited message names (kit/curator/grounding.py): the
same days, or for a date written without its year ("June 30") the same day or month of any
year, each text guessing its year on its own."""

from __future__ import annotations

import re
from datetime import date, timedelta

from kit.curator.fact_terms import Term
from kit.curator.wording import fold, tokens
from kit.dates.text import DateSpan
from kit.dates.words import ABBREVIATIONS, MONTHS, month_span


def same_day(span: DateSpan, term: Term) -> bool:
    """The days overlap; for a date written without its year ("June 30"), the same day or
    month of any year (each text guesses the year on its own)."""
    assert term.span is not None
    if _RANGE.search(term.shown):  # "14-16 September" says every day of it: all said
        return _covers(span, term.span, term.year_said)
    if span.overlaps(term.span) or term.year_said or not names_month(term.shown):
        return span.overlaps(term.span)  # "ten years ago" is no month of any year
    if term.span.start == term.span.end:
        return span.start == span.end and (span.start.month, span.start.day) == (
            term.span.start.month,
            term.span.start.day,
        )
    return (span.start.month, span.end.month) == (term.span.start.month, term.span.end.month)


# A range of days written out ("14-15 September", "May 3 to 5").
_RANGE = re.compile(r"\d(?:st|nd|rd|th)?\s*(?:[-–—]|\s(?:to|through|thru|and)\s)\s*\d")


def _covers(span: DateSpan, wanted: DateSpan, year_said: bool) -> bool:
    if span.start <= wanted.start and wanted.end <= span.end:
        return True
    if year_said:
        return False
    # without the year each text guessed
    return _day(span.start) <= _day(wanted.start) and _day(wanted.end) <= _day(span.end)


def _day(when: date) -> tuple[int, int]:
    return when.month, when.day


def names_month(text: str) -> bool:
    return any(
        t.group().lower().rstrip(".") in MONTHS or t.group().lower() in ABBREVIATIONS
        for t in tokens(text)
    )


def bare_months(
    text: str, day: date | None, taken: list[tuple[int, int]]
) -> list[tuple[DateSpan, int]]:
    """The months a message names by their name alone, which the date parser (kit/dates/)
    leaves to the words ("starting June", "my April-June budget", "the $35 I had for
    February"), each with its offset: the month of that name nearest before and nearest after
    the day it was said (a curator writes the year the message means). Only a capitalised
    month name, outside the dates already read (`taken`), and not "May" or "March" opening a
    sentence ("May I ask").
    """
    if day is None:
        return []
    found: list[tuple[DateSpan, int]] = []
    folded = fold(text)
    for match in tokens(folded):
        at = match.start()
        if any(a <= at < b for a, b in taken):
            continue
        offset = at
        for part in _PARTS.split(match.group()):
            month = MONTHS.get(part.lower()) if part[:1].isupper() else None
            opening = at == 0 or folded[max(0, at - 2) : at].strip() in ("", ".", "!", "?")
            if month and not (opening and part in _VERBS):
                found += [(span, offset) for span in _nearest(month, day)]
            offset += len(part) + 1
    return found


_PARTS = re.compile(r"[-–—/]")
_VERBS = frozenset({"May", "March"})


def _nearest(month: int, day: date) -> list[DateSpan]:
    found = (month_span(year, month) for year in (day.year - 1, day.year, day.year + 1))
    spans = [DateSpan(s.start, s.end) for s in found if s is not None]
    before = [s for s in spans if s.start <= day]
    after = [s for s in spans if s.end >= day]
    return list(dict.fromkeys([*before[-1:], *after[:1]]))  # none past date.min or date.max


def whole_months(span: DateSpan) -> bool:
    """Whether a span is one or more whole months and names no day ("June 2024")."""
    if span.end >= date.max - timedelta(days=1) or span.end <= span.start:
        return False
    return span.start.day == 1 and (span.end + timedelta(days=1)).day == 1
