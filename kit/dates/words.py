"""The words dates are written with, and the calendar arithmetic the written forms share
(kit/dates/forms.py: absolute ones; kit/dates/relative.py: relative ones;
kit/dates/text.py finds them in a text).

Month and weekday names and their abbreviations, numbers in words, units of time, the
pattern pieces the forms are built of; `fold`, the text the patterns read (ASCII letters
lower-cased, every offset kept); `words`, what the gates test (a form runs only on a text
holding a word it needs); and day arithmetic that never leaves the calendar: every day
computed here is checked, nothing outside year 1-9999 and no impossible day ("31 February",
"29 February 2023") is ever produced. English words; the numeric forms read the same in any
language.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Literal

DateOrder = Literal["dmy", "mdy"]  # how 03/05 reads: 3 May, or 5 March

MONTH_NAMES = (
    "January February March April May June July August September October November December"
).split()
WEEKDAY_NAMES = "Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split()
MONTHS = {name.lower(): n for n, name in enumerate(MONTH_NAMES, 1)}

# Abbreviations name a month only beside a day or a year ("Dec 29", "Jan 2024"): alone,
# "jan" is a name and "mar" a verb.
ABBREVIATIONS = {name.lower()[:3]: n for n, name in enumerate(MONTH_NAMES, 1) if name != "May"}
ABBREVIATIONS["sept"] = 9
SAFE_ABBREVIATIONS = {k: v for k, v in ABBREVIATIONS.items() if k not in ("jan", "mar")}
WEEKDAYS = {name.lower(): n for n, name in enumerate(WEEKDAY_NAMES)}
WEEKDAY_ABBREVIATIONS = {"mon": 0, "tue": 1, "tues": 1, "wed": 2, "weds": 2, "thu": 3}
WEEKDAY_ABBREVIATIONS |= {"thur": 3, "thurs": 3, "fri": 4, "sat": 5, "sun": 6}
NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
NUMBERS |= {"seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}
NUMBERS |= {"couple": 2, "couple of": 2, "a couple": 2, "a couple of": 2, "few": 3}
NUMBERS |= {"a few": 3, "several": 3}
UNITS = {"day": 1, "night": 1, "week": 7, "weekend": 7, "fortnight": 14, "month": 30}
UNITS |= {"year": 365, "decade": 3650}
SEASONS = {"spring": 3, "summer": 6, "autumn": 9, "fall": 9, "winter": 12}  # first month


def alternation(words: Iterable[str]) -> str:
    return "|".join(sorted((re.escape(w) for w in words), key=len, reverse=True))


WORD_START = r"(?<![\w'’])"  # a word starts here
WORD_END = r"(?![\w])"  # a word ends here
MONTH = alternation(MONTHS)
ANY_MONTH = rf"(?:{MONTH}|(?:{alternation(ABBREVIATIONS)})\.?)"
PREP_MONTH = rf"(?:{MONTH}|(?:{alternation(SAFE_ABBREVIATIONS)})\.?)"
WEEKDAY = alternation(WEEKDAYS)
ANY_WEEKDAY = rf"(?:{WEEKDAY}|(?:{alternation(WEEKDAY_ABBREVIATIONS)})\.?)"
COUNT = rf"(?:\d{{1,4}}|{alternation(NUMBERS)})"
UNIT = rf"(?:{alternation(UNITS)})s?"
DAY = r"(?P<day>3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th)?" + WORD_END
YEAR = r"(?P<year>\d{4}|['’]\d\d)" + WORD_END
ABOUT = r"(?:(?:about|around|almost|nearly|over|roughly|some|like|just|only)\s+)?"
WEEKDAY_PREFIX = rf"(?:{ANY_WEEKDAY},?\s+)?"

# Words around a day that put it ahead of the reference day rather than behind it.
_FUTURE = re.compile(
    r"(?:\b(?:will|shall|gonna|wanna|next|coming|upcoming|until|till|by|tomorrow|plan|plans|"
    r"planning|planned|going\s+to|see\s+you|can'?t\s+wait|looking\s+forward|hope\s+to|"
    r"want\s+to|about\s+to|(?:am|are|is)\s+\w+ing)\b|\w(?:'ll|’ll|'m\s+\w+ing|’m\s+\w+ing|"
    r"'re\s+\w+ing|’re\s+\w+ing)\b)"
)  # matched against folded text
_CLAUSE_END = re.compile(r"[.!?;\n]")


@dataclass(frozen=True)
class Span:
    """Days, both ends inclusive (text.py's DateSpan is built from it)."""

    start: date
    end: date


@dataclass(frozen=True)
class Form:
    pattern: re.Pattern[str]
    resolve: Callable[[re.Match[str], str, date, DateOrder], Span | None]
    relative: bool  # its words mean another day in every message ("last week")
    # Words a text must hold one of for the pattern to match ("Gates" below).
    needs: frozenset[str]


def day_or_none(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def shift(day: date | None, days: int) -> date | None:
    if day is None:
        return None
    try:
        return day + timedelta(days=days)
    except OverflowError:
        return None


def span(start: date | None, end: date | None) -> Span | None:
    if start is None or end is None or end < start:
        return None
    return Span(start, end)


def month_span(year: int, month: int) -> Span | None:
    while month < 1:
        year, month = year - 1, month + 12
    while month > 12:
        year, month = year + 1, month - 12
    first = day_or_none(year, month, 1)
    if first is None:
        return None
    following = day_or_none(year + 1, 1, 1) if month == 12 else day_or_none(year, month + 1, 1)
    return span(first, shift(following, -1) if following else day_or_none(year, 12, 31))


def year_span(year: int) -> Span | None:
    return span(day_or_none(year, 1, 1), day_or_none(year, 12, 31))


def speaks_of_future(text: str, start: int, end: int) -> bool:
    """The clause around a date (the date's own words included: "by 3 May") speaks of
    what is ahead ("I'll go on Friday")."""
    before = text[max(0, start - 60) : end]
    cut = [m.end() for m in _CLAUSE_END.finditer(before)]
    before = before[cut[-1] :] if cut else before
    after = text[end : end + 30]
    stop = _CLAUSE_END.search(after)
    after = after[: stop.start()] if stop else after
    return _FUTURE.search(before) is not None or _FUTURE.search(after) is not None


def month_of(name: str) -> int:
    key = name.lower().rstrip(".")
    return MONTHS.get(key) or ABBREVIATIONS.get(key) or ABBREVIATIONS[key[:3]]


def year_of(text: str, today: date) -> int:
    if text[0] in "'’":  # '23: the nearest century that is not more than 20 years ahead
        yy = int(text[1:])
        year = today.year - today.year % 100 + yy
        return year - 100 if year > today.year + 20 else year
    return int(text)


def count_of(text: str) -> int:
    text = " ".join(text.lower().split())
    return int(text) if text.isdigit() else NUMBERS.get(text, 1)


def unit_of(text: str) -> str:
    text = text.lower()
    return text if text in UNITS else text[:-1]


def weekday_of(text: str) -> int:
    key = text.lower().rstrip(".")
    return WEEKDAYS.get(key, WEEKDAY_ABBREVIATIONS.get(key, 0))


def single_day(day: date | None) -> Span | None:
    return span(day, day)


def monday_of(today: date, weeks: int = 0) -> date | None:
    return shift(today, -today.weekday() + 7 * weeks)


def weekend_of(today: date, weeks: int) -> Span | None:
    """The Saturday and Sunday of the week `weeks` from this one (Monday to Sunday)."""
    monday = monday_of(today, weeks)
    return span(shift(monday, 5), shift(monday, 6))


_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def fold(text: str) -> str:
    """The text with ASCII letters lower-cased, every other character and every offset kept
    (str.lower() can change a text's length: "İ"): the patterns are matched against it,
    case-sensitively, several times faster than with re.IGNORECASE."""
    return text.lower() if text.isascii() else text.translate(_ASCII_LOWER)


def compile_form(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


# Gates: a form's pattern runs only on a text holding one of these words (as `words` splits
# a folded text), or any digit where DIGIT is one of them: words it cannot match without.
# Most texts name no date, and the patterns are long alternations tried at every position;
# splitting a text into its words once costs a fraction of one.
DIGIT = "0"
DIGITS = frozenset({DIGIT})
MONTH_WORDS = frozenset([*MONTHS, *ABBREVIATIONS])
DAY_WORDS = frozenset("yesterday today tonight tomorrow night morning afternoon evening".split())
BEFORE_LAST = frozenset({"before", "after"})
UNIT_WORDS = frozenset([*UNITS, *(f"{unit}s" for unit in UNITS)])
WHICH = frozenset("last this past previous next coming".split())
AGO = frozenset({"ago", "back"})
FROM_NOW = frozenset({"now", "today"})
WEEKEND = frozenset({"weekend"})
WEEKDAY_WORDS = frozenset([*WEEKDAYS, *WEEKDAY_ABBREVIATIONS])
WEEKDAY_FULL = frozenset(WEEKDAYS)
_WORD = re.compile(r"[^\W_]+")
_ANY_DIGIT = re.compile(r"\d")


def words(folded: str) -> set[str]:
    """The words of a folded text, and DIGIT when it holds a digit: what gates test."""
    found = set(_WORD.findall(folded))
    if _ANY_DIGIT.search(folded):
        found.add(DIGIT)
    return found
