"""Reminder times: resolved in the owner's zone, validated at the edge, DST-safe."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from kit.errors import InputError
from kit.reminders.rules import Rule, check_text, next_fire, resolve

BERLIN = ZoneInfo("Europe/Berlin")
NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)  # a Monday, 10:00 in Berlin


def test_a_local_time_is_resolved_in_the_owners_zone() -> None:
    done = resolve(now=NOW, tz=BERLIN, at="2026-03-03T09:00")
    assert done.first_fire == datetime(2026, 3, 3, 8, 0, tzinfo=UTC)
    assert done.rule == Rule("none")


def test_in_minutes_counts_from_the_injected_now() -> None:
    assert resolve(now=NOW, tz=BERLIN, in_minutes=20).first_fire == NOW + timedelta(minutes=20)


@pytest.mark.parametrize(
    ("fields", "says"),
    [
        ({"at": "2026-03-02T09:59"}, "already passed"),
        ({"at": "2026-02-30T09:00"}, "February 2026 has 28 days"),
        ({"at": "2026-13-01T09:00"}, "not a date"),
        ({"at": "tomorrow at 9"}, "YYYY-MM-DDTHH:MM"),
        ({"at": "2032-01-01T09:00"}, "five years"),
        ({"in_minutes": 0}, "between 1 and"),
        ({"in_minutes": "soon"}, "whole number"),
        ({"in_minutes": True}, "whole number"),
        ({}, "say when"),
        ({"at": "2026-03-03T09:00", "in_minutes": 5}, "exactly one"),
        ({"repeat": "monthly", "local_time": "09:00"}, "not supported"),
        ({"repeat": "daily"}, "needs `time`"),
        ({"repeat": "daily", "local_time": "25:00"}, "not a time of day"),
        ({"repeat": "weekly", "local_time": "08:00"}, "needs `weekday`"),
        ({"repeat": "weekly", "local_time": "08:00", "weekday": "funday"}, "not a day of the week"),
        ({"repeat": "daily", "local_time": "08:00", "weekday": "monday"}, "only for weekly"),
        ({"repeat": "daily", "at": "2026-03-03T09:00"}, "not `at`"),
    ],
)
def test_bad_times_are_refused_with_the_reason(fields: dict[str, object], says: str) -> None:
    with pytest.raises(InputError, match=says):
        resolve(now=NOW, tz=BERLIN, **fields)  # type: ignore[arg-type]


def test_a_time_the_spring_change_skips_moves_forward_by_the_gap_and_says_so() -> None:
    done = resolve(now=NOW, tz=BERLIN, at="2026-03-29T02:30")
    assert done.first_fire.astimezone(BERLIN).strftime("%H:%M") == "03:30"
    assert "does not exist" in done.note


def test_a_daily_time_in_the_repeated_autumn_hour_fires_once_that_night() -> None:
    rule = Rule("daily", "02:30")
    before = datetime(2026, 10, 24, 12, 0, tzinfo=UTC)
    first = next_fire(rule, before, BERLIN)
    assert first is not None
    assert first == datetime(2026, 10, 25, 0, 30, tzinfo=UTC)  # 02:30 CEST, the first one
    following = next_fire(rule, first, BERLIN)
    assert following == datetime(2026, 10, 26, 1, 30, tzinfo=UTC)  # next day, 02:30 CET


def test_a_daily_time_keeps_its_wall_clock_across_the_spring_change() -> None:
    rule = Rule("daily", "09:00")
    fire = next_fire(rule, datetime(2026, 3, 28, 9, 0, tzinfo=UTC), BERLIN)
    assert fire is not None
    after = next_fire(rule, fire, BERLIN)
    assert after is not None
    assert [f.astimezone(BERLIN).strftime("%d %H:%M") for f in (fire, after)] == [
        "29 09:00",
        "30 09:00",
    ]


def test_weekdays_skip_the_weekend_and_weekly_keeps_its_day() -> None:
    friday_evening = datetime(2026, 3, 6, 18, 0, tzinfo=UTC)
    monday = next_fire(Rule("weekdays", "08:00"), friday_evening, BERLIN)
    assert monday is not None and monday.astimezone(BERLIN).strftime("%a %H:%M") == "Mon 08:00"
    done = resolve(now=NOW, tz=BERLIN, repeat="weekly", local_time="8:00", weekday="Mon")
    assert done.first_fire.astimezone(BERLIN).strftime("%a %d %H:%M") == "Mon 09 08:00"
    assert done.rule.describe() == "every Monday at 08:00"


def test_reminder_text_is_capped_and_screened_for_secrets() -> None:
    assert check_text("  call Ana  ") == "call Ana"
    with pytest.raises(InputError, match="empty"):
        check_text("   ")
    with pytest.raises(InputError, match="1,001 characters"):
        check_text("x" * 1001)
    with pytest.raises(InputError, match="does not keep secrets"):
        check_text("my bank password is hunter2-Xy9!")


@pytest.mark.parametrize("value", [["call", "Ana"], {"text": "call Ana"}, 42, 4.5, True])
def test_a_reminder_text_that_is_not_a_string_is_refused_by_every_path(value: object) -> None:
    """Not only the chat tool's edge: the rule itself never stores a list's or a number's repr."""
    with pytest.raises(InputError, match="text must be a sentence"):
        check_text(value)
