"""The written forms of a date Kit reads, each a pattern with the days it names (dates.py
finds them in a text and picks the longest non-overlapping ones).

Absolute forms name their days outright: "29 Dec 2023", "Dec. 29th, 2023", "the 29th of
December", "December 2023", "in May", "2023-12-29", "2023-12", "29/12/2023", "12/29/23",
"29.12.2023", "on 29/12", "2023". Numeric day and month are read in the order the owner
writes them (`DateOrder`), unless one part is over 12 and settles it. A day or month given
without a year is the latest one not after the reference day, or the next one when the words
around it speak of the future ("I'll see her on 3 May").

Relative forms are resolved against a reference day (for a question, today; for a stored
message, the day it was written): "yesterday", "last Friday", "two weeks ago", "a couple of
days ago", "the week before last", "last month", "this summer", "next Tuesday", "in 3 days",
"the last two weeks", "over the weekend", a bare weekday ("on Friday": the last one, or the
next when the words speak of the future). "The week before 9 June", "two days after
yesterday", "the week of 12 June" are anchored on the date that follows.

English words (plus the numeric forms, which any language writes the same way). Every day
computed here is checked: nothing outside year 1-9999 and no impossible day ("31 February",
"29 February 2023") is ever produced; such text names no day.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Literal

DateOrder = Literal["dmy", "mdy"]

MONTH_NAMES = (
    "January February March April May June July August September October November December"
).split()
WEEKDAY_NAMES = "Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split()

_MONTHS = {name.lower(): n for n, name in enumerate(MONTH_NAMES, 1)}
# Abbreviations name a month only beside a day or a year ("Dec 29", "Jan 2024"): alone,
# "jan" is a name and "mar" a verb.
_ABBREVIATIONS = {name.lower()[:3]: n for n, name in enumerate(MONTH_NAMES, 1) if name != "May"}
_ABBREVIATIONS["sept"] = 9
_SAFE_ABBREVIATIONS = {k: v for k, v in _ABBREVIATIONS.items() if k not in ("jan", "mar")}
_WEEKDAYS = {name.lower(): n for n, name in enumerate(WEEKDAY_NAMES)}
_WEEKDAY_ABBREVIATIONS = {"mon": 0, "tue": 1, "tues": 1, "wed": 2, "weds": 2, "thu": 3}
_WEEKDAY_ABBREVIATIONS |= {"thur": 3, "thurs": 3, "fri": 4, "sat": 5, "sun": 6}
_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_NUMBERS |= {"seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}
_NUMBERS |= {"couple": 2, "couple of": 2, "a couple": 2, "a couple of": 2, "few": 3}
_NUMBERS |= {"a few": 3, "several": 3}
UNITS = {"day": 1, "night": 1, "week": 7, "weekend": 7, "fortnight": 14, "month": 30}
UNITS |= {"year": 365, "decade": 3650}
_SEASONS = {"spring": 3, "summer": 6, "autumn": 9, "fall": 9, "winter": 12}  # first month


def _alternation(words: Iterable[str]) -> str:
    return "|".join(sorted((re.escape(w) for w in words), key=len, reverse=True))


_B = r"(?<![\w'’])"  # a word starts here
_E = r"(?![\w])"  # a word ends here
_MONTH = _alternation(_MONTHS)
_ANY_MONTH = rf"(?:{_MONTH}|(?:{_alternation(_ABBREVIATIONS)})\.?)"
_PREP_MONTH = rf"(?:{_MONTH}|(?:{_alternation(_SAFE_ABBREVIATIONS)})\.?)"
_WEEKDAY = _alternation(_WEEKDAYS)
_ANY_WEEKDAY = rf"(?:{_WEEKDAY}|(?:{_alternation(_WEEKDAY_ABBREVIATIONS)})\.?)"
_COUNT = rf"(?:\d{{1,4}}|{_alternation(_NUMBERS)})"
_UNIT = rf"(?:{_alternation(UNITS)})s?"
_DAY = r"(?P<day>3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th)?" + _E
_YEAR = r"(?P<year>\d{4}|['’]\d\d)" + _E
_ABOUT = r"(?:(?:about|around|almost|nearly|over|roughly|some|like|just|only)\s+)?"
_WEEKDAY_PREFIX = rf"(?:{_ANY_WEEKDAY},?\s+)?"

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
    """Days, both ends inclusive (dates.py's DateSpan is built from it)."""

    start: date
    end: date


@dataclass(frozen=True)
class Form:
    pattern: re.Pattern[str]
    resolve: Callable[[re.Match[str], str, date, DateOrder], Span | None]
    relative: bool  # its words mean another day in every message ("last week")
    # Words a text must hold one of for the pattern to match ("Gates" below).
    needs: frozenset[str]


def _day(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _shift(day: date | None, days: int) -> date | None:
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
    first = _day(year, month, 1)
    if first is None:
        return None
    following = _day(year + 1, 1, 1) if month == 12 else _day(year, month + 1, 1)
    return span(first, _shift(following, -1) if following else _day(year, 12, 31))


def _year_span(year: int) -> Span | None:
    return span(_day(year, 1, 1), _day(year, 12, 31))


def _future(text: str, start: int, end: int) -> bool:
    """The clause around a date (the date's own words included: "by 3 May") speaks of
    what is ahead ("I'll go on Friday")."""
    before = text[max(0, start - 60) : end]
    cut = [m.end() for m in _CLAUSE_END.finditer(before)]
    before = before[cut[-1] :] if cut else before
    after = text[end : end + 30]
    stop = _CLAUSE_END.search(after)
    after = after[: stop.start()] if stop else after
    return _FUTURE.search(before) is not None or _FUTURE.search(after) is not None


def _nearest(month: int, day: int | None, today: date, ahead: bool) -> Span | None:
    """A month (or a day of it) without its year: the latest not after today (this month
    included), or the earliest not before it when `ahead`. Looks up to 8 years away, for
    29 February."""
    step = 1 if ahead else -1
    for offset in range(9):
        year = today.year + step * offset
        if day is None:
            found = month_span(year, month)
            if found and (found.end >= today if ahead else found.start <= today):
                return found
        else:
            found_day = _day(year, month, day)
            if found_day and (found_day >= today if ahead else found_day <= today):
                return Span(found_day, found_day)
    return None


def _month_of(name: str) -> int:
    key = name.lower().rstrip(".")
    return _MONTHS.get(key) or _ABBREVIATIONS.get(key) or _ABBREVIATIONS[key[:3]]


def _year_of(text: str, today: date) -> int:
    if text[0] in "'’":  # '23: the nearest century that is not more than 20 years ahead
        yy = int(text[1:])
        year = today.year - today.year % 100 + yy
        return year - 100 if year > today.year + 20 else year
    return int(text)


def _named(match: re.Match[str], text: str, today: date, order: DateOrder) -> Span | None:
    """Day and / or month in words, with or without a year."""
    groups = match.groupdict()
    month = _month_of(groups["mon"])
    day = int(groups["day"]) if groups.get("day") else None
    if groups.get("year"):
        year = _year_of(groups["year"], today)
        if day is None:
            return month_span(year, month)
        found = _day(year, month, day)
        return Span(found, found) if found else None
    return _nearest(month, day, today, _future(text, match.start(), match.end()))


def _iso(match: re.Match[str], text: str, today: date, order: DateOrder) -> Span | None:
    year, month = int(match["year"]), int(match["month"])
    if match.groupdict().get("day") is None:
        return month_span(year, month) if 1 <= month <= 12 else None
    found = _day(year, month, int(match["day"]))
    return Span(found, found) if found else None


def _day_month(a: int, b: int, order: DateOrder) -> tuple[int, int] | None:
    """(day, month) of two numbers, by whichever reading is possible, else by `order`."""
    if a > 12 and b <= 12:
        return a, b
    if b > 12 and a <= 12:
        return b, a
    if a > 12 or b > 12:
        return None
    return (a, b) if order == "dmy" else (b, a)


def _numeric(match: re.Match[str], text: str, today: date, order: DateOrder) -> Span | None:
    parts = _day_month(int(match["a"]), int(match["b"]), order)
    if parts is None:
        return None
    day, month = parts
    raw = match.groupdict().get("year")
    if raw is None:
        if _day(2000, month, day) is None:  # no such day in any year
            return None
        return _nearest(month, day, today, _future(text, match.start(), match.end()))
    year = int(raw) if len(raw) == 4 else _year_of("'" + raw, today)
    found = _day(year, month, day)
    return Span(found, found) if found else None


def _bare_year(match: re.Match[str], text: str, today: date, order: DateOrder) -> Span | None:
    return _year_span(int(match["year"]))


def _count(text: str) -> int:
    text = " ".join(text.lower().split())
    return int(text) if text.isdigit() else _NUMBERS.get(text, 1)


def _unit(text: str) -> str:
    text = text.lower()
    return text if text in UNITS else text[:-1]


def _weekday_of(text: str) -> int:
    key = text.lower().rstrip(".")
    return _WEEKDAYS.get(key, _WEEKDAY_ABBREVIATIONS.get(key, 0))


def _single(day: date | None) -> Span | None:
    return span(day, day)


def _words(match: re.Match[str], text: str, today: date, order: DateOrder) -> Span | None:
    word = " ".join(match["word"].lower().split())
    offsets = {"yesterday": -1, "last night": -1, "tomorrow": 1, "the day before yesterday": -2}
    offsets["the day after tomorrow"] = 2
    return _single(_shift(today, offsets.get(word, 0)))


def _monday(today: date, weeks: int = 0) -> date | None:
    return _shift(today, -today.weekday() + 7 * weeks)


def _weekend(today: date, weeks: int) -> Span | None:
    """The Saturday and Sunday of the week `weeks` from this one (Monday to Sunday)."""
    monday = _monday(today, weeks)
    return span(_shift(monday, 5), _shift(monday, 6))


def _last_weekend(today: date) -> Span | None:
    return _weekend(today, -1)


def _season(name: str, year: int) -> Span | None:
    first = _SEASONS[name.lower()]
    start = month_span(year, first)
    end = month_span(year, first + 2)
    return span(start.start if start else None, end.end if end else None)


def _which_season(name: str, which: str, today: date) -> Span | None:
    """last / this / next summer: the latest ended before today, the one of this year (or
    the one under way), the first after today."""
    around = [_season(name, today.year + offset) for offset in range(-2, 2)]
    seasons = [s for s in around if s is not None]
    if which in ("last", "past", "previous", "this past"):
        ended = [s for s in seasons if s.end < today]
        return ended[-1] if ended else None
    if which in ("next", "coming", "this coming"):
        ahead = [s for s in seasons if s.start > today]
        return ahead[0] if ahead else None
    current = [s for s in seasons if s.start <= today <= s.end]
    if current:
        return current[0]
    this_year = [s for s in seasons if s.start.year == today.year]
    return this_year[0] if this_year else None


def _which(match: re.Match[str], text: str, today: date, order: DateOrder) -> Span | None:
    """last / this / past / next + week, weekend, month, year, weekday, month, season."""
    which = " ".join(match["which"].lower().split())
    back = which in ("last", "past", "previous", "this past")
    ahead = which in ("next", "coming", "this coming")
    if match["weekday"]:
        weekday = _weekday_of(match["weekday"])
        if back:  # the latest one before today
            return _single(_shift(today, -((today.weekday() - weekday) % 7 or 7)))
        if ahead:  # the first after today; "next Friday" said early in a week may mean
            first = _shift(today, (weekday - today.weekday()) % 7 or 7)  # the week after
            monday = _monday(today, 1)
            if first is not None and monday is not None and first < monday:
                return span(first, _shift(first, 7))
            return _single(first)
        return _single(_shift(_monday(today), weekday))  # this Friday: this week's
    if match["month"]:
        month = _month_of(match["month"])
        if month == 5 and which == "this" and re.match(r"\s*[^\W\d_]", text[match.end() :]):
            return None  # "this may be": the verb
        if which == "this":
            return month_span(today.year, month)
        if back:
            return month_span(today.year if month < today.month else today.year - 1, month)
        return month_span(today.year if month > today.month else today.year + 1, month)
    if match["season"]:
        return _which_season(match["season"], which, today)
    unit = _unit(match["unit"])
    if which in ("past", "this past") and unit != "weekend":  # the seven days up to today
        return span(_shift(today, -UNITS[unit]), today)
    step = -1 if back else 1 if ahead else 0
    if unit == "weekend":
        return _weekend(today, step)
    if unit in ("week", "fortnight"):
        monday = _monday(today, step * (2 if unit == "fortnight" and step < 0 else 1))
        return span(monday, _shift(monday, 13 if unit == "fortnight" else 6))
    if unit == "month":
        return month_span(today.year, today.month + step)
    if unit == "year":
        return _year_span(today.year + step)
    return None  # "last day", "next decade": no span


def _before_last(match: re.Match[str], text: str, today: date, order: DateOrder) -> Span | None:
    """the week / weekend / month / year / Friday before last; after next."""
    unit = match["unit"].lower()
    step = -2 if match["dir"].lower() == "before last" else 2
    if unit in _WEEKDAYS:
        if step < 0:
            return _single(_shift(today, -((today.weekday() - _WEEKDAYS[unit]) % 7 or 7) - 7))
        return _single(_shift(today, ((_WEEKDAYS[unit] - today.weekday()) % 7 or 7) + 7))
    if unit == "weekend":
        return _weekend(today, step)
    if unit == "week":
        monday = _monday(today, step)
        return span(monday, _shift(monday, 6))
    if unit == "month":
        return month_span(today.year, today.month + step)
    return _year_span(today.year + step)


def _ago(match: re.Match[str], text: str, today: date, order: DateOrder) -> Span | None:
    """n units ago: not exact, so a unit either side (never after today)."""
    unit = UNITS[_unit(match["unit"])]
    centre = _shift(today, -_count(match["count"]) * unit)
    end = _shift(centre, unit)
    return span(_shift(centre, -unit), min(today, end) if end else today)


def _ahead(match: re.Match[str], text: str, today: date, order: DateOrder) -> Span | None:
    """in n units / n units from now: a unit either side (never before today)."""
    unit = UNITS[_unit(match["unit"])]
    centre = _shift(today, _count(match["count"]) * unit)
    start = _shift(centre, -unit)
    return span(max(today, start) if start else today, _shift(centre, unit))


def _stretch(match: re.Match[str], text: str, today: date, order: DateOrder) -> Span | None:
    """the last / next n units: from n units ago up to today, or from today on."""
    days = _count(match["count"]) * UNITS[_unit(match["unit"])]
    if match["which"].lower() in ("next", "coming"):
        return span(today, _shift(today, days))
    return span(_shift(today, -days), today)


def _the_weekend(match: re.Match[str], text: str, today: date, order: DateOrder) -> Span | None:
    """over / at / on the weekend: the one under way or just gone, or the coming one."""
    if today.weekday() >= 5:
        return _weekend(today, 0)
    return _weekend(today, 0 if _future(text, match.start(), match.end()) else -1)


def _bare_weekday(match: re.Match[str], text: str, today: date, order: DateOrder) -> Span | None:
    """(on) Friday: the last one (today included), or the next when the clause speaks of
    the future."""
    weekday = _weekday_of(match["weekday"])
    if _future(text, match.start(), match.end()):
        return _single(_shift(today, (weekday - today.weekday()) % 7 or 7))
    return _single(_shift(today, -((today.weekday() - weekday) % 7)))


# A number followed by what it counts is not a year ("2000 steps").
_NOT_AN_AMOUNT = (
    r"(?!\s+(?:steps|people|calories|words|km|kilometers|miles|dollars|euros|pounds|points"
    r"|feet|foot|meters|metres|kg|lbs|followers|views|likes|times|members|users|pieces"
    r"|pages|hours|minutes|seconds|days|weeks|months|years)\b)"
)


_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def fold(text: str) -> str:
    """The text with ASCII letters lower-cased, every other character and every offset kept
    (str.lower() can change a text's length: "İ"): the patterns are matched against it,
    case-sensitively, several times faster than with re.IGNORECASE."""
    return text.lower() if text.isascii() else text.translate(_ASCII_LOWER)


def _compile(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


_NUMERIC = re.compile(r"\d[-/.]\d")
# Gates: a form's pattern runs only on a text holding one of these words (as `words` splits
# a folded text), or any digit where DIGIT is one of them: words it cannot match without.
# Most texts name no date, and the patterns are long alternations tried at every position;
# splitting a text into its words once costs a fraction of one.
DIGIT = "0"
_DIGITS = frozenset({DIGIT})
_MONTH_WORDS = frozenset([*_MONTHS, *_ABBREVIATIONS])
_DAY_WORDS = frozenset("yesterday today tonight tomorrow night morning afternoon evening".split())
_BEFORE_LAST = frozenset({"before", "after"})
_UNIT_WORDS = frozenset([*UNITS, *(f"{unit}s" for unit in UNITS)])
_WHICH = frozenset("last this past previous next coming".split())
_AGO = frozenset({"ago", "back"})
_FROM_NOW = frozenset({"now", "today"})
_WEEKEND = frozenset({"weekend"})
_WEEKDAY_WORDS = frozenset([*_WEEKDAYS, *_WEEKDAY_ABBREVIATIONS])
_WEEKDAY_FULL = frozenset(_WEEKDAYS)
_WORD = re.compile(r"[^\W_]+")


_ANY_DIGIT = re.compile(r"\d")


def words(folded: str) -> set[str]:
    """The words of a folded text, and DIGIT when it holds a digit: what gates test."""
    found = set(_WORD.findall(folded))
    if _ANY_DIGIT.search(folded):
        found.add(DIGIT)
    return found


ABSOLUTE = (
    # 2023-12-29, 2023/12/29, 2023.12.29 (a time may follow: 2023-12-29T10:00)
    Form(
        _compile(
            r"(?<![\w./:-])(?P<year>\d{4})(?P<sep>[-/.])(?P<month>\d{1,2})(?P=sep)"
            r"(?P<day>\d{1,2})(?!\d|[-/.:]\d)"
        ),
        _iso,
        False,
        _DIGITS,
    ),
    # 2023-12
    Form(
        _compile(r"(?<![\w./:-])(?P<year>\d{4})-(?P<month>0[1-9]|1[0-2])(?!\d|[-/.:]\d)"),
        _iso,
        False,
        _DIGITS,
    ),
    # 29/12/2023, 12/29/23, 29.12.2023, 29-12-2023
    Form(
        _compile(
            r"(?<![\w./:-])(?P<a>\d{1,2})(?P<sep>[-/.])(?P<b>\d{1,2})(?P=sep)"
            r"(?P<year>\d{4}|\d{2})(?!\d|[-/.:]\d)"
        ),
        _numeric,
        False,
        _DIGITS,
    ),
    # on 29/12, by 3/5: without a year only after a word that introduces a date
    Form(
        _compile(
            _B + r"(?:on|by|until|till|from|since|before|after)\s+"
            r"(?P<a>\d{1,2})/(?P<b>\d{1,2})(?![\d/]|\.\d)"
        ),
        _numeric,
        False,
        _DIGITS,
    ),
    # (Friday,) 29 Dec 2023, the 29th of December, 3 May
    Form(
        _compile(
            _B + _WEEKDAY_PREFIX + r"(?:the\s+)?" + _DAY + rf"(?:\s+of)?\s+(?P<mon>{_ANY_MONTH})"
            + _E + r"(?:,?\s+" + _YEAR + ")?"
        ),
        _named,
        False,
        _MONTH_WORDS,
    ),
    # (Fri) Dec. 29th, 2023, December 29, May 3
    Form(
        _compile(
            _B + _WEEKDAY_PREFIX + rf"(?P<mon>{_ANY_MONTH})\s+(?:the\s+)?" + _DAY
            + r"(?:,?\s+" + _YEAR + r")?(?![:%]|\s*[\d:%])"
        ),
        _named,
        False,
        _MONTH_WORDS,
    ),
    # Dec 2023, December, 2023, May '23
    Form(
        _compile(_B + rf"(?P<mon>{_ANY_MONTH}),?\s+(?:of\s+)?" + _YEAR), _named, False, _MONTH_WORDS
    ),
    # in May, since June 2022, in mid-July, by the end of Sept ("May" alone is a verb)
    Form(
        _compile(
            _B + r"(?:(?:(?:in|by|until|till|from|since|before|after|around|during|through)"
            r"\s+)?(?:the\s+)?(?:early|late|mid|(?:end|beginning|start|middle)\s+of)"
            r"|in|of|during|since|until|till|by|before|after|from|through|throughout|around)"
            rf"[\s-]+(?P<mon>{_PREP_MONTH})" + _E + r"(?:,?\s+" + _YEAR + ")?"
        ),
        _named,
        False,
        _MONTH_WORDS,
    ),
    # 2022 (1900-2099 alone: a bare number is a year only there)
    Form(
        _compile(
            r"(?<![\w$£€#./:-])(?<!\d\s)(?P<year>(?:19|20)\d\d)(?!\w|[.,:/-]\d|\s*%)"
            + _NOT_AN_AMOUNT
        ),
        _bare_year,
        False,
        _DIGITS,
    ),
)  # fmt: skip

RELATIVE = (
    Form(
        _compile(
            _B + r"(?P<word>the\s+day\s+before\s+yesterday|the\s+day\s+after\s+tomorrow|"
            r"yesterday|today|tonight|tomorrow|last\s+night|"
            r"this\s+(?:morning|afternoon|evening))" + _E
        ),
        _words,
        True,
        _DAY_WORDS,
    ),
    Form(
        _compile(
            _B + r"the\s+(?P<unit>week|weekend|month|year|" + _WEEKDAY + r")\s+"
            r"(?P<dir>before\s+last|after\s+next)" + _E
        ),
        _before_last,
        True,
        _BEFORE_LAST,
    ),
    Form(
        _compile(
            _B + r"(?:the\s+|these\s+)?(?P<which>last|past|previous|next|coming)\s+"
            + _ABOUT + rf"(?P<count>{_COUNT})\s+(?P<unit>{_UNIT})" + _E
        ),
        _stretch,
        True,
        _UNIT_WORDS,
    ),
    Form(
        _compile(
            _B + r"(?P<which>this\s+past|this\s+coming|last|this|past|next|coming|previous)\s+"
            r"(?:(?P<unit>week|weekend|month|year|fortnight)"
            rf"|(?P<weekday>{_ANY_WEEKDAY})|(?P<month>{_ANY_MONTH})"
            rf"|(?P<season>{_alternation(_SEASONS)}))" + _E
        ),
        _which,
        True,
        _WHICH,
    ),
    Form(
        _compile(
            _B + _ABOUT + rf"(?P<count>{_COUNT})\s+(?P<unit>{_UNIT})\s+(?:ago|back)" + _E
        ),
        _ago,
        True,
        _AGO,
    ),
    Form(
        _compile(
            _B + r"(?:in|within)\s+" + _ABOUT + rf"(?P<count>{_COUNT})\s+(?P<unit>{_UNIT})"
            + _E + r"(?!\s+ago)"
        ),
        _ahead,
        True,
        _UNIT_WORDS,
    ),
    Form(
        _compile(_B + rf"(?P<count>{_COUNT})\s+(?P<unit>{_UNIT})\s+from\s+(?:now|today)" + _E),
        _ahead,
        True,
        _FROM_NOW,
    ),
    Form(
        _compile(_B + r"(?:over|at|on|during)\s+the\s+weekend" + _E),
        _the_weekend,
        True,
        _WEEKEND,
    ),
    # A weekday alone: its word is the same in the day words of every such weekday.
    Form(
        _compile(_B + rf"on\s+(?P<weekday>{_ANY_WEEKDAY})" + _E),
        _bare_weekday,
        False,
        _WEEKDAY_WORDS,
    ),
    Form(_compile(_B + rf"(?P<weekday>{_WEEKDAY})" + _E), _bare_weekday, False, _WEEKDAY_FULL),
)  # fmt: skip


# Anchored on the date right after it: "the week before 9 June", "two days after",
# "the Friday before", "the week of", "the weekend of".
ANCHOR = _compile(
    _B + r"(?:(?:the|last)\s+)?(?:(?:" + rf"(?P<count>{_COUNT})\s+)?(?P<unit>{_UNIT})"
    + rf"|(?P<weekday>{_WEEKDAY}))\s+(?P<dir>before|after|of)\s+$"
)  # fmt: skip


def anchored(match: re.Match[str], anchor: Span) -> Span | None:
    direction = match["dir"].lower()
    unit = _unit(match["unit"]) if match["unit"] else None
    if direction == "of":  # the week of 23 August: that week, Monday to Sunday
        monday = _monday(anchor.start)
        if unit == "weekend":
            return span(_shift(monday, 5), _shift(monday, 6))
        return span(monday, _shift(monday, 6))
    if unit is None:
        length = 7  # "the Friday before 15 July": within the week before
    else:
        length = _count(match["count"] or "1") * UNITS[unit]
    if direction == "before":
        return span(_shift(anchor.start, -length), anchor.start)
    return span(anchor.end, _shift(anchor.end, length))


# What a text must hold for any form to match: every gate's words.
MAYBE = frozenset(word for form in ABSOLUTE + RELATIVE for word in form.needs)
