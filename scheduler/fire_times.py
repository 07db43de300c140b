"""When a cron job should last have fired, and whether that run is still owed.

APScheduler's triggers only look forward; catch-up needs the latest fire time at or before
"now". Runs are deduplicated by the local date of their fire time, which keeps a daily job to
one run per local day even when a DST change makes a wall-clock time happen twice.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, tzinfo

from apscheduler.triggers.cron import CronTrigger

from kit.clock import local_date
from kit.config import parse_hhmm

_LOOKBACK = timedelta(days=8)  # covers every daily and weekly schedule
_TICK = timedelta(seconds=1)  # cron resolution


def daily_at(hhmm: str, tz: tzinfo, where: str) -> CronTrigger:
    """A cron trigger at HH:MM local time in `tz` (DST-aware through the zone)."""
    hours, minutes = parse_hhmm(hhmm, where)
    return CronTrigger(hour=hours, minute=minutes, timezone=tz)


def latest_fire(trigger: CronTrigger, now: datetime) -> datetime | None:
    """The trigger's last fire time at or before `now` (within the last eight days), in UTC:
    a local time in the repeated hour compares unequal to everything in other zones."""
    last = None
    fire = trigger.get_next_fire_time(None, now - _LOOKBACK)
    while fire is not None and fire <= now:
        last = fire.astimezone(UTC)
        # Step in UTC: local wall-clock arithmetic drops `fold` and loops on a DST fold.
        fire = trigger.get_next_fire_time(fire, fire.astimezone(UTC) + _TICK)
    return last


def owed(
    trigger: CronTrigger, now: datetime, last_done: datetime | None, tz: tzinfo
) -> datetime | None:
    """The fire time a run is owed for, or None when the latest one (by local date) is done."""
    latest = latest_fire(trigger, now)
    if latest is None:
        return None
    if last_done is not None and local_date(last_done, tz) >= local_date(latest, tz):
        return None
    return latest
