"""Absolute dates: the written forms that name their days outright, each a pattern with
the days it names (kit/dates/text.py finds them and picks the longest non-overlapping ones).

"29 Dec 2023", "Dec. 29th, 2023", "the 29th of December", "December 2023", "in May",
"2023-12-29", "2023-12", "29/12/2023", "12/29/23", "29.12.2023", "on 29/12", "2023", and
ranges of days ("14-15 September", "June 28 to 2 July"). A day after a month is that day
whatever preposition comes before it ("by November 15" is the 15th, not November). Numeric
day and month are read in the order the owner writes them (`DateOrder`), unless one part is
over 12 and settles it. A day or month given without a year is the latest one not after the
reference day, or the next one when the words around it speak of the future ("I'll see her
on 3 May"). "The week before 9 June", "two days after 3 May", "the week of 12 June" are
anchored on the date that follows (`ANCHOR`, `anchored`). Vocabulary and arithmetic:
kit/dates/words.py; relative dates: kit/dates/relative.py.
"""

from __future__ import annotations

import re
from datetime import date

from kit.dates.words import (
    ABBREVIATIONS,
    ANY_MONTH,
    COUNT,
    DAY,
    DIGITS,
    MONTH_WORDS,
    MONTHS,
    PREP_MONTH,
    UNIT,
    UNITS,
    WEEKDAY,
    WEEKDAY_PREFIX,
    WORD_END,
    WORD_START,
    YEAR,
    DateOrder,
    Form,
    Span,
    compile_form,
    count_of,
    day_or_none,
    monday_of,
    month_of,
    month_span,
    shift,
    span,
    speaks_of_future,
    unit_of,
    year_of,
    year_span,
)


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
            found_day = day_or_none(year, month, day)
            if found_day and (found_day >= today if ahead else found_day <= today):
                return Span(found_day, found_day)
    return None


def _named(match: re.Match[str], text: str, today: date, order: DateOrder) -> Span | None:
    """Day and / or month in words, with or without a year."""
    groups = match.groupdict()
    month = month_of(groups["mon"])
    day = int(groups["day"]) if groups.get("day") else None
    if groups.get("year"):
        year = year_of(groups["year"], today)
        if day is None:
            return month_span(year, month)
        found = day_or_none(year, month, day)
        return Span(found, found) if found else None
    return _nearest(month, day, today, speaks_of_future(text, match.start(), match.end()))


def _named_range(match: re.Match[str], text: str, today: date, order: DateOrder) -> Span | None:
    """Days of one month ("14-15 September", "September 14 to 16"): from the first day, in
    the year `_named` gives it, to the last."""
    first = _named(match, text, today, order)
    if first is None:
        return None
    last = day_or_none(first.start.year, first.start.month, int(match["last"]))
    return Span(first.start, last) if last is not None and last > first.start else None


def _across(match: re.Match[str], text: str, today: date, order: DateOrder) -> Span | None:
    """Days from one month into another ("June 28 to 2 July", "Dec 30 - 2 Jan 2024"): from
    the first day, in the year `_named` gives it (a year said is the last day's), to the
    last day in that year or, when the months wrap, the next. A range over more than six
    months ahead is one written backwards ("July 28 to 2 June"): none."""
    first_month, last_month = month_of(match["mon"]), month_of(match["mon2"])
    if (last_month - first_month) % 12 > 6:
        return None
    wraps = int(last_month < first_month)  # 30 Dec to 2 Jan: into the next year
    if match["year"]:
        last_year = year_of(match["year"], today)
        first = day_or_none(last_year - wraps, first_month, int(match["day"]))
    else:
        near = _nearest(
            first_month,
            int(match["day"]),
            today,
            speaks_of_future(text, match.start(), match.end()),
        )
        first = near.start if near is not None else None
        last_year = first.year + wraps if first is not None else 0
    if first is None or not 1 <= last_year <= 9999:
        return None
    last = day_or_none(last_year, last_month, int(match["last"]))
    return Span(first, last) if last is not None and last > first else None


def _iso(match: re.Match[str], text: str, today: date, order: DateOrder) -> Span | None:
    year, month = int(match["year"]), int(match["month"])
    if match.groupdict().get("day") is None:
        return month_span(year, month) if 1 <= month <= 12 else None
    found = day_or_none(year, month, int(match["day"]))
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
        if day_or_none(2000, month, day) is None:  # no such day in any year
            return None
        return _nearest(month, day, today, speaks_of_future(text, match.start(), match.end()))
    year = int(raw) if len(raw) == 4 else year_of("'" + raw, today)
    found = day_or_none(year, month, day)
    return Span(found, found) if found else None


def _bare_year(match: re.Match[str], text: str, today: date, order: DateOrder) -> Span | None:
    return year_span(int(match["year"]))


# What a number counts ("2000 steps", "15 people"): then it is no year, and no day.
_COUNTS = (
    r"steps|people|calories|words|km|kilometers|miles|dollars|euros|pounds|points"
    r"|feet|foot|meters|metres|kg|lbs|followers|views|likes|times|members|users|pieces"
    r"|pages|hours|minutes|seconds|days|weeks|months|years"
)
_NOT_AN_AMOUNT = rf"(?!\s+(?:{_COUNTS})\b)"
_LAST_DAY = (  # "-15", " to 15th": the last day of a range in one month
    r"(?:\s*[-–—]\s*|\s+(?:to|through|thru|and)\s+)(?P<last>3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th)?"
)
_TO_DAY = (  # " to 2nd", " - 2": the last day of a range that runs into another month
    r"(?:\s*[-–—]\s*|\s+(?:to|through|thru)\s+)(?P<last>3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th)?"
)
# "May 3 and 5 June" is two days, not the 3rd to 5th of either month: a range in one month
# begins with no other month's day ("May 3 ...") and ends before no other month ("... June";
# "may" after it is the verb: "September 14 and 15 may be busy").
_NO_MONTH_BEFORE = "".join(
    rf"(?<!{re.escape(name)}\s)"
    for name in sorted({*MONTHS, *ABBREVIATIONS, *(f"{a}." for a in ABBREVIATIONS)})
)
_NO_MONTH_AFTER = (
    r"(?!(?:\s+of)?\s+(?:"
    + "|".join(sorted((m for m in MONTHS if m != "may"), key=len, reverse=True))
    + "|(?:"
    + "|".join(sorted(ABBREVIATIONS, key=len, reverse=True))
    + r")\.?)(?!\w))"
)
# A day number after a month, as the month-and-day forms below read it ("November 15",
# "May 3rd, 2024", "Sept 14-15"), and not a number that counts ("by May, 15 of us",
# "in May 5 people joined"): where one follows, a month after a preposition is not the
# whole month ("by November 15" is the 15th; "the week of May 5" is that week).
_COUNTED = (
    rf"\s+(?:{_COUNTS}|guests|kids|children|friends|of\s+(?:us|them|you|those|these|whom"
    r"|which|our|their|my|his|her))(?!\w)"
)
_DAY_FOLLOWS = (
    r"\s+(?:the\s+)?(?:3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th)?(?!\w)"
    r"(?:,?\s+(?:\d{4}|['’]\d\d)(?!\w))?(?![:%]|\s*[\d:%])(?!" + _COUNTED + ")"
)
ABSOLUTE = (
    # 2023-12-29, 2023/12/29, 2023.12.29 (a time may follow: 2023-12-29T10:00)
    Form(
        compile_form(
            r"(?<![\w./:-])(?P<year>\d{4})(?P<sep>[-/.])(?P<month>\d{1,2})(?P=sep)"
            r"(?P<day>\d{1,2})(?!\d|[-/.:]\d)"
        ),
        _iso,
        False,
        DIGITS,
    ),
    # 2023-12
    Form(
        compile_form(r"(?<![\w./:-])(?P<year>\d{4})-(?P<month>0[1-9]|1[0-2])(?!\d|[-/.:]\d)"),
        _iso,
        False,
        DIGITS,
    ),
    # 29/12/2023, 12/29/23, 29.12.2023, 29-12-2023
    Form(
        compile_form(
            r"(?<![\w./:-])(?P<a>\d{1,2})(?P<sep>[-/.])(?P<b>\d{1,2})(?P=sep)"
            r"(?P<year>\d{4}|\d{2})(?!\d|[-/.:]\d)"
        ),
        _numeric,
        False,
        DIGITS,
    ),
    # on 29/12, by 3/5: without a year only after a word that introduces a date
    Form(
        compile_form(
            WORD_START + r"(?:on|by|until|till|from|since|before|after)\s+"
            r"(?P<a>\d{1,2})/(?P<b>\d{1,2})(?![\d/]|\.\d)"
        ),
        _numeric,
        False,
        DIGITS,
    ),
    # 14-15 September (2024), 14 to 16 Sept: days of one month
    Form(
        compile_form(
            WORD_START
            + r"(?=\d)"
            + _NO_MONTH_BEFORE
            + DAY
            + _LAST_DAY
            + rf"(?:\s+of)?\s+(?P<mon>{ANY_MONTH})"
            + WORD_END
            + r"(?:,?\s+"
            + YEAR
            + ")?"
        ),
        _named_range,
        False,
        MONTH_WORDS,
    ),
    # September 14-15 (, 2024), Sept. 14 to 16
    Form(
        compile_form(
            WORD_START
            + rf"(?P<mon>{ANY_MONTH})\s+"
            + DAY
            + _LAST_DAY
            + WORD_END
            + _NO_MONTH_AFTER
            + r"(?:,?\s+"
            + YEAR
            + r")?(?![:%]|\s*[\d:%])"
        ),
        _named_range,
        False,
        MONTH_WORDS,
    ),
    # June 28 to 2 July, Dec 30 - 2 Jan 2024: days from one month into another (read
    # whole, not as "June 28 to 2" or "28 to 2 July", whichever happened to be longer)
    Form(
        compile_form(
            WORD_START
            + rf"(?P<mon>{ANY_MONTH})\s+(?:the\s+)?"
            + DAY
            + _TO_DAY
            + rf"(?:\s+of)?\s+(?P<mon2>{ANY_MONTH})"
            + WORD_END
            + r"(?:,?\s+"
            + YEAR
            + ")?"
        ),
        _across,
        False,
        MONTH_WORDS,
    ),
    # (Friday,) 29 Dec 2023, the 29th of December, 3 May
    Form(
        compile_form(
            WORD_START
            + WEEKDAY_PREFIX
            + r"(?:the\s+)?"
            + DAY
            + rf"(?:\s+of)?\s+(?P<mon>{ANY_MONTH})"
            + WORD_END
            + r"(?:,?\s+"
            + YEAR
            + ")?"
        ),
        _named,
        False,
        MONTH_WORDS,
    ),
    # (Fri) Dec. 29th, 2023, December 29, May 3
    Form(
        compile_form(
            WORD_START
            + WEEKDAY_PREFIX
            + rf"(?P<mon>{ANY_MONTH})\s+(?:the\s+)?"
            + DAY
            + r"(?:,?\s+"
            + YEAR
            + r")?(?![:%]|\s*[\d:%])"
        ),
        _named,
        False,
        MONTH_WORDS,
    ),
    # Dec 2023, December, 2023, May '23
    Form(
        compile_form(WORD_START + rf"(?P<mon>{ANY_MONTH}),?\s+(?:of\s+)?" + YEAR),
        _named,
        False,
        MONTH_WORDS,
    ),
    # in May, since June 2022, in mid-July, by the end of Sept ("May" alone is a verb)
    Form(
        compile_form(
            WORD_START + r"(?:(?:(?:in|by|until|till|from|since|before|after|around|during|through)"
            r"\s+)?(?:the\s+)?(?:early|late|mid|(?:end|beginning|start|middle)\s+of)"
            r"|in|of|during|since|until|till|by|before|after|from|through|throughout|around)"
            rf"[\s-]+(?P<mon>{PREP_MONTH})"
            + WORD_END
            + r"(?:,?\s+"
            + YEAR
            + ")?"
            # "by November 15" is a day (a form above), not the month and a number
            + rf"(?!{_DAY_FOLLOWS})"
        ),
        _named,
        False,
        MONTH_WORDS,
    ),
    # 2022 (1900-2099 alone: a bare number is a year only there)
    Form(
        compile_form(
            r"(?<![\w$£€#./:-])(?<!\d\s)(?P<year>(?:19|20)\d\d)(?!\w|[.,:/-]\d|\s*%)"
            + _NOT_AN_AMOUNT
        ),
        _bare_year,
        False,
        DIGITS,
    ),
)

# Anchored on the date right after it: "the week before 9 June", "two days after",
# "the Friday before", "the week of", "the weekend of".
ANCHOR = compile_form(
    WORD_START
    + r"(?:(?:the|last)\s+)?(?:(?:"
    + rf"(?P<count>{COUNT})\s+)?(?P<unit>{UNIT})"
    + rf"|(?P<weekday>{WEEKDAY}))\s+(?P<dir>before|after|of)\s+$"
)


def anchored(match: re.Match[str], anchor: Span) -> Span | None:
    direction = match["dir"].lower()
    unit = unit_of(match["unit"]) if match["unit"] else None
    if direction == "of":  # the week of 23 August: that week, Monday to Sunday
        monday = monday_of(anchor.start)
        if unit == "weekend":
            return span(shift(monday, 5), shift(monday, 6))
        return span(monday, shift(monday, 6))
    if unit is None:
        length = 7  # "the Friday before 15 July": within the week before
    else:
        length = count_of(match["count"] or "1") * UNITS[unit]
    if direction == "before":
        return span(shift(anchor.start, -length), anchor.start)
    return span(anchor.end, shift(anchor.end, length))
