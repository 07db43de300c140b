"""Time in text: the days a query names, and whether a message places something in time.

A query's dates ("on 3 June, 2023", "in May", "last week", "the week before 9 June") become
day spans, resolved against `now` (a month or day without a year is the latest one not after
now). Search favours messages written inside a span, or a little after it: people tell of
an event when it happens or soon after. The spans' words are then no longer needed as
search words, where they match by accident ("may", "3", "2023" are in many messages).

`asks_when` and `mentions_time` pair a question that wants a time ("When did...", "How
long...") with turns that say one ("yesterday", "last week", "in 2022"): the turn that dates
an event is the one that answers when it happened. English only; anything unparsed is left
to the words.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date, timedelta

_MONTHS = {name.lower(): n for n, name in enumerate(calendar.month_name) if name}
_MONTHS["sept"] = 9
_WEEKDAYS = {name.lower(): n for n, name in enumerate(calendar.day_name)}
_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_NUMBERS |= {"few": 3, "several": 3, "couple of": 2, "a couple of": 2, "a few": 3}

_MONTH = "(?P<{0}>" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\b"
_DAY = r"(?P<{0}>[0-3]?\d)(?:st|nd|rd|th)?\b"
_YEAR = r"(?P<{0}>(?:19|20)\d\d)\b"
_COUNT = r"(?P<{0}>\d+|" + "|".join(sorted(_NUMBERS, key=len, reverse=True)) + ")"

# An absolute date: "3 June, 2023", "June 3rd, 2023", "June 2023", "in May", "2022".
# "May" alone is a month only after a word that introduces one ("in May"), never the verb.
_ABSOLUTE = re.compile(
    r"\b(?:"
    + _DAY.format("d1") + r"\s+(?:of\s+)?" + _MONTH.format("m1")
    + r"(?:,?\s+" + _YEAR.format("y1") + ")?"
    + "|" + _MONTH.format("m2") + r"\s+" + _DAY.format("d2")
    + r"(?:,?\s+" + _YEAR.format("y2") + ")?"
    + "|" + _MONTH.format("m3") + r",?\s+" + _YEAR.format("y3")
    + r"|(?:in|of|during|since|early|late|mid)\s+" + _MONTH.format("m4")
    + r"(?:,?\s+" + _YEAR.format("y4") + ")?"
    + "|" + r"(?<!\d\s)" + _YEAR.format("y5")
    + ")",
    re.IGNORECASE,
)  # fmt: skip
_UNITS = {"day": 1, "days": 1, "week": 7, "weeks": 7, "weekend": 7, "weekends": 7}
_UNITS |= {"month": 30, "months": 30, "year": 365, "years": 365}
_UNIT = "(?P<{0}>" + "|".join(sorted(_UNITS, key=len, reverse=True)) + r")\b"
_WEEKDAY = "(?P<{0}>" + "|".join(_WEEKDAYS) + r")\b"
# Relative to now: "yesterday", "last week", "last Friday", "last May", "two weeks ago".
_RELATIVE = re.compile(
    r"\b(?:(?P<word>yesterday|today|tonight|this morning|last night)\b"
    r"|(?P<which>last|this|past)\s+(?:" + _UNIT.format("u1") + "|" + _WEEKDAY.format("w1")
    + "|" + _MONTH.format("m1") + ")"
    + r"|" + _COUNT.format("n2") + r"\s+" + _UNIT.format("u2") + r"\s+ago\b"
    + ")",
    re.IGNORECASE,
)  # fmt: skip
# Anchored on an absolute date that follows: "the week before 9 June", "two days after".
_ANCHORED = re.compile(
    r"\b(?:(?:the|last)\s+)?(?:(?:" + _COUNT.format("n") + r"\s+)?" + _UNIT.format("u")
    + "|" + _WEEKDAY.format("w") + r")\s+(?P<dir>before|after|of)\s+$",
    re.IGNORECASE,
)  # fmt: skip

_WHEN = re.compile(
    r"^\s*when\b|\b(?:what|which)\s+(?:year|month|day|date|time|week)\b|\bhow\s+long\b|\bsince\s+when\b"
    r"|\bhow\s+many\s+(?:days|weeks|months|years)\b",
    re.IGNORECASE,
)
_TIME_WORDS = (
    r"yesterday|today|tonight|tomorrow|recently|the other day|ago|since|"
    r"(?:last|this|next|past)\s+(?:\w+)|(?:(?:19|20)\d\d)|"
    + "|".join(_WEEKDAYS)
    + "|"
    + "|".join(m for m in _MONTHS if m != "may")
    + r"|may\s+\d|\d+\s+may"
)
_TIME = re.compile(r"\b(?:" + _TIME_WORDS + r")\b", re.IGNORECASE)


# A time ahead of now, as people name one when they plan: "tomorrow", "on Friday", "next week",
# "this evening", "in two days", "at 5pm", "on 3 June". (Past words are `_RELATIVE`'s.)
_DAYS = "|".join(_WEEKDAYS)
_MONTH_NAMES = "|".join(sorted(_MONTHS, key=len, reverse=True))
_NOT_MAY = "|".join(m for m in sorted(_MONTHS, key=len, reverse=True) if m != "may")  # the verb
_AHEAD = re.compile(
    r"\b(?:tomorrow|tonight|later today|the day after tomorrow"
    r"|this\s+(?:morning|afternoon|evening|weekend)"
    r"|(?:next|this|coming|on)\s+(?:" + _DAYS + r"|week|weekend|month|year)"
    r"|(?:" + _DAYS + r")(?:\s+(?:morning|afternoon|evening|night))?"
    r"|in\s+(?:\d+|" + "|".join(sorted(_NUMBERS, key=len, reverse=True)) + r")\s+"
    r"(?:minutes?|hours?|days?|weeks?|months?)"
    r"|at\s+\d{1,2}(?::\d{2})?\s*(?:am|pm)|at\s+\d{1,2}:\d{2}|at\s+noon"
    r"|(?:on\s+)?\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:" + _MONTH_NAMES + r")"
    r"|(?:on\s+)?(?:" + _NOT_MAY + r")\s+\d{1,2}(?:st|nd|rd|th)?"
    r"|may\s+\d{1,2}(?:st|nd|rd|th)?\b(?!\s*(?:%|people|of))"
    r")\b",
    re.IGNORECASE,
)  # fmt: skip


@dataclass(frozen=True)
class DateSpan:
    """Days an expression names, both ends inclusive."""

    start: date
    end: date

    def holds(self, day: date, slack_days: int = 0) -> bool:
        """`day` inside the span, or at most `slack_days` after it."""
        return self.start <= day <= self.end + timedelta(days=slack_days)


@dataclass(frozen=True)
class DateMention:
    span: DateSpan
    start: int  # character offsets of the words in the text
    end: int
    relative: bool  # "last week", "yesterday": its words mean another day in every message


def asks_when(question: str) -> bool:
    """The question wants a time or a duration for its answer."""
    return _WHEN.search(question) is not None


def mentions_time(text: str) -> bool:
    """The text places something in time: a date, a weekday, "yesterday", "last week"..."""
    return _TIME.search(text) is not None


def time_ahead(text: str) -> str | None:
    """The words of a time ahead that `text` names ("on Friday", "tomorrow at 9am"), if any:
    what a plan is made for. Not resolved to a date: a plan's day is the owner's to say."""
    match = _AHEAD.search(text)
    return None if match is None else match.group(0)


def date_mentions(text: str, today: date) -> list[DateMention]:
    """Every date expression in `text` resolved to days, in order; `today` anchors relative
    ones and the year of a date given without one."""
    found: list[DateMention] = []
    for match in _ABSOLUTE.finditer(text):
        span = _absolute(match, today)
        if span is None:
            continue
        begin = match.start()
        anchor = _ANCHORED.search(text[: match.start()])
        if anchor is not None:
            span = _anchored(anchor, span)
            begin = anchor.start()
        found.append(DateMention(span, begin, match.end(), relative=False))
    for match in _RELATIVE.finditer(text):
        if any(m.start < match.end() and match.start() < m.end for m in found):
            continue  # part of an absolute or anchored date already taken
        span = _relative(match, today)
        if span is not None:
            found.append(DateMention(span, match.start(), match.end(), relative=True))
    found.sort(key=lambda m: m.start)
    return found


def without(text: str, mentions: list[DateMention]) -> str:
    """The text with the date expressions cut out (what is left to match as words)."""
    kept, last = [], 0
    for mention in mentions:
        kept.append(text[last : mention.start])
        last = mention.end
    kept.append(text[last:])
    return " ".join("".join(kept).split())


def _absolute(match: re.Match[str], today: date) -> DateSpan | None:
    groups = {k: v for k, v in match.groupdict().items() if v}
    month_name = next((groups[k] for k in ("m1", "m2", "m3", "m4") if k in groups), None)
    day_text = groups.get("d1") or groups.get("d2")
    year_text = next((groups[k] for k in ("y1", "y2", "y3", "y4", "y5") if k in groups), None)
    year = int(year_text) if year_text else None
    if month_name is None:
        return None if year is None else DateSpan(date(year, 1, 1), date(year, 12, 31))
    month = _MONTHS[month_name.lower()]
    if year is None:  # the latest such month (or day) not after today
        year = (
            today.year
            if (month, int(day_text or 1)) <= (today.month, today.day)
            else today.year - 1
        )
    last_day = calendar.monthrange(year, month)[1]
    if day_text is None:
        return DateSpan(date(year, month, 1), date(year, month, last_day))
    day = int(day_text)
    if not 1 <= day <= last_day:
        return None
    return DateSpan(date(year, month, day), date(year, month, day))


def _month(year: int, month: int) -> DateSpan:
    return DateSpan(date(year, month, 1), date(year, month, calendar.monthrange(year, month)[1]))


def _count(text: str | None) -> int:
    if not text:
        return 1
    text = " ".join(text.lower().split())
    return int(text) if text.isdigit() else _NUMBERS.get(text, 1)


def _anchored(match: re.Match[str], anchor: DateSpan) -> DateSpan:
    direction = match.group("dir").lower()
    if direction == "of":  # "the week of 23 August": that week, Monday to Sunday
        start = anchor.start - timedelta(days=anchor.start.weekday())
        return DateSpan(start, start + timedelta(days=6))
    if match.group("w"):
        length = 7  # "the Friday before 15 July": within the week before
    else:
        length = _count(match.group("n")) * _UNITS[match.group("u").lower()]
    if direction == "before":
        return DateSpan(anchor.start - timedelta(days=length), anchor.start)
    return DateSpan(anchor.end, anchor.end + timedelta(days=length))


def _relative(match: re.Match[str], today: date) -> DateSpan | None:
    word = (match.group("word") or "").lower()
    if word in ("today", "tonight", "this morning"):
        return DateSpan(today, today)
    if word in ("yesterday", "last night"):
        return DateSpan(today - timedelta(days=1), today - timedelta(days=1))
    if match.group("n2"):
        days = _count(match.group("n2")) * _UNITS[match.group("u2").lower()]
        centre = today - timedelta(days=days)
        # "two weeks ago" is not exact: a unit either side
        width = timedelta(days=_UNITS[match.group("u2").lower()])
        return DateSpan(centre - width, min(today, centre + width))
    which = (match.group("which") or "").lower()
    if match.group("w1"):
        back = (today.weekday() - _WEEKDAYS[match.group("w1").lower()]) % 7 or 7
        return DateSpan(today - timedelta(days=back), today - timedelta(days=back))
    if match.group("m1"):
        month = _MONTHS[match.group("m1").lower()]
        year = today.year if month < today.month or which == "this" else today.year - 1
        return DateSpan(
            date(year, month, 1), date(year, month, calendar.monthrange(year, month)[1])
        )
    unit = match.group("u1").lower()
    if which in ("this", "past") and unit in ("week", "weekend"):
        return DateSpan(today - timedelta(days=7), today)
    if unit in ("week", "weekend"):  # last week: the calendar week before this one
        monday = today - timedelta(days=today.weekday() + 7)
        return DateSpan(monday, monday + timedelta(days=6))
    if unit == "month":
        if which == "this":
            return DateSpan(today.replace(day=1), today)
        end = today.replace(day=1) - timedelta(days=1)
        return DateSpan(end.replace(day=1), end)
    if unit == "year":
        year = today.year if which == "this" else today.year - 1
        return DateSpan(date(year, 1, 1), min(today, date(year, 12, 31)))
    return None
