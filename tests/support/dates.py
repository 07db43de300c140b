"""Shared by the date reader's tests (tests/retrieval/test_date_forms.py,
tests/retrieval/test_date_relative.py, tests/retrieval/test_date_text.py): a reference day and
what a text names, as ISO days."""

from __future__ import annotations

from datetime import date

from kit.dates.text import DateOrder, date_mentions

WEDNESDAY = date(2023, 8, 16)


def spans(text: str, today: date = WEDNESDAY, order: DateOrder = "dmy") -> list[tuple[str, str]]:
    return [
        (m.span.start.isoformat(), m.span.end.isoformat())
        for m in date_mentions(text, today, order)
    ]


def day(text: str, today: date = WEDNESDAY, order: DateOrder = "dmy") -> str:
    """The one day `text` names."""
    (found,) = spans(text, today, order)
    assert found[0] == found[1], (text, found)
    return found[0]
