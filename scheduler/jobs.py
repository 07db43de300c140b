"""Kit's scheduled jobs: what runs when, and what each run does.

Daily jobs (the day-end summary, the nightly REM) are recorded in `job_runs` and caught up once
at start when a run was missed. Interval jobs (the idle-conversation curation sweep, the
embedding backfill) are idempotent and simply run again. A job takes the injected clock's time.

The memory digest (kit/digest/) fires at `digest.time` and looks again every few minutes: each
memory's digest of a closed day is claimed once in `digest_sends`, so the extra looks only
catch up (Kit was off at digest time, Telegram connected late, a send failed) and never send
twice. Only a worker whose Telegram is connected sends (kit/digest/service.py).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime

from apscheduler.triggers.base import BaseTrigger
from apscheduler.triggers.combining import OrTrigger
from apscheduler.triggers.cron import CronTrigger
from apscheduler.triggers.interval import IntervalTrigger

from kit.app import Services
from kit.text import plural
from scheduler.fire_times import daily_at

SWEEP_MINUTES = 5  # a conversation idle for curation.idle_minutes is curated within this
BACKFILL_MINUTES = 3  # what the per-turn backfill missed (model loaded late, a failure)
DIGEST_LOOK_MINUTES = 5  # a digest owed (missed, or Telegram was not up) is sent within this

JobRun = Callable[[Services, datetime, datetime | None], Awaitable[str]]


@dataclass(frozen=True)
class JobSpec:
    name: str
    trigger: BaseTrigger
    run: JobRun  # (services, now, scheduled_for) -> a one-line outcome for the log
    daily: bool  # tracked in job_runs and caught up when missed

    @property
    def cron(self) -> CronTrigger:
        assert isinstance(self.trigger, CronTrigger), f"{self.name} is not a daily job"
        return self.trigger


async def daily_summary(services: Services, now: datetime, scheduled_for: datetime | None) -> str:
    run = await services.summarizer.day_end(now, scheduled_for=scheduled_for)
    written = plural(len(run.written), "day summary", "day summaries")
    return (
        f"{written} written, {len(run.rejected)} rejected, "
        f"{len(run.waiting)} waiting (failed lately or held)"
    )


async def rem(services: Services, now: datetime, scheduled_for: datetime | None) -> str:
    reports = await services.rem.nightly(scheduled_for or now)
    await services.inbox.announce()  # what REM's review asked about: to the owner now
    condensed = sum(len(r.condensed_days) for r in reports)
    changes = sum(len(r.changes) for r in reports)
    rejected = sum(len(r.rejected) for r in reports)
    return (
        f"REM for {plural(len(reports), 'user')}: {plural(condensed, 'day')} condensed, "
        f"{plural(changes, 'change')}, {rejected} rejected"
    )


async def curation_sweep(services: Services, now: datetime, scheduled_for: datetime | None) -> str:
    # One sweep at a time across workers: two would curate the same conversation twice.
    async with services.leases.holding("curation_sweep", label="the curation sweep"):
        passes = await services.curator.sweep_idle(now)
    # The questions passes set aside (this sweep's, or a `kit curate` run beside the daemon):
    # asked on the channels that reach their owner, each once.
    asked = await services.inbox.announce()
    return plural(passes, "curation pass", "curation passes") + (
        f", {plural(asked, 'question')} asked" if asked else ""
    )


async def embedding_backfill(
    services: Services, now: datetime, scheduled_for: datetime | None
) -> str:
    async with services.leases.holding("embedding_backfill", label="the embedding backfill"):
        embedded = await services.vectors.backfill()
    return f"{plural(embedded, 'item')} embedded"


async def digest(services: Services, now: datetime, scheduled_for: datetime | None) -> str:
    sent = await services.digest.send_due(now)
    if not services.outbox.channels:
        return "no channel to send on in this worker"
    counts = {status: sum(1 for s in sent if s.status == status) for status in ("sent", "empty")}
    return f"{plural(counts['sent'], 'digest')} sent, {counts['empty']} with nothing to report"


def digest_trigger(services: Services) -> BaseTrigger:
    """At digest.time, and every few minutes to catch up what is owed."""
    at = daily_at(services.settings.digest.time, services.tz, "config.toml: digest.time")
    return OrTrigger([at, IntervalTrigger(minutes=DIGEST_LOOK_MINUTES)])


def kit_jobs(services: Services) -> tuple[JobSpec, ...]:
    """The jobs in the order a start-up pass runs them: embeddings and curation of what
    happened while Kit was off come before the day summaries, which come before REM."""
    schedule, tz = services.settings.schedule, services.tz
    digest_on = services.settings.digest.enabled  # `digest.enabled = false`: never sent
    return (
        JobSpec(
            "embedding_backfill",
            IntervalTrigger(minutes=BACKFILL_MINUTES),
            embedding_backfill,
            False,
        ),
        JobSpec("curation_sweep", IntervalTrigger(minutes=SWEEP_MINUTES), curation_sweep, False),
        JobSpec(
            "daily_summary",
            daily_at(schedule.daily_summary, tz, "config.toml: schedule.daily_summary"),
            daily_summary,
            True,
        ),
        JobSpec("rem", daily_at(schedule.rem, tz, "config.toml: schedule.rem"), rem, True),
    ) + ((JobSpec("digest", digest_trigger(services), digest, False),) if digest_on else ())
