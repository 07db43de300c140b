"""KitScheduler with the real APScheduler in the test's event loop and Kit on a fake clock:
catch-up after a stop, order, the configured zone, no overlap, shutdown, failures."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from apscheduler.triggers.interval import IntervalTrigger

from kit.api import Kit
from kit.app import Services
from kit.clock import FakeClock
from kit.config import ScheduleSettings, Settings
from kit.embed.hashing import HashingEmbedder
from kit.errors import LLMUnavailable
from kit.jobs.runs import JobBusy
from kit.llm.base import LLMReply, LLMRequest, TextSink, Usage
from kit.llm.fake import FakeLLM
from scheduler import KitScheduler
from scheduler.jobs import JobSpec
from tests.support.scripted_model import MemoryModel

SUNDAY = datetime(2026, 3, 1, tzinfo=UTC)
MONDAY = SUNDAY + timedelta(days=1)


class GatedLLM:
    """Passes calls to a FakeLLM, but holds calls of one purpose until `release` is set."""

    def __init__(self, inner: FakeLLM, purpose: str) -> None:
        self.inner = inner
        self.purpose = purpose
        self.entered = asyncio.Event()
        self.release = asyncio.Event()

    async def complete(self, request: LLMRequest, on_text: TextSink | None = None) -> LLMReply:
        if request.purpose == self.purpose:
            self.entered.set()
            await self.release.wait()
        return await self.inner.complete(request, on_text)


@pytest.fixture
def model() -> MemoryModel:
    return MemoryModel()


@pytest.fixture
def fake(model: MemoryModel) -> FakeLLM:
    return FakeLLM(default=model)


@pytest.fixture
def gated(fake: FakeLLM) -> GatedLLM:
    return GatedLLM(fake, "rem_condense")


@pytest.fixture
async def kit(settings: Settings, gated: GatedLLM, clock: FakeClock) -> AsyncIterator[Kit]:
    gated.release.set()  # open unless a test closes it
    async with Kit.open(
        settings=settings, llm=gated, embedder=HashingEmbedder(), clock=clock, background=False
    ) as opened:
        yield opened


async def _sunday(kit: Kit, clock: FakeClock) -> KitScheduler:
    """REM ran at 03:00 on Sunday; the owner talked on Sunday morning."""
    clock.set(SUNDAY + timedelta(hours=3, minutes=5))
    first = KitScheduler(kit.services)
    assert (await first.run_now("rem")).status == "done"
    clock.set(SUNDAY + timedelta(hours=10))
    await kit.send("Decided to repaint the kitchen blue")
    return first


async def _start(services: Services) -> tuple[KitScheduler, list[str]]:
    scheduler = KitScheduler(services)
    missed = await scheduler.start()
    await scheduler.idle()
    return scheduler, missed


async def _rem_runs(kit: Kit) -> list[datetime | None]:
    runs = await kit.services.job_runs.recent("rem", 20)
    return [r.scheduled_for for r in runs if r.status == "ok"]


async def test_a_missed_03_00_run_is_caught_up_once_after_an_overnight_stop(
    kit: Kit, clock: FakeClock, model: MemoryModel
) -> None:
    await _sunday(kit, clock)
    clock.set(SUNDAY + timedelta(hours=23, minutes=56))  # the daemon runs through 23:55
    evening, missed = await _start(kit.services)
    assert missed == ["daily_summary"]
    await evening.shutdown()  # ... and the machine is off from 23:58 to 08:00
    sunday = await kit.day(SUNDAY.date())
    assert sunday is not None and sunday.condensed == ""

    clock.set(MONDAY + timedelta(hours=8))
    morning, missed = await _start(kit.services)
    assert missed == ["rem"]
    assert (await kit.day(SUNDAY.date())).condensed  # type: ignore[union-attr]
    assert await _rem_runs(kit) == [MONDAY + timedelta(hours=3), SUNDAY + timedelta(hours=3)]
    assert (await morning.run_now("rem")).status == "not due"
    await morning.shutdown()

    clock.set(MONDAY + timedelta(hours=8, minutes=30))  # another restart: nothing owed
    again, missed = await _start(kit.services)
    await again.shutdown()
    assert missed == []
    assert len(await _rem_runs(kit)) == 2 and model.seen.count("rem_condense") == 1


async def test_with_both_runs_missed_the_day_is_summarised_before_rem_condenses_it(
    kit: Kit, clock: FakeClock, model: MemoryModel
) -> None:
    await _sunday(kit, clock)
    clock.set(MONDAY + timedelta(hours=8))  # off from Sunday noon to Monday 08:00
    scheduler, missed = await _start(kit.services)
    await scheduler.shutdown()
    assert missed == ["daily_summary", "rem"]
    sunday = await kit.day(SUNDAY.date())
    assert sunday is not None and sunday.detailed and sunday.condensed
    assert model.seen.index("daily_summary") < model.seen.index("rem_condense")
    assert [r.name for r in scheduler.results][-3:] == ["daily_summary", "rem", "digest"]


async def test_cron_triggers_fire_at_local_time_in_the_configured_zone(
    settings: Settings, clock: FakeClock
) -> None:
    berlin = dataclasses.replace(
        settings, schedule=ScheduleSettings(timezone="Europe/Berlin", rem="02:45")
    )
    async with Kit.open(
        settings=berlin, llm=FakeLLM(), embedder=HashingEmbedder(), clock=clock, background=False
    ) as kit:
        scheduler = KitScheduler(kit.services)
        await scheduler.start()
        times = scheduler.next_run_times()
        await scheduler.idle()
        await scheduler.shutdown()
    rem, summary = times["rem"], times["daily_summary"]
    assert rem is not None and summary is not None
    assert rem.tzinfo == ZoneInfo("Europe/Berlin") and (rem.hour, rem.minute) == (2, 45)
    assert (summary.hour, summary.minute) == (23, 55)
    assert set(times) == {
        "embedding_backfill",
        "curation_sweep",
        "daily_summary",
        "rem",
        "digest",
        "reminders",
        "takeover_check",
    }


async def test_a_manual_rem_during_the_nightly_one_is_refused(
    kit: Kit, clock: FakeClock, gated: GatedLLM
) -> None:
    await _sunday(kit, clock)
    await kit.services.days.put_detailed("owner", SUNDAY.date(), "- a\n- b", 2)
    clock.set(MONDAY + timedelta(hours=3))
    gated.release.clear()
    scheduler = KitScheduler(kit.services)
    nightly = asyncio.create_task(scheduler.run_now("rem"))
    await gated.entered.wait()  # the nightly REM is condensing Sunday

    with pytest.raises(JobBusy, match="REM is already running"):
        await kit.services.rem.run("owner")

    gated.release.set()
    assert (await nightly).status == "done"
    assert (await kit.services.rem.run("owner")).condensed_days == ()  # free again


async def test_the_nightly_rem_during_a_manual_one_is_skipped_and_stays_owed(
    kit: Kit, clock: FakeClock, gated: GatedLLM
) -> None:
    await _sunday(kit, clock)
    await kit.services.days.put_detailed("owner", SUNDAY.date(), "- a\n- b", 2)
    clock.set(MONDAY + timedelta(hours=3))
    gated.release.clear()
    manual = asyncio.create_task(kit.services.rem.run("owner"))
    await gated.entered.wait()
    scheduler = KitScheduler(kit.services)

    result = await scheduler.run_now("rem")

    assert result.status == "busy" and "already running" in result.detail
    gated.release.set()
    await manual
    assert await scheduler.owed("rem") == MONDAY + timedelta(hours=3)


async def test_shutdown_interrupts_a_running_job_which_is_caught_up_at_the_next_start(
    kit: Kit, clock: FakeClock, gated: GatedLLM
) -> None:
    await _sunday(kit, clock)
    await kit.services.days.put_detailed("owner", SUNDAY.date(), "- a\n- b", 2)
    clock.set(MONDAY + timedelta(hours=8))
    gated.release.clear()
    scheduler = KitScheduler(kit.services)
    assert await scheduler.start() == ["daily_summary", "rem"]
    await gated.entered.wait()

    await scheduler.shutdown(grace_seconds=5)

    (run,) = await kit.services.job_runs.recent("rem", 1)
    assert run.status == "failed" and run.detail == "cancelled (shutdown)"
    assert (await kit.day(SUNDAY.date())).condensed == ""  # type: ignore[union-attr]
    gated.release.set()
    again, missed = await _start(kit.services)
    await again.shutdown()
    assert missed == ["rem"] and (await kit.day(SUNDAY.date())).condensed  # type: ignore[union-attr]


async def test_a_failing_job_is_reported_and_stays_owed(
    kit: Kit, clock: FakeClock, fake: FakeLLM, caplog: pytest.LogCaptureFixture
) -> None:
    await _sunday(kit, clock)
    clock.set(SUNDAY + timedelta(hours=23, minutes=55))
    fake.queue(LLMUnavailable("the Anthropic API is overloaded (529); try again later"))
    scheduler = KitScheduler(kit.services)

    result = await scheduler.run_now("daily_summary")

    assert result.status == "failed" and "overloaded" in result.detail
    assert "job daily_summary failed" in caplog.text
    (run,) = await kit.services.job_runs.recent("daily_summary", 1)
    assert run.status == "failed" and "overloaded" in run.detail
    assert await scheduler.owed("daily_summary") == SUNDAY + timedelta(hours=23, minutes=55)
    assert (await scheduler.run_now("daily_summary")).status == "done"


async def test_apscheduler_firings_reach_the_worker_and_queued_runs_coalesce(kit: Kit) -> None:
    fired = asyncio.Event()
    calls: list[datetime] = []

    async def count(services: Services, now: datetime, scheduled_for: datetime | None) -> str:
        calls.append(now)
        if len(calls) == 2:
            fired.set()
        return "counted"

    spec = JobSpec("count", IntervalTrigger(seconds=1), count, daily=False)
    scheduler = KitScheduler(kit.services, jobs=[spec])
    await scheduler.start()  # queues the start-up run of "count"
    scheduler.request("count")  # already waiting: not queued twice
    await scheduler.idle()
    assert len(calls) == 1
    async with asyncio.timeout(10):
        await fired.wait()  # the second run comes from APScheduler's interval trigger
    await scheduler.shutdown()
    assert scheduler.results[-1].detail == "counted"


async def test_a_failed_night_is_retried_once_at_once_once_after_10_minutes_then_held(
    kit: Kit, clock: FakeClock, fake: FakeLLM
) -> None:
    await _sunday(kit, clock)
    fire = SUNDAY + timedelta(hours=23, minutes=55)
    clock.set(fire)
    scheduler = KitScheduler(kit.services)
    down = LLMUnavailable("the Anthropic API is overloaded (529); try again later")

    fake.queue(down)
    assert (await scheduler.run_now("daily_summary")).status == "failed"
    assert await scheduler.due("daily_summary") == fire  # a one-off: try again at once
    fake.queue(down)
    assert (await scheduler.run_now("daily_summary")).status == "failed"
    assert await scheduler.due("daily_summary") is None
    clock.advance(timedelta(minutes=10))
    assert await scheduler.retry_due() == ["daily_summary"]
    fake.queue(down)
    assert (await scheduler.run_now("daily_summary")).status == "failed"

    clock.advance(timedelta(hours=6))
    assert await scheduler.due("daily_summary") is None  # held until its next fire time
    assert await scheduler.owed("daily_summary") == fire
    assert await kit.services.job_runs.held_fire_times(SUNDAY, 3) == [("daily_summary", fire, 3)]
    clock.set(fire + timedelta(days=1))
    assert await scheduler.due("daily_summary") == fire + timedelta(days=1)


async def test_a_night_stopped_by_the_budget_resumes_after_midnight_and_is_no_failure(
    kit: Kit, clock: FakeClock
) -> None:
    await _sunday(kit, clock)
    budget = kit.settings.budget.daily_tokens
    await kit.services.usage.record(
        model="claude-haiku-4-5", purpose="curate:people", usage=Usage(budget, 0), user_id="owner"
    )
    fire = SUNDAY + timedelta(hours=23, minutes=55)
    clock.set(fire)
    scheduler = KitScheduler(kit.services)

    result = await scheduler.run_now("daily_summary")

    assert result.status == "paused" and "budget.daily_tokens" in result.detail
    runs = await kit.services.job_runs.fire_time_runs("daily_summary", fire)
    assert runs.failures == 0 and runs.paused_until == MONDAY
    clock.set(MONDAY - timedelta(minutes=1))
    assert await scheduler.due("daily_summary") is None
    clock.set(MONDAY + timedelta(seconds=30))
    assert await scheduler.retry_due() == ["daily_summary"]
    assert (await scheduler.run_now("daily_summary")).status == "done"
    assert (await kit.day(SUNDAY.date())).detailed  # type: ignore[union-attr]
