"""Relative dates: the written forms resolved against a reference day (for a question,
today; for a stored message, the day it was written), each a pattern with the days it names.

"yesterday", "last Friday", "last Fri", "two weeks ago", "a couple of days ago", "the week
before last", "last month", "this summer", "next Tuesday", "in 3 days", "two weeks from now",
"the last two weeks", "over the weekend", and a bare weekday ("on Friday": the last one, or
the next when the words around it speak of the future). Vocabulary and arithmetic:
kit/dates/words.py.
"""

from __future__ import annotations

import re
from datetime import date

from kit.dates.words import (
    ABOUT,
    AGO,
    ANY_MONTH,
    ANY_WEEKDAY,
    BEFORE_LAST,
    COUNT,
    DAY_WORDS,
    FROM_NOW,
    SEASONS,
    UNIT,
    UNIT_WORDS,
    UNITS,
    WEEKDAY,
    WEEKDAY_FULL,
    WEEKDAY_WORDS,
    WEEKDAYS,
    WEEKEND,
    WHICH,
    WORD_END,
    WORD_START,
    DateOrder,
    Form,
    Span,
    alternation,
    compile_form,
    count_of,
    monday_of,
    month_of,
    month_span,
    shift,
    single_day,
    span,
    speaks_of_future,
    unit_of,
    weekday_of,
    weekend_of,
    year_span,
)


def _words(match: re.Match[str], text: str, today: date, order: DateOrder) -> Span | None:
    word = " ".join(match["word"].lower().split())
    offsets = {"yesterday": -1, "last night": -1, "tomorrow": 1, "the day before yesterday": -2}
    offsets["the day after tomorrow"] = 2
    return single_day(shift(today, offsets.get(word, 0)))


def _season(name: str, year: int) -> Span | None:
    first = SEASONS[name.lower()]
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
        weekday = weekday_of(match["weekday"])
        if back:  # the latest one before today
            return single_day(shift(today, -((today.weekday() - weekday) % 7 or 7)))
        if ahead:  # the first after today; "next Friday" said early in a week may mean
            first = shift(today, (weekday - today.weekday()) % 7 or 7)  # the week after
            monday = monday_of(today, 1)
            if first is not None and monday is not None and first < monday:
                return span(first, shift(first, 7))
            return single_day(first)
        return single_day(shift(monday_of(today), weekday))  # this Friday: this week's
    if match["month"]:
        month = month_of(match["month"])
        if month == 5 and which == "this" and re.match(r"\s*[^\W\d_]", text[match.end() :]):
            return None  # "this may be": the verb
        if which == "this":
            return month_span(today.year, month)
        if back:
            return month_span(today.year if month < today.month else today.year - 1, month)
        return month_span(today.year if month > today.month else today.year + 1, month)
    if match["season"]:
        return _which_season(match["season"], which, today)
    unit = unit_of(match["unit"])
    if which in ("past", "this past") and unit != "weekend":  # the seven days up to today
        return span(shift(today, -UNITS[unit]), today)
    step = -1 if back else 1 if ahead else 0
    if unit == "weekend":
        return weekend_of(today, step)
    if unit in ("week", "fortnight"):
        monday = monday_of(today, step * (2 if unit == "fortnight" and step < 0 else 1))
        return span(monday, shift(monday, 13 if unit == "fortnight" else 6))
    if unit == "month":
        return month_span(today.year, today.month + step)
    if unit == "year":
        return year_span(today.year + step)
    return None  # "last day", "next decade": no span


def _before_last(match: re.Match[str], text: str, today: date, order: DateOrder) -> Span | None:
    """the week / weekend / month / year / Friday before last; after next."""
    unit = match["unit"].lower()
    step = -2 if match["dir"].lower() == "before last" else 2
    if unit in WEEKDAYS:
        if step < 0:
            return single_day(shift(today, -((today.weekday() - WEEKDAYS[unit]) % 7 or 7) - 7))
        return single_day(shift(today, ((WEEKDAYS[unit] - today.weekday()) % 7 or 7) + 7))
    if unit == "weekend":
        return weekend_of(today, step)
    if unit == "week":
        monday = monday_of(today, step)
        return span(monday, shift(monday, 6))
    if unit == "month":
        return month_span(today.year, today.month + step)
    return year_span(today.year + step)


def _ago(match: re.Match[str], text: str, today: date, order: DateOrder) -> Span | None:
    """n units ago: not exact, so a unit either side (never after today)."""
    unit = UNITS[unit_of(match["unit"])]
    centre = shift(today, -count_of(match["count"]) * unit)
    end = shift(centre, unit)
    return span(shift(centre, -unit), min(today, end) if end else today)


def _ahead(match: re.Match[str], text: str, today: date, order: DateOrder) -> Span | None:
    """in n units / n units from now: a unit either side (never before today)."""
    unit = UNITS[unit_of(match["unit"])]
    centre = shift(today, count_of(match["count"]) * unit)
    start = shift(centre, -unit)
    return span(max(today, start) if start else today, shift(centre, unit))


def _stretch(match: re.Match[str], text: str, today: date, order: DateOrder) -> Span | None:
    """the last / next n units: from n units ago up to today, or from today on."""
    days = count_of(match["count"]) * UNITS[unit_of(match["unit"])]
    if match["which"].lower() in ("next", "coming"):
        return span(today, shift(today, days))
    return span(shift(today, -days), today)


def _the_weekend(match: re.Match[str], text: str, today: date, order: DateOrder) -> Span | None:
    """over / at / on the weekend: the one under way or just gone, or the coming one."""
    if today.weekday() >= 5:
        return weekend_of(today, 0)
    return weekend_of(today, 0 if speaks_of_future(text, match.start(), match.end()) else -1)


def _bare_weekday(match: re.Match[str], text: str, today: date, order: DateOrder) -> Span | None:
    """(on) Friday: the last one (today included), or the next when the clause speaks of
    the future."""
    weekday = weekday_of(match["weekday"])
    if speaks_of_future(text, match.start(), match.end()):
        return single_day(shift(today, (weekday - today.weekday()) % 7 or 7))
    return single_day(shift(today, -((today.weekday() - weekday) % 7)))


RELATIVE = (
    Form(
        compile_form(
            WORD_START + r"(?P<word>the\s+day\s+before\s+yesterday|the\s+day\s+after\s+tomorrow|"
            r"yesterday|today|tonight|tomorrow|last\s+night|"
            r"this\s+(?:morning|afternoon|evening))" + WORD_END
        ),
        _words,
        True,
        DAY_WORDS,
    ),
    Form(
        compile_form(
            WORD_START + r"the\s+(?P<unit>week|weekend|month|year|" + WEEKDAY + r")\s+"
            r"(?P<dir>before\s+last|after\s+next)" + WORD_END
        ),
        _before_last,
        True,
        BEFORE_LAST,
    ),
    Form(
        compile_form(
            WORD_START
            + r"(?:the\s+|these\s+)?(?P<which>last|past|previous|next|coming)\s+"
            + ABOUT
            + rf"(?P<count>{COUNT})\s+(?P<unit>{UNIT})"
            + WORD_END
        ),
        _stretch,
        True,
        UNIT_WORDS,
    ),
    Form(
        compile_form(
            WORD_START
            + r"(?P<which>this\s+past|this\s+coming|last|this|past|next|coming|previous)\s+"
            r"(?:(?P<unit>week|weekend|month|year|fortnight)"
            rf"|(?P<weekday>{ANY_WEEKDAY})|(?P<month>{ANY_MONTH})"
            rf"|(?P<season>{alternation(SEASONS)}))" + WORD_END
        ),
        _which,
        True,
        WHICH,
    ),
    Form(
        compile_form(
            WORD_START + ABOUT + rf"(?P<count>{COUNT})\s+(?P<unit>{UNIT})\s+(?:ago|back)" + WORD_END
        ),
        _ago,
        True,
        AGO,
    ),
    Form(
        compile_form(
            WORD_START
            + r"(?:in|within)\s+"
            + ABOUT
            + rf"(?P<count>{COUNT})\s+(?P<unit>{UNIT})"
            + WORD_END
            + r"(?!\s+ago)"
        ),
        _ahead,
        True,
        UNIT_WORDS,
    ),
    Form(
        compile_form(
            WORD_START + rf"(?P<count>{COUNT})\s+(?P<unit>{UNIT})\s+from\s+(?:now|today)" + WORD_END
        ),
        _ahead,
        True,
        FROM_NOW,
    ),
    Form(
        compile_form(WORD_START + r"(?:over|at|on|during)\s+the\s+weekend" + WORD_END),
        _the_weekend,
        True,
        WEEKEND,
    ),
    # A weekday alone: its word is the same in the day words of every such weekday.
    Form(
        compile_form(WORD_START + rf"on\s+(?P<weekday>{ANY_WEEKDAY})" + WORD_END),
        _bare_weekday,
        False,
        WEEKDAY_WORDS,
    ),
    Form(
        compile_form(WORD_START + rf"(?P<weekday>{WEEKDAY})" + WORD_END),
        _bare_weekday,
        False,
        WEEKDAY_FULL,
    ),
)
