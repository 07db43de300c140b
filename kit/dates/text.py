"""Time in text: the days a text names, and whether a question asks for a time.

A text's dates, in every common written form ("29 Dec 2023", "2023-12-29", "29/12/2023":
kit/dates/forms.py; "last Friday", "two weeks ago", "the week before last", "over the
weekend": kit/dates/relative.py), become day spans resolved against a reference day:
for a question, today; for a stored message, the day it was written, so "last Friday" said on
Monday 8 May 2023 is 5 May 2023, and a later question about 5 May finds it (`said_spans`,
`named_days`). A month or day without a year is the latest one not after the reference day,
or the next one when the words around it speak of the future.

Search favours messages written inside a span the question names, or a little after it
(people tell of an event when it happens or soon after), and messages whose own words name a
day inside it. Where the words of a date would match by accident ("may", "3", "2023" are in
many messages; another message's "last week" meant another week), a question's date
expressions are matched as the days they name instead ("last Friday" -> "11 August 2023",
the words stored messages are indexed with).

`asks_when` and `mentions_time` pair a question that wants a time ("When did...", "How long
ago...", "Which month...", "Did X happen before Y?") with turns that give one: a date, a day
("yesterday", "last week"), or a duration ("for four years", "seven years now"). English
words; anything unparsed is left to the words.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from functools import lru_cache

from kit.dates.forms import ABSOLUTE, ANCHOR, anchored
from kit.dates.relative import RELATIVE
from kit.dates.words import (
    DIGIT,
    MONTH_NAMES,
    MONTHS,
    NUMBERS,
    UNITS,
    WEEKDAY_NAMES,
    WEEKDAYS,
    DateOrder,
    Form,
    fold,
    words,
)

# What a text must hold for any form to match: every gate's words.
MAYBE = frozenset(word for form in ABSOLUTE + RELATIVE for word in form.needs)

__all__ = [
    "DateMention",
    "DateOrder",
    "DateSpan",
    "asks_when",
    "date_mentions",
    "iso_spans",
    "mentions_time",
    "named_days",
    "order_from_locale",
    "said_days",
    "said_in",
    "said_spans",
    "span_words",
    "time_ahead",
    "with_days_as_words",
    "without",
]


# A time ahead of now, as people name one when they plan: "tomorrow", "on Friday", "next week",
# "this evening", "in two days", "at 5pm", "on 3 June". (Past words: kit/dates/relative.py.)
_DAYS = "|".join(WEEKDAYS)
_MONTH_NAMES = "|".join(sorted(MONTHS, key=len, reverse=True))
_NOT_MAY = "|".join(m for m in sorted(MONTHS, key=len, reverse=True) if m != "may")  # the verb
_AHEAD = re.compile(
    r"\b(?:tomorrow|tonight|later today|the day after tomorrow"
    r"|this\s+(?:morning|afternoon|evening|weekend)"
    r"|(?:next|this|coming|on)\s+(?:" + _DAYS + r"|week|weekend|month|year)"
    r"|(?:" + _DAYS + r")(?:\s+(?:morning|afternoon|evening|night))?"
    r"|in\s+(?:\d+|" + "|".join(sorted(NUMBERS, key=len, reverse=True)) + r")\s+"
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
        if self.start <= day <= self.end:
            return True
        return self.end < day and (day - self.end).days <= slack_days

    def overlaps(self, other: DateSpan) -> bool:
        return self.start <= other.end and other.start <= self.end


@dataclass(frozen=True)
class DateMention:
    span: DateSpan
    start: int  # character offsets of the words in the text
    end: int
    relative: bool  # "last week", "yesterday": its words mean another day in every message
    year_said: bool = True  # False: no year in its words ("3 May", "last Friday")
    # "the week before 9 June": the date it is anchored on, and where that date's words begin
    anchor: DateSpan | None = None
    anchor_start: int = 0


def date_mentions(text: str, today: date, order: DateOrder = "dmy") -> list[DateMention]:
    """Every date expression in `text` resolved to days, in order; `today` anchors relative
    ones and the year of a date given without one; `order` reads 03/05 as 3 May ("dmy") or
    5 March ("mdy") when neither number is over 12. Where forms overlap, the longest wins
    ("in June 2023" over "2023"), and words that look like a date but name no real day
    ("31 February", "2023-13-01") name none."""
    text = fold(text)  # same offsets, ASCII lower-cased: what the patterns read
    held = words(text)
    if held.isdisjoint(MAYBE):
        return []
    taken: list[tuple[int, int]] = []
    found: list[DateMention] = []
    for match, form in _select(text, held, ABSOLUTE, taken):
        span = form.resolve(match, text, today, order)
        if span is None:
            continue
        named = DateSpan(span.start, span.end)
        year_said = match.groupdict().get("year") is not None
        anchor = ANCHOR.search(text, 0, match.start())
        if anchor is not None and _overlaps(anchor.start(), anchor.end(), taken):
            anchor = None  # its count is another date's words ("2023-12-29 weeks before ...")
        extended = anchored(anchor, span) if anchor is not None else None
        if anchor is not None and extended is not None:
            taken.append((anchor.start(), match.end()))
            days = DateSpan(extended.start, extended.end)
            found.append(
                DateMention(
                    days, anchor.start(), match.end(), False, year_said, named, match.start()
                )
            )
        else:
            found.append(DateMention(named, match.start(), match.end(), False, year_said))
    for match, form in _select(text, held, RELATIVE, taken):
        span = form.resolve(match, text, today, order)
        if span is not None:
            days = DateSpan(span.start, span.end)  # no relative form says a year
            found.append(DateMention(days, match.start(), match.end(), form.relative, False))
    found.sort(key=lambda m: m.start)
    return found


def _overlaps(start: int, end: int, taken: Sequence[tuple[int, int]]) -> bool:
    return any(start < stop and begin < end for begin, stop in taken)


def _select(
    text: str, held: set[str], forms: Sequence[Form], taken: list[tuple[int, int]]
) -> list[tuple[re.Match[str], Form]]:
    """The forms' matches that overlap nothing in `taken` (which they join): longest
    first ("before August 11, 2023" is a day, not "before August"), then earliest, then the
    form listed first. A match that names no real day still
    takes its words: "31 February 2023" is not the year 2023."""
    found = []
    for rank, form in enumerate(forms):
        if not held.isdisjoint(form.needs):
            for match in form.pattern.finditer(text):
                found.append((-(match.end() - match.start()), match.start(), rank, match, form))
    found.sort(key=lambda f: f[:3])
    kept: list[tuple[re.Match[str], Form]] = []
    for _, start, _, match, form in found:
        if any(start < end and begin < match.end() for begin, end in taken):
            continue
        taken.append((start, match.end()))
        kept.append((match, form))
    return sorted(kept, key=lambda k: k[0].start())


_AMBIGUOUS = re.compile(r"\d[/.-]\d")  # a numeric date another reader might read the other way


@lru_cache(maxsize=16384)
def said_spans(text: str, day: date) -> tuple[DateSpan, ...]:
    """The days a message's text names, resolved against the day it was written. A numeric
    date both of whose numbers could be the month ("03/05") names both days: whoever wrote
    it, a search for either finds it."""
    spans = [m.span for m in date_mentions(text, day, "dmy")]
    if _AMBIGUOUS.search(text):
        spans += [m.span for m in date_mentions(text, day, "mdy") if m.span not in spans]
    return tuple(spans)


def said_days(text: str, day: date) -> str:
    """`said_spans` as stored beside a message (`messages.said_days`, m038): each span as
    "start/end" in ISO days, space-separated; "" when the text names no day. Derived from the
    text and the day alone, like `named_days`: a search reads it instead of parsing each
    candidate's text again (issue 33, round 14)."""
    return " ".join(f"{s.start.isoformat()}/{s.end.isoformat()}" for s in said_spans(text, day))


def iso_spans(spans: Sequence[DateSpan]) -> tuple[tuple[str, str], ...]:
    """Spans as their first and last ISO days, as `said_in` compares them."""
    return tuple((s.start.isoformat(), s.end.isoformat()) for s in spans)


def said_in(stored: str, spans: Sequence[tuple[str, str]]) -> bool:
    """Whether a span `said_days` stored overlaps one of `spans` (`iso_spans`), read without
    making dates of it: ISO days (four-digit years) compare as text."""
    for part in stored.split():
        start, end = part[:10], part[11:]
        if any(first <= end and start <= last for first, last in spans):
            return True
    return False


# At most this many of the days a message names are indexed with it (a long message listing
# many dates stays a message, not a calendar).
NAMED_DAYS_MAX = 8


def named_days(text: str, day: date) -> str:
    """The days a message written on `day` names, as the words its index holds beside its
    own day ("last Friday" said on Monday 8 May 2023 is Friday 5 May 2023): spans of up to
    `SPAN_DAYS` days, whole months and whole years (`span_words`). Only words the unit does
    not hold yet (the text's and its own day's: "Monday 8 May 2023"): a lexical unit is a
    bag of words, and restating one would only make the message longer ("5" here).
    Derived from the text and the day alone: rebuildable at any time."""
    spans = said_spans(text, day)
    if not spans:
        return ""
    held = words(fold(text))
    held |= {WEEKDAY_NAMES[day.weekday()].lower(), MONTH_NAMES[day.month - 1].lower()}
    held |= {str(day.day), str(day.year)}
    new: list[str] = []
    named = 0
    for span in spans:
        said = span_words(span)
        if not said:
            continue
        if span.start == span.end:
            said = f"{WEEKDAY_NAMES[span.start.weekday()]} {said}"
        for word in said.split():
            if word.lower() not in held:
                held.add(word.lower())
                new.append(word)
        named += 1
        if named == NAMED_DAYS_MAX:
            break
    return " ".join(new)


# Spans named by words: up to this many days by their days; whole calendar months (up to
# three) by their months; whole years (up to three) by their years. Other spans ("two weeks
# ago", "last summer" as a season) by no words: their days are matched by date (search's
# fit), not as words.
SPAN_DAYS = 3
_MONTHS_AT_MOST = 3
_YEARS_AT_MOST = 3


def span_words(span: DateSpan, max_days: int = SPAN_DAYS, *, years: bool = True) -> str:
    """The days of a span in the words messages' days are indexed with: "14 July 2023";
    "12 13 August 2023" (up to `max_days` days); "July August 2023" (whole months); "2022"
    (whole years); "" for any other span. Without `years`, days and months name no year
    (for a date the text gave without one: the year was only inferred)."""
    first, last = span.start, span.end
    days = (last - first).days + 1
    if days <= max_days:
        return _named([(first + timedelta(days=n)) for n in range(days)], True, years)
    whole_months = first.day == 1 and (last == date.max or (last + timedelta(days=1)).day == 1)
    if not whole_months:
        return ""
    if first.month == 1 and last.month == 12:
        if last.year - first.year + 1 > _YEARS_AT_MOST:
            return ""
        return " ".join(str(y) for y in range(first.year, last.year + 1))
    months = (last.year - first.year) * 12 + last.month - first.month + 1
    if months > _MONTHS_AT_MOST:
        return ""
    firsts = []
    for n in range(months):
        year, month = divmod(first.year * 12 + first.month - 1 + n, 12)
        firsts.append(date(year, month + 1, 1))
    return _named(firsts, False, years)


def _named(days: list[date], by_day: bool, years: bool) -> str:
    """'12 13 August 2023', '31 December 2022 1 January 2023', 'July August 2023'."""
    parts: list[str] = []
    for i, day in enumerate(days):
        following = days[i + 1] if i + 1 < len(days) else None
        if by_day:
            parts.append(str(day.day))
            if following is None or (following.year, following.month) != (day.year, day.month):
                parts.append(MONTH_NAMES[day.month - 1])
        else:
            parts.append(MONTH_NAMES[day.month - 1])
        if years and (following is None or following.year != day.year):
            parts.append(str(day.year))
    return " ".join(parts)


def without(text: str, mentions: Sequence[DateMention]) -> str:
    """The text with the date expressions cut out (what is left to match as words)."""
    return _replaced(text, mentions, lambda m: "")


def with_days_as_words(text: str, mentions: Sequence[DateMention], max_days: int) -> str:
    """The text with each date expression replaced by the days it names, in the words
    messages' days are indexed with (`span_words`, up to `max_days` days by their days; a
    year only where the text gave one: otherwise it matches every message of that year by
    accident, and the search's date fit prefers the right year); a weekday the
    expression names ("on Friday", "Fri 14 Jul") keeps its name. A span with no such words
    keeps its own when absolute ("the week before 21 Jun" -> "the week before 21 June") and
    loses them when relative ("two weeks ago" means another fortnight in every message)."""

    def words(mention: DateMention) -> str:
        found = span_words(mention.span, max_days, years=mention.year_said)
        said = text[mention.start : mention.end]
        if found:
            if not mention.relative and _NAMES_WEEKDAY.search(said):
                return f"{WEEKDAY_NAMES[mention.span.start.weekday()]} {found}"
            return found
        if mention.anchor is not None:  # "the week before" and the date it names
            named = span_words(mention.anchor, years=mention.year_said)
            return text[mention.start : mention.anchor_start] + (
                named or text[mention.anchor_start : mention.end]
            )
        return "" if mention.relative else said

    return _replaced(text, mentions, words)


_NAMES_WEEKDAY = re.compile(
    r"\b(?:" + "|".join(w.lower()[:3] for w in WEEKDAY_NAMES) + r")", re.IGNORECASE
)


def _replaced(
    text: str, mentions: Sequence[DateMention], words: Callable[[DateMention], str]
) -> str:
    kept, last = [], 0
    for mention in sorted(mentions, key=lambda m: m.start):
        if mention.start < last:
            continue
        kept.append(text[last : mention.start])
        kept.append(words(mention))
        last = mention.end
    kept.append(text[last:])
    return " ".join(" ".join(kept).split())


_WHEN = re.compile(
    r"^\W*(?:(?:and|so|but|ok(?:ay)?|hey|kit|remind\s+me|do\s+you\s+(?:know|remember|recall)"
    r"|can\s+you\s+tell\s+me|tell\s+me|any\s+idea|i\s+wonder)\W+)*when\b"
    r"|\bwhen\s+(?:did|was|were|is|are|will|do|does|has|have|had|exactly|again)\b"
    r"|\b(?:what|which)\s+(?:year|month|day|date|time|week|weekday|weekend|season|decade)\b"
    r"|\bhow\s+(?:long|old|recently|soon|much\s+(?:time|longer)|many\s+(?:days|weeks|months"
    r"|years|hours|nights|weekends|decades))\b"
    r"|\b(?:since|until|till|by)\s+when\b"
    r"|\b(?:before|after)\s+or\s+(?:before|after)\b|\bwhich\s+(?:came|happened|was)\s+first\b"
    r"|^\W*(?:did|was|were|is|are|has|had|do|does)\b[^?]*\b(?:before|after|earlier\s+than"
    r"|later\s+than|prior\s+to)\b"
    r"|\bthe\s+date\b",
    re.IGNORECASE,
)


def asks_when(question: str) -> bool:
    """The question wants a time, a duration or an order in time for its answer."""
    return _WHEN.search(question) is not None


# Words that place something in time on their own, and phrases that do, with the words
# one of them needs (a word-set test first: most texts hold none).
_TIME_WORDS = frozenset(
    ["yesterday", "today", "tonight", "tomorrow", "recently", "lately", "ago", "since"]
    + [w.lower() for w in WEEKDAY_NAMES]
    + [m.lower() for m in MONTH_NAMES if m != "May"]
)
_NUMBER_WORDS = "two three four five six seven eight nine ten eleven twelve few several couple"
_PHRASE_WORDS = frozenset(["other", "last", "this", "next", "past", "may", "for", "while"])
_PHRASE_WORDS |= frozenset(_NUMBER_WORDS.split()) | frozenset(UNITS) | {f"{u}s" for u in UNITS}
_COUNTS = r"\d+|" + "|".join(_NUMBER_WORDS.split()[:-3]) + r"|a\s+few|few|several"
_UNIT_WORDS = "|".join(sorted(UNITS, key=len, reverse=True))
_TIME_PHRASES = re.compile(
    r"\b(?:the\s+other\s+day"
    + rf"|(?:last|this|next|past)\s+(?:an?\s+)?(?:{_UNIT_WORDS}|weekend|night|morning|afternoon"
    r"|evening|time|summer|winter|spring|autumn|fall|few|couple|\d+|two|three|four|five|six)s?"
    r"|(?:19|20)\d\d|may\s+\d|\d+\s+may"
    # a duration: "for four years", "for a while", "seven years now", "10 years"
    + r"|for\s+(?:a|an|the\s+(?:last|past))?\s*(?:(?:about|almost|nearly|over|around)\s+)?"
    + rf"(?:(?:{_COUNTS}|couple\s+of)\s+)?(?:{_UNIT_WORDS})s?"
    + rf"|(?:{_COUNTS}|(?:a\s+)?couple(?:\s+of)?)\s+(?:more\s+)?(?:{_UNIT_WORDS})s?"
    + rf"|(?:in|within)\s+an?\s+(?:{_UNIT_WORDS})s?"
    + r"|(?:week|weekend|month|year|day)\s+(?:before\s+last|after\s+next)"
    + r"|for\s+a\s+while|for\s+ages)\b"
)  # matched against folded text
_SHORT_WORDS = frozenset(
    "jan feb mar apr may jun jul aug sep sept oct nov dec mon tue tues wed weds thu thur thurs"
    " fri sat sun weekend fortnight".split()
)
_PLAIN_DAY = date(2000, 1, 1)  # any reference day: only whether a form matches counts


@lru_cache(maxsize=16384)
def mentions_time(text: str) -> bool:
    """The text places something in time or says how long: a date in any written form, a
    day ("yesterday", "last week"), a weekday, a duration ("for four years")."""
    folded = fold(text)
    held = words(folded)
    if not held.isdisjoint(_TIME_WORDS):
        return True
    numbers = DIGIT in held
    if (numbers or not held.isdisjoint(_PHRASE_WORDS)) and _TIME_PHRASES.search(folded):
        return True
    # what only the date forms read: numeric days, abbreviations, "over the weekend"
    if numbers or not held.isdisjoint(_SHORT_WORDS):
        return bool(date_mentions(text, _PLAIN_DAY))
    return False


def time_ahead(text: str) -> str | None:
    """The words of a time ahead that `text` names ("on Friday", "tomorrow at 9am"), if any:
    what a plan is made for. Not resolved to a date: a plan's day is the owner's to say."""
    match = _AHEAD.search(text)
    return None if match is None else match.group(0)


# Regions whose people write the month first (03/05 is 5 March): the US and the places
# that follow its usage. Everywhere else, and where the locale says nothing, the day first.
_MONTH_FIRST = frozenset({"US", "PH", "FM", "MH", "PW", "GU", "AS", "MP", "PR", "VI", "UM"})


def order_from_locale(environ: Mapping[str, str]) -> DateOrder:
    """The owner's numeric date order from the locale variables (LC_ALL, LC_TIME, LANG):
    month first for en_US and the like, day first otherwise."""
    for key in ("LC_ALL", "LC_TIME", "LANG"):
        value = environ.get(key, "")
        if value:
            found = re.match(r"[A-Za-z]{2,3}_([A-Za-z]{2})\b", value)
            return "mdy" if found and found.group(1).upper() in _MONTH_FIRST else "dmy"
    return "dmy"
