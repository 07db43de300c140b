"""When a reminder fires: the schedule rules, resolved in the owner's zone, validated whole.

The model passes structured fields, never free text: `at` (a local date and time,
"2026-11-24T09:00") or `in_minutes`, and for a repeat `repeat` (daily, weekdays, weekly),
`time` ("HH:MM") and, for weekly, `weekday`. Everything is checked here and a bad value is an
InputError whose message tells the model (and through it the owner) what to change.

Local times that a DST change skips or repeats follow one rule:
- a skipped time (02:30 on the spring-forward night) moves forward by the gap (03:30): a
  reminder is late by an hour rather than early, and never lost;
- a repeated time (01:30 on the autumn night) fires once, at its first occurrence.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from typing import Literal

from kit.errors import InputError
from kit.untrusted.clean import clean_text

log = logging.getLogger(__name__)

Repeat = Literal["none", "daily", "weekdays", "weekly"]
REPEATS: tuple[Repeat, ...] = ("none", "daily", "weekdays", "weekly")
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
MAX_TEXT_CHARS = 1000
MAX_AHEAD_DAYS = 5 * 366  # about five years
MAX_IN_MINUTES = MAX_AHEAD_DAYS * 24 * 60


@dataclass(frozen=True)
class Rule:
    """A reminder's schedule: one local moment, or a repeat at a local time of day."""

    repeat: Repeat
    local_time: str | None = None  # "HH:MM" for repeats
    weekday: int | None = None  # 0 = Monday, for weekly

    def describe(self) -> str:
        if self.repeat == "none":
            return "once"
        if self.repeat == "weekly" and self.weekday is not None:
            return f"every {WEEKDAYS[self.weekday].capitalize()} at {self.local_time}"
        every = "every day" if self.repeat == "daily" else "every weekday (Mon-Fri)"
        return f"{every} at {self.local_time}"


@dataclass(frozen=True)
class Resolved:
    """A validated schedule: the rule and the first fire time (UTC), plus a note for the
    model when a DST change moved the time it asked for."""

    rule: Rule
    first_fire: datetime
    note: str = ""


def wall_time(day: date, at: time, tz: tzinfo) -> tuple[datetime, str]:
    """The instant (UTC) of local `day` `at` in `tz`, by the DST rule above, and a note
    when the clock skips that time."""
    local = datetime.combine(day, at, tzinfo=tz).replace(fold=0)
    instant = local.astimezone(UTC)
    back = instant.astimezone(tz)
    if back.replace(tzinfo=None) != local.replace(tzinfo=None):
        shown = back.strftime("%H:%M")
        return instant, (
            f"{at.strftime('%H:%M')} does not exist on {day.isoformat()} (the clocks go "
            f"forward), so it fires at {shown}"
        )
    return instant, ""


def _matches(rule: Rule, day: date) -> bool:
    if rule.repeat == "weekdays":
        return day.weekday() < 5
    if rule.repeat == "weekly":
        return day.weekday() == rule.weekday
    return True


def next_fire(rule: Rule, after: datetime, tz: tzinfo) -> datetime | None:
    """The rule's first fire time strictly after `after` (UTC), or None for a one-off."""
    if rule.repeat == "none" or rule.local_time is None:
        return None
    at = parse_hhmm(rule.local_time)
    day = after.astimezone(tz).date() - timedelta(days=1)  # a fold can put it "yesterday"
    for _ in range(10):  # every rule matches within a week
        if _matches(rule, day):
            instant, _ = wall_time(day, at, tz)
            if instant > after:
                return instant
        day += timedelta(days=1)
    raise AssertionError(f"no fire time found for {rule}")  # pragma: no cover


def parse_hhmm(text: str) -> time:
    cleaned = text.strip()
    try:
        hours, minutes = cleaned.split(":")
        if len(hours) not in (1, 2) or len(minutes) != 2:
            raise ValueError
        return time(int(hours), int(minutes))
    except ValueError:
        raise InputError(
            f"time {_shown(text)} is not a time of day; use HH:MM on a 24-hour clock, "
            "e.g. 08:30 or 17:00"
        ) from None


def parse_weekday(value: object) -> int:
    text = str(value or "").strip().lower()
    for number, name in enumerate(WEEKDAYS):
        if text in (name, name[:3]):
            return number
    raise InputError(
        f"weekday {_shown(text)} is not a day of the week; use one of {', '.join(WEEKDAYS)}"
    )


def parse_local(text: str, tz: tzinfo) -> tuple[datetime, str]:
    """A local "YYYY-MM-DDTHH:MM" (an offset, if given, is honoured) as an instant (UTC)."""
    cleaned = text.strip()
    try:
        parsed = datetime.fromisoformat(cleaned)
    except ValueError:
        raise InputError(_bad_date(cleaned)) from None
    try:
        if parsed.tzinfo is not None:
            return parsed.astimezone(UTC), ""
        return wall_time(parsed.date(), parsed.time().replace(second=0, microsecond=0), tz)
    except OverflowError:  # the year 1 or 9999 with an offset: no such instant in UTC
        raise InputError(
            f"at {_shown(cleaned)} is outside the times Kit can schedule (from now to five "
            "years ahead); ask the owner which time they mean"
        ) from None


def _bad_date(text: str) -> str:
    """Why `text` is not a date and time: an impossible day gets named as such."""
    head = text[:10]
    try:
        year, month, day = (int(part) for part in head.split("-"))
        first = date(year, month, 1)
    except ValueError:
        return (
            f"at {_shown(text)} is not a date and time; use the owner's local time as "
            "YYYY-MM-DDTHH:MM, e.g. 2026-11-24T09:00"
        )
    following = (first + timedelta(days=32)).replace(day=1)
    days = (following - first).days
    if not 1 <= day <= days:
        return (
            f"{head} is not a real date: {first.strftime('%B %Y')} has {days} days; "
            "ask the owner which day they mean"
        )
    return f"at {_shown(text)} has no valid time of day; use YYYY-MM-DDTHH:MM, e.g. {head}T09:00"


def resolve(
    *,
    now: datetime,
    tz: tzinfo,
    repeat: object = "none",
    at: object = None,
    in_minutes: object = None,
    local_time: object = None,
    weekday: object = None,
) -> Resolved:
    """Validate the model's fields and work out the first fire time; InputError says why not."""
    kind = str(repeat or "none").strip().lower()
    if kind not in REPEATS:
        raise InputError(
            f"repeat {_shown(kind)} is not supported; Kit repeats {', '.join(REPEATS[1:])} "
            "(or none for once). Tell the owner, or schedule the next one-off instead"
        )
    if kind == "none":
        return _once(now, tz, at, in_minutes)
    if at is not None or in_minutes is not None:
        raise InputError(
            "a repeating reminder takes `time` (HH:MM), and `weekday` for weekly, not `at` "
            "or `in_minutes`"
        )
    if local_time is None:
        raise InputError(f"a {kind} reminder needs `time` as HH:MM in the owner's zone")
    at_time = parse_hhmm(_text("time", local_time))
    day_number = None
    if kind == "weekly":
        if weekday is None:
            raise InputError("a weekly reminder needs `weekday` (monday ... sunday)")
        day_number = parse_weekday(weekday)
    elif weekday is not None:
        raise InputError(f"`weekday` is only for weekly reminders, not {kind}")
    rule = Rule(kind, at_time.strftime("%H:%M"), day_number)
    first = next_fire(rule, now, tz)
    assert first is not None
    _, note = wall_time(first.astimezone(tz).date(), at_time, tz)
    return Resolved(rule, first, note)


def _once(now: datetime, tz: tzinfo, at: object, in_minutes: object) -> Resolved:
    if (at is None) == (in_minutes is None):
        raise InputError(
            "say when: `at` as the owner's local YYYY-MM-DDTHH:MM, or `in_minutes` "
            "(exactly one of them)"
        )
    note = ""
    if in_minutes is not None:
        if isinstance(in_minutes, bool) or not isinstance(in_minutes, int | float):
            raise InputError("`in_minutes` must be a whole number of minutes, e.g. 20")
        if not 1 <= in_minutes <= MAX_IN_MINUTES:
            raise InputError(
                f"`in_minutes` must be between 1 and {MAX_IN_MINUTES:,} (five years); "
                f"got {in_minutes:g}"
            )
        fire = now + timedelta(minutes=int(in_minutes))
    else:
        fire, note = parse_local(_text("at", at), tz)
    local_now = now.astimezone(tz).strftime("%Y-%m-%d %H:%M")
    if fire <= now:
        shown = fire.astimezone(tz).strftime("%Y-%m-%d %H:%M")
        raise InputError(
            f"{shown} has already passed (it is now {local_now} in the owner's zone); "
            "pick a time in the future"
        )
    if fire > now + timedelta(days=MAX_AHEAD_DAYS):
        raise InputError(
            f"that is more than five years ahead (it is now {local_now}); Kit schedules "
            "up to five years out"
        )
    return Resolved(Rule("none"), fire, note)


def _text(name: str, value: object) -> str:
    if not isinstance(value, str):
        raise InputError(
            f"`{name}` must be text, e.g. {_EXAMPLES[name]} (got {type(value).__name__})"
        )
    return value


_EXAMPLES = {"at": "2026-11-24T09:00", "time": "08:30", "text": "call Ana"}


def _shown(value: str) -> str:
    """Model input echoed back to the model: short, on one line."""
    text = " ".join(str(value).split())
    return repr(text if len(text) <= 40 else text[:37] + "...")


def check_text(value: object) -> str:
    if value is None:
        value = ""
    if not isinstance(value, str):  # never stored as a list's or a number's repr
        raise InputError(
            f"text must be a sentence (a string), not {type(value).__name__}: say what to "
            "remind the owner of, or what to do"
        )
    text = clean_text(value).strip()
    if not text:
        raise InputError("text is empty: say what to remind the owner of, or what to do")
    if len(text) > MAX_TEXT_CHARS:
        raise InputError(
            f"text has {len(text):,} characters; the limit is {MAX_TEXT_CHARS:,}: keep the "
            "gist in a sentence or two"
        )
    # The secret detector (half a second to load) loads when a reminder is set, not when one
    # is read: a client of the daemon reads reminders and never sets one.
    from kit.secrets import find_secret

    secret = find_secret(text)
    if secret:
        digest = hashlib.sha256(text.encode()).hexdigest()[:8]
        log.info("reminder refused: the text looked like %s (sha256 %s)", secret, digest)
        raise InputError(
            f"not stored: the text looks like {secret}, and Kit does not keep secrets in "
            "reminders; tell the owner, and remind them without the secret itself"
        )
    return text
