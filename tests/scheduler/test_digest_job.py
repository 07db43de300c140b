"""The digest job under the real scheduler on a fake clock: sent at digest.time, caught up at the
next start when Kit was off then, and at most once a day through restarts and repeated looks;
never with `digest.enabled = false`."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from apscheduler.triggers.combining import OrTrigger

from kit.api import Kit
from kit.clock import FakeClock
from kit.config import DigestSettings, ScheduleSettings, Settings
from kit.embed.hashing import HashingEmbedder
from kit.llm.fake import FakeLLM
from scheduler import KitScheduler
from scheduler.jobs import digest_trigger
from tests.support.digest import a_day_of_curation, at
from tests.support.pushes import Pushes


async def _run_start_pass(kit: Kit) -> KitScheduler:
    scheduler = KitScheduler(kit.services)
    await scheduler.start()
    await scheduler.idle()
    await scheduler.shutdown()
    return scheduler


@pytest.fixture
def pushes(kit: Kit) -> Pushes:
    channel = Pushes()
    kit.services.outbox.register("telegram", channel)
    return channel


async def test_sent_at_digest_time_and_once_through_restarts(
    kit: Kit, clock: FakeClock, pushes: Pushes
) -> None:
    await a_day_of_curation(kit, clock)
    clock.set(at(20, 59))
    await _run_start_pass(kit)  # started before digest time: the day is still open
    assert pushes.pushed == []
    clock.set(at(21))
    scheduler = KitScheduler(kit.services)
    assert (await scheduler.run_now("digest")).status == "done"  # the 21:00 firing
    assert len(pushes.pushed) == 1
    for minute in (0, 5, 30):  # the later looks, and restarts
        clock.set(at(21, minute))
        assert (await scheduler.run_now("digest")).status == "done"
        await _run_start_pass(kit)
    assert len(pushes.pushed) == 1


async def test_a_digest_missed_while_kit_was_off_is_sent_at_the_next_start(
    kit: Kit, clock: FakeClock, pushes: Pushes
) -> None:
    await a_day_of_curation(kit, clock)  # Kit stops at 15:00 and is back the next morning
    clock.set(at(8, day=3))
    await _run_start_pass(kit)
    ((user, messages),) = pushes.pushed
    assert user == "owner" and messages[0].text.startswith("Memory digest for Monday 2 March")
    clock.set(at(8, 5, day=3))
    await _run_start_pass(kit)
    assert len(pushes.pushed) == 1


async def test_digest_enabled_false_sends_nothing(settings: Settings, clock: FakeClock) -> None:
    off = dataclasses.replace(settings, digest=DigestSettings(enabled=False))
    async with Kit.open(
        settings=off, llm=FakeLLM(), embedder=HashingEmbedder(), clock=clock, background=False
    ) as kit:
        pushes = Pushes()
        kit.services.outbox.register("telegram", pushes)
        await a_day_of_curation(kit, clock)
        clock.set(at(21, 30))
        scheduler = await _run_start_pass(kit)
    assert "digest" not in scheduler.jobs
    assert pushes.pushed == []


async def test_the_digest_fires_at_digest_time_in_the_configured_zone(
    settings: Settings, clock: FakeClock
) -> None:
    berlin = dataclasses.replace(
        settings,
        schedule=ScheduleSettings(timezone="Europe/Berlin"),
        digest=DigestSettings(time="20:30"),
    )
    async with Kit.open(
        settings=berlin, llm=FakeLLM(), embedder=HashingEmbedder(), clock=clock, background=False
    ) as kit:
        trigger = digest_trigger(kit.services)
    assert isinstance(trigger, OrTrigger)
    daily, every = trigger.triggers
    now = datetime(2026, 3, 2, 12, tzinfo=UTC)
    fire = daily.get_next_fire_time(None, now)
    assert fire == datetime(2026, 3, 2, 20, 30, tzinfo=ZoneInfo("Europe/Berlin"))
    assert every.interval.total_seconds() == 300


@pytest.fixture
async def kit(settings: Settings, clock: FakeClock) -> AsyncIterator[Kit]:
    async with Kit.open(
        settings=settings, llm=FakeLLM(), embedder=HashingEmbedder(), clock=clock, background=False
    ) as opened:
        yield opened
