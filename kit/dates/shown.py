"""A past message's relative dates shown with the days they mean, for the model that reads it.

"yesterday" in a message of Monday 8 May 2023 is 7 May 2023, but a model reading that message
months later has to work it out, and a small one does not: in run 7 of docs/measurements.md the
1.5B answered 9 of 16 "When did…?" questions with the message's own date, every one with the
message in its context. Kit resolves these words already (for search: kit/dates/text.py); the
context and `search_memory` now write the day after them: "yesterday (= Sunday 7 May 2023)",
"last week (= 29 May – 4 June 2023)", "next month (= June 2023)", "ten years ago (= about
2013)". Absolute dates are left as they were said, and so is a word naming the message's own
day ("today"): its line shows that date already.
"""

from __future__ import annotations

from datetime import date, timedelta

from kit.dates.text import DateMention, DateSpan, date_mentions
from kit.dates.words import MONTH_NAMES, WEEKDAY_NAMES

_VAGUE = frozenset("few couple several some".split())
SHOWN_AT_MOST = 4  # per message: a text listing many dates stays the text it was


def with_days_shown(text: str, day: date) -> str:
    """`text`, written on `day`, with "(= the days)" after each relative date it says."""
    mentions = [m for m in date_mentions(text, day) if m.relative and _worth(m.span, day)]
    if not mentions:
        return text
    kept: list[str] = []
    last = 0
    for mention in mentions[:SHOWN_AT_MOST]:
        shown = _days(mention, text)
        if not shown:
            continue
        kept.append(text[last : mention.end])
        kept.append(f" (= {shown})")
        last = mention.end
    kept.append(text[last:])
    return "".join(kept)


def _worth(span: DateSpan, day: date) -> bool:
    return not (span.start == span.end == day)


def _days(mention: DateMention, text: str) -> str:
    """The days a relative mention names, as a reader would write them."""
    span = mention.span
    said = set(text[mention.start : mention.end].lower().split())
    if "ago" in said:  # kit/dates/relative.py widens "n units ago" a unit either side
        return _about(span, vague=not said.isdisjoint(_VAGUE))
    if span.start == span.end:
        return _day(span.start)
    first, last = span.start, span.end
    if first.day == 1 and (last + timedelta(days=1)).day == 1:  # whole months or years
        if (first.month, last.month) == (1, 12):
            return str(first.year) if first.year == last.year else f"{first.year} – {last.year}"
        end = f"{MONTH_NAMES[last.month - 1]} {last.year}"
        if (first.year, first.month) == (last.year, last.month):
            return end
        start = MONTH_NAMES[first.month - 1]
        return f"{start} – {end}" if first.year == last.year else f"{start} {first.year} – {end}"
    return _range(first, last)


def _about(span: DateSpan, *, vague: bool) -> str:
    width = (span.end - span.start).days
    centre = span.start + timedelta(days=width // 2)
    if width <= 2:  # "two days ago": that day; "a few days ago": about then
        return f"about {_day(centre)}" if vague else _day(centre)
    if width <= 14:  # weeks ago: about a day
        return f"about {centre.day} {MONTH_NAMES[centre.month - 1]} {centre.year}"
    if width <= 62:  # months ago
        return f"about {MONTH_NAMES[centre.month - 1]} {centre.year}"
    return f"about {centre.year}"


def _day(day: date) -> str:
    return f"{WEEKDAY_NAMES[day.weekday()]} {day.day} {MONTH_NAMES[day.month - 1]} {day.year}"


def _range(first: date, last: date) -> str:
    """'10 – 16 July 2023', '29 May – 4 June 2023', '28 December 2023 – 3 January 2024'."""
    end = f"{last.day} {MONTH_NAMES[last.month - 1]} {last.year}"
    if first.year != last.year:
        return f"{first.day} {MONTH_NAMES[first.month - 1]} {first.year} – {end}"
    if first.month != last.month:
        return f"{first.day} {MONTH_NAMES[first.month - 1]} – {end}"
    return f"{first.day} – {end}"
