"""Days are the owner's local days: messages are filed by local date, DST days included."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kit.api import Kit
from kit.clock import FakeClock, day_bounds, from_iso, local_date, resolve_timezone, to_iso
from kit.config import ScheduleSettings, Settings
from kit.curator.ops import Insert
from kit.digest.render import render_text
from kit.embed.hashing import HashingEmbedder
from kit.llm.fake import FakeLLM
from kit.memory.messages import NewMessage
from kit.tools import parse_day

NEW_YORK = ZoneInfo("America/New_York")
ZONES = [ZoneInfo(n) for n in ("America/New_York", "Europe/Berlin", "Asia/Kolkata",
                               "Pacific/Kiritimati", "Australia/Lord_Howe", "UTC",
                               "America/Sao_Paulo", "America/Havana")]  # fmt: skip


@pytest.fixture
async def ny_kit(settings: Settings, clock: FakeClock) -> AsyncIterator[Kit]:
    local = dataclasses.replace(settings, schedule=ScheduleSettings(timezone="America/New_York"))
    async with Kit.open(
        settings=local, llm=FakeLLM(), embedder=HashingEmbedder(), clock=clock, background=False
    ) as kit:
        yield kit


def utc(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def test_dst_days_are_23_and_25_hours_long() -> None:
    spring_start, spring_end = day_bounds(date(2026, 3, 8), NEW_YORK)
    assert (spring_start, spring_end) == (utc("2026-03-08T05:00"), utc("2026-03-09T04:00"))
    autumn_start, autumn_end = day_bounds(date(2026, 11, 1), NEW_YORK)
    assert autumn_end - autumn_start == timedelta(hours=25)
    plain_start, plain_end = day_bounds(date(2026, 3, 10), NEW_YORK)
    assert plain_end - plain_start == timedelta(hours=24)


@pytest.mark.parametrize("year", [2018, 2026])  # 2018: São Paulo and Havana moved at midnight
def test_every_local_day_of_a_year_tiles_the_timeline(year: int) -> None:
    for zone in ZONES:
        day = date(year, 1, 1)
        while day.year == year:
            start, end = day_bounds(day, zone)
            assert timedelta(hours=23) <= end - start <= timedelta(hours=25), (zone, day)
            assert (
                local_date(start, zone) == day == local_date(end - timedelta(microseconds=1), zone)
            )
            assert day_bounds(day + timedelta(days=1), zone)[0] == end
            day += timedelta(days=1)


@given(st.datetimes(min_value=datetime(1990, 1, 1), max_value=datetime(2060, 1, 1)))
def test_every_instant_lies_within_the_bounds_of_its_local_day(naive: datetime) -> None:
    at = naive.replace(tzinfo=UTC)
    for zone in ZONES:
        day = local_date(at, zone)
        start, end = day_bounds(day, zone)
        assert start <= at < end
        assert timedelta(hours=23) <= end - start <= timedelta(hours=25)
        assert day_bounds(day + timedelta(days=1), zone)[0] == end  # days tile the timeline


# Only wall times that exist: a spring-forward gap time (02:30 in Berlin on the last Sunday of
# March) is not an instant, so it has no single stored form. Kit never creates one: its times come
# from an aware clock or from UTC conversions.
@given(
    st.datetimes(timezones=st.sampled_from(ZONES), allow_imaginary=False),
    st.datetimes(timezones=st.just(UTC)),
)
def test_stored_times_sort_as_text_in_time_order(a: datetime, b: datetime) -> None:
    # Compared as instants: Python's == between zones is False for a wall time in the autumn's
    # repeated hour (PEP 495), though both sides name the same instant.
    assert from_iso(to_iso(a)) == a.astimezone(UTC)
    assert (to_iso(a) < to_iso(b)) == (a < b)


def test_naive_times_are_refused() -> None:
    with pytest.raises(ValueError, match="naive"):
        to_iso(datetime(2026, 3, 8, 12, 0))
    with pytest.raises(ValueError, match="timezone-aware"):
        FakeClock(datetime(2026, 3, 8, 12, 0))


async def test_messages_are_filed_under_the_owners_local_date(ny_kit: Kit) -> None:
    messages = ny_kit.services.messages
    conv = await messages.conversation("owner", "local", "default")
    cases = {
        "2026-03-08T04:30": date(2026, 3, 7),  # 23:30 EST, the evening before the change
        "2026-03-08T06:59": date(2026, 3, 8),  # 01:59 EST
        "2026-03-08T07:01": date(2026, 3, 8),  # 03:01 EDT: 02:xx never happened
        "2026-03-09T03:30": date(2026, 3, 8),  # 23:30 EDT: still the short day
        "2026-03-09T04:00": date(2026, 3, 9),  # midnight EDT
    }
    for at, expected in cases.items():
        stored = await messages.add(conv, "user", f"note at {at}", at=utc(at))
        assert stored.day == expected, at
    on_day = await messages.on_day("owner", date(2026, 3, 8))
    assert [m.text for m in on_day] == [
        "note at 2026-03-08T06:59",
        "note at 2026-03-08T07:01",
        "note at 2026-03-09T03:30",
    ]
    assert await messages.days_with_messages("owner") == [
        date(2026, 3, 7),
        date(2026, 3, 8),
        date(2026, 3, 9),
    ]


async def test_imported_messages_use_the_local_date_whatever_offset_they_carry(
    ny_kit: Kit,
) -> None:
    at = datetime(2026, 11, 1, 1, 30, tzinfo=ZoneInfo("Europe/Berlin"))  # 00:30 UTC
    await ny_kit.import_messages([NewMessage("user", "from Berlin", at)])
    (message,) = await ny_kit.services.messages.on_day("owner", date(2026, 10, 31))
    assert message.at == at and message.day == date(2026, 10, 31)  # 20:30 EDT on the 31st


async def test_context_uses_the_local_today_for_recent_days(ny_kit: Kit, clock: FakeClock) -> None:
    """At 23:30 in New York it is already tomorrow in UTC; 'today' must still be local."""
    days = ny_kit.services.days
    for day in (date(2026, 3, 5), date(2026, 3, 6), date(2026, 3, 7)):
        await days.put_detailed("owner", day, f"- things done on {day}", 3)
    clock.set(utc("2026-03-08T04:30"))  # 23:30 EST on 7 March
    sandwich = await ny_kit.services.context.build("owner", "hello", now=clock.now())
    assert [d.day for d in sandwich.recent_days] == [date(2026, 3, 5), date(2026, 3, 6)]
    assert "Saturday 2026-03-07 23:30 (EST)" in sandwich.system[-1].text
    clock.set(utc("2026-03-08T05:30"))  # 00:30 EST on 8 March
    sandwich = await ny_kit.services.context.build("owner", "hello", now=clock.now())
    assert [d.day for d in sandwich.recent_days] == [date(2026, 3, 6), date(2026, 3, 7)]


POSIX_RULES = ["<-03>3", "BRT3", "EST5EDT,M3.2.0,M11.1.0", "CET-1CEST,M3.5.0,M10.5.0/3",
               "IST-5:30", "UTC+3"]  # fmt: skip


@pytest.mark.parametrize("rule", POSIX_RULES)
def test_a_posix_tz_rule_is_the_zone_the_c_library_reads(
    rule: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With TZ set to a POSIX rule (not an IANA name), Kit took UTC while `date` said the
    owner's time: the same moment was another day. Kit now reads TZ as libc does."""
    import time

    monkeypatch.setenv("TZ", rule)
    time.tzset()
    try:
        zone = resolve_timezone("")
        for days in range(0, 730, 5):  # two years, DST changes included, a time each 5 days
            moment = datetime(2025, 1, 1, 7, 30, tzinfo=UTC) + timedelta(days=days, hours=days)
            libc = time.localtime(moment.timestamp())
            ours = moment.astimezone(zone)
            assert ours.utcoffset() == timedelta(seconds=libc.tm_gmtoff), moment
            assert (ours.day, ours.hour) == (libc.tm_mday, libc.tm_hour), moment
    finally:
        monkeypatch.undo()
        time.tzset()


async def test_todays_digest_is_the_owners_today_under_a_posix_tz(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """21:44 on Saturday 7 March in TZ=<-03>3 (00:44 Sunday in UTC), 21 passes that day:
    `kit digest --date today` is Saturday's digest and has them (it said Sunday, nothing)."""
    monkeypatch.setenv("TZ", "<-03>3")
    clock = FakeClock(datetime(2026, 3, 7, 12, 0, tzinfo=UTC))  # 09:00 local
    local = dataclasses.replace(settings, schedule=ScheduleSettings(timezone=""))
    async with Kit.open(
        settings=local, llm=FakeLLM(), embedder=HashingEmbedder(), clock=clock, background=False
    ) as kit:
        for n in range(21):  # 09:00 to 19:00 local
            await kit.services.curator.apply_ops(
                "owner", "projects", [Insert(f"Project {n}", 0.9)], kind="curate",
                source_message_ids=[],
            )  # fmt: skip
            clock.advance(timedelta(minutes=30))
        clock.set(datetime(2026, 3, 8, 0, 44, tzinfo=UTC))
        today = parse_day("today", local_date(clock.now(), kit.services.tz))
        digest = await kit.digest(today)
        assert today == date(2026, 3, 7) and len(digest.passes) == 21
        assert render_text(digest, kit.services.tz).startswith(
            "Memory digest for Saturday 7 March 2026"
        )
