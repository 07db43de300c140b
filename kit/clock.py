"""Time comes from here: an injectable clock with timezone-aware datetimes."""

from __future__ import annotations

import io
import os
import struct
from datetime import UTC, date, datetime, timedelta, tzinfo
from typing import Protocol
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from kit.errors import ConfigError, InputError


class Clock(Protocol):
    """Where "now" comes from. Always aware, always UTC."""

    def now(self) -> datetime: ...


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)


class FakeClock:
    """A clock that only moves when told to: for tests, benchmarks and evaluations."""

    def __init__(self, start: datetime) -> None:
        if start.tzinfo is None:
            raise ValueError("FakeClock needs a timezone-aware datetime")
        self._now = start.astimezone(UTC)

    def now(self) -> datetime:
        return self._now

    def set(self, when: datetime) -> None:
        self._now = when.astimezone(UTC)

    def advance(self, delta: timedelta) -> None:
        self._now += delta


def resolve_timezone(name: str) -> tzinfo:
    """The configured zone by IANA name, or the machine's local zone when empty (DST-aware)."""
    if name:
        try:
            return ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError) as exc:
            raise ConfigError(
                f"config.toml: schedule.timezone {name!r} is not a known IANA zone; "
                "use a name like 'Europe/Berlin' or leave it empty for the local zone"
            ) from exc
    env = os.environ.get("TZ", "").lstrip(":")
    if env:
        found = _zone_of_tz(env)
        if found is not None:
            return found
    try:
        import tzlocal

        return tzlocal.get_localzone()
    except Exception:  # tzlocal cannot read this machine's zone: UTC is the honest default
        return UTC


def _zone_of_tz(value: str) -> tzinfo | None:
    """$TZ as the C library reads it: an IANA name, a zone file's path, or a POSIX rule such
    as `<-03>3` or `EST5EDT,M3.2.0,M11.1.0` (with those, Kit took UTC while `date` said
    21:44 on Saturday: the digest's "today" was Sunday). None: not a zone."""
    try:
        return ZoneInfo(value)
    except (ZoneInfoNotFoundError, ValueError):
        pass
    try:
        if value.startswith("/"):
            with open(value, "rb") as zone_file:
                return ZoneInfo.from_file(zone_file, key=value)
        return ZoneInfo.from_file(io.BytesIO(_posix_tzif(value)), key=value)
    except (OSError, ValueError):
        return None


def _posix_tzif(rule: str) -> bytes:
    """A zone file (RFC 8536, version 2) with no transitions and `rule` as its footer, which
    then rules every moment: zoneinfo's own reading of a POSIX TZ rule, DST included."""
    header = b"TZif2" + b"\0" * 15 + struct.pack(">6l", 0, 0, 0, 0, 1, 1)  # 1 type, 1 char
    data = struct.pack(">lBB", 0, 0, 0) + b"\0"
    return header + data + header + data + b"\n" + rule.encode("ascii") + b"\n"


def local_date(when: datetime, tz: tzinfo) -> date:
    """The calendar day `when` falls on in the owner's zone."""
    return when.astimezone(tz).date()


def local_minute(when: datetime, tz: tzinfo, *, zone: bool = False) -> str:
    """A moment as the owner reads it: the local date and minute (and the zone's abbreviation,
    where nothing around it says which zone this is)."""
    local = when.astimezone(tz)
    return local.strftime("%Y-%m-%d %H:%M %Z" if zone else "%Y-%m-%d %H:%M").strip()


def day_bounds(day: date, tz: tzinfo) -> tuple[datetime, datetime]:
    """Start (inclusive) and end (exclusive) of a local day, in UTC. A day outside the years
    Kit keeps times for is bad input (the calendar's last day has no midnight after it)."""
    if not EARLIEST.date() <= day < LATEST.date():
        raise InputError(
            f"{day.isoformat()} is outside the years {EARLIEST.year}-{LATEST.year - 1} that "
            "Kit keeps times for; use a date within them"
        )
    start = datetime(day.year, day.month, day.day, tzinfo=tz)
    end = start + timedelta(days=1)
    # Re-anchor the end at local midnight so DST days are 23 or 25 hours long.
    end = datetime(end.year, end.month, end.day, tzinfo=tz)
    return start.astimezone(UTC), end.astimezone(UTC)


# Times Kit accepts from outside. Far wider than any life, yet far enough from datetime's limits
# that day and recency arithmetic (a day later, a week back, another zone) cannot overflow.
EARLIEST = datetime(1000, 1, 1, tzinfo=UTC)
LATEST = datetime(9000, 1, 1, tzinfo=UTC)


def check_time(when: datetime, what: str) -> datetime:
    """`when`, if it is aware and within EARLIEST..LATEST; else an InputError naming `what`."""
    if when.tzinfo is None:
        raise InputError(f"{what} has no timezone; add one, e.g. +00:00")
    try:
        inside = EARLIEST <= when.astimezone(UTC) < LATEST
    except OverflowError:
        inside = False
    if not inside:
        raise InputError(
            f"{what} {when.isoformat()} is out of range; Kit keeps times from the year "
            f"{EARLIEST.year} to {LATEST.year - 1}"
        )
    return when


def to_iso(when: datetime) -> str:
    """Canonical storage form: UTC, microseconds, so text order is time order."""
    if when.tzinfo is None:
        raise ValueError("refusing to store a naive datetime")
    return when.astimezone(UTC).isoformat(timespec="microseconds")


def from_iso(text: str) -> datetime:
    value = datetime.fromisoformat(text)
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value
