"""Fire times in the owner's zone: the latest one before now, and one run per local day
across DST changes."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from kit.errors import ConfigError
from scheduler.fire_times import daily_at, latest_fire, owed

BERLIN = ZoneInfo("Europe/Berlin")


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


def test_latest_fire_is_today_after_the_time_and_yesterday_before_it() -> None:
    rem = daily_at("03:00", BERLIN, "schedule.rem")
    assert latest_fire(rem, utc(2026, 3, 2, 8, 0)) == datetime(2026, 3, 2, 3, 0, tzinfo=BERLIN)
    assert latest_fire(rem, utc(2026, 3, 2, 1, 59)) == datetime(2026, 3, 1, 3, 0, tzinfo=BERLIN)
    assert latest_fire(rem, utc(2026, 3, 2, 2, 0)) == datetime(2026, 3, 2, 3, 0, tzinfo=BERLIN)


def test_a_daily_time_stays_at_local_time_across_both_dst_changes() -> None:
    rem = daily_at("03:00", BERLIN, "schedule.rem")
    assert latest_fire(rem, utc(2026, 3, 29, 12, 0)) == utc(2026, 3, 29, 1, 0)  # CEST
    assert latest_fire(rem, utc(2026, 10, 25, 12, 0)) == utc(2026, 10, 25, 2, 0)  # CET


def test_a_time_that_happens_twice_on_the_autumn_change_is_owed_once() -> None:
    """APScheduler fires 02:30 twice on 2026-10-25 in Berlin; the second run is not owed."""
    trigger = daily_at("02:30", BERLIN, "schedule.rem")
    first, second = utc(2026, 10, 25, 0, 30), utc(2026, 10, 25, 1, 30)
    assert latest_fire(trigger, utc(2026, 10, 25, 1, 45)) == second
    assert owed(trigger, utc(2026, 10, 25, 0, 31), None, BERLIN) == first
    assert owed(trigger, utc(2026, 10, 25, 1, 45), first, BERLIN) is None
    assert owed(trigger, utc(2026, 10, 26, 1, 45), first, BERLIN) == utc(2026, 10, 26, 1, 30)


def test_a_time_skipped_by_the_spring_change_still_runs_that_day() -> None:
    trigger = daily_at("02:30", BERLIN, "schedule.rem")
    day_before = utc(2026, 3, 28, 1, 30)
    fire = owed(trigger, utc(2026, 3, 29, 6, 0), day_before, BERLIN)
    assert fire is not None and fire.astimezone(BERLIN).date().isoformat() == "2026-03-29"


def test_owed_after_a_stop_is_the_latest_fire_only() -> None:
    """Three nights off: one catch-up run, for the latest night."""
    rem = daily_at("03:00", BERLIN, "schedule.rem")
    last = utc(2026, 2, 27, 2, 0)
    assert owed(rem, utc(2026, 3, 2, 8, 0), last, BERLIN) == utc(2026, 3, 2, 2, 0)


def test_a_bad_time_is_a_config_error_naming_the_setting() -> None:
    with pytest.raises(ConfigError, match=r"schedule\.rem must be a time like '03:00'"):
        daily_at("3am", BERLIN, "config.toml: schedule.rem")
