"""No batch or day is re-processed in a loop: a small model that fails in a new way on every
call, driven through days of scheduler ticks, nights and restarts on a fake clock. The calls
it gets are counted and must stay within the retry rules; where those rules alone would still
allow a lot (a big backlog), the daily budget bounds the tokens per day."""

from __future__ import annotations

import contextlib
import dataclasses
from collections import Counter
from collections.abc import AsyncIterator
from datetime import UTC, date, datetime, timedelta

import pytest

from kit.api import Kit
from kit.clock import FakeClock, local_date, to_iso
from kit.config import BudgetSettings, Settings
from kit.embed.hashing import HashingEmbedder
from kit.jobs.attempts import MAX_ATTEMPTS
from kit.llm.fake import FakeLLM
from kit.memory.messages import NewMessage
from scheduler import KitScheduler
from scheduler.fire_times import latest_fire
from scheduler.jobs import kit_jobs
from tests.scheduler.breakers import EverNewFailure
from tests.support.rem import chat_on

MONDAY = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)  # the conftest clock's start
TODAY = MONDAY.date()
CATEGORIES = 7
# An unreadable answer is asked for once more inside the same attempt (kit/curator/passes.py).
ASKS_PER_CURATION_ATTEMPT = 2


@pytest.fixture
def model() -> EverNewFailure:
    return EverNewFailure()


@pytest.fixture
async def kit(settings: Settings, model: EverNewFailure, clock: FakeClock) -> AsyncIterator[Kit]:
    roomy = dataclasses.replace(settings, budget=BudgetSettings(daily_tokens=100_000_000))
    async with Kit.open(
        settings=roomy,
        llm=FakeLLM(default=model),
        embedder=HashingEmbedder(),
        clock=clock,
        background=False,
    ) as opened:
        yield opened


async def _seed(kit: Kit, clock: FakeClock) -> int:
    """Work for every kind of background job: three earlier days of talk (two already
    summarised, so REM has days to condense; one not), stale facts in two categories, and a
    chat whose window is past 50 messages. Returns the chat's conversation id."""
    for back in (3, 2, 1):
        day = TODAY - timedelta(days=back)
        await chat_on(kit, day, f"fact people: Ana visited on day {back}", "Nice!")
        if back > 1:
            await kit.services.days.put_detailed("owner", day, f"- Ana visited ({back})", 2)
    clock.set(MONDAY - timedelta(days=90))
    await kit.remember("Ana likes tea", category="people")
    await kit.remember("The garden shed project", category="projects")
    clock.set(MONDAY)
    for turn in range(26):
        result = await kit.send(f"note {turn}: the window keeps growing")
    return result.conversation_id


async def _tick(
    scheduler: KitScheduler, kit: Kit, clock: FakeClock, conversation_id: int | None = None
) -> None:
    """Half an hour of the daemon: APScheduler's cron firings of the daily jobs (at the fake
    clock's times), the curation sweep, and a turn's background work in the busy chat."""
    before = clock.now()
    clock.advance(timedelta(minutes=30))
    for spec in kit_jobs(kit.services):
        fire = latest_fire(spec.cron, clock.now()) if spec.daily else None
        if fire is not None and fire > before:
            scheduler.request(spec.name)
    scheduler.request("curation_sweep")
    await scheduler.idle()
    if conversation_id is None:
        return
    kit.services.background.notify(conversation_id)
    with contextlib.suppress(Exception):  # as the background task does: retried next turn
        await kit.services.background.settle()


async def test_ten_days_of_a_model_failing_in_new_ways_stay_within_the_retry_rules(
    kit: Kit, clock: FakeClock, model: EverNewFailure
) -> None:
    conversation_id = await _seed(kit, clock)
    scheduler = KitScheduler(kit.services)
    await scheduler.start()
    await scheduler.idle()
    days = 10
    for _ in range(days * 48):  # every 30 minutes, through 10 nights
        await _tick(scheduler, kit, clock, conversation_id)
    await scheduler.shutdown()

    conversations = 4  # three imported days and the chat: one batch each
    curate_bound = conversations * CATEGORIES * MAX_ATTEMPTS * ASKS_PER_CURATION_ATTEMPT
    assert model.calls["curate"] <= curate_bound
    assert model.calls["daily_summary"] <= 2 * MAX_ATTEMPTS  # yesterday and today
    assert model.calls["rem_condense"] <= 2 * MAX_ATTEMPTS  # the two summarised days
    assert model.calls["rem_review"] <= 2 * MAX_ATTEMPTS  # two categories of stale facts
    # A window that will not fold: three tries a day (10 and 40 minutes apart), not 48.
    assert model.calls["window_summary"] <= MAX_ATTEMPTS * (days + 1)
    assert model.total <= curate_bound + 6 + 6 + 6 + 33

    # Everything given up on is on record for `kit doctor`.
    held = {(a.kind, a.item) for a in await kit.services.attempts.held()}
    assert {("daily_summary", str(TODAY - timedelta(days=1))), ("rem_review", "people")} <= held
    assert ("rem_condense", str(TODAY - timedelta(days=2))) in held
    assert len(await kit.services.curator.progress.parked("owner")) >= CATEGORIES


async def test_a_daemon_restarting_in_a_loop_reruns_a_failed_night_at_most_three_times(
    kit: Kit, clock: FakeClock, model: EverNewFailure
) -> None:
    """94 restarts in an hour at 03:00, each catching up a REM that crashes in a new way."""
    await kit.services.days.put_detailed("owner", TODAY - timedelta(days=1), "- a\n- b", 0)
    clock.set(MONDAY - timedelta(days=90))
    await kit.remember("Ana likes tea", category="people")
    model.always_crash = ("rem_review",)
    clock.set(datetime(2026, 3, 2, 3, 1, tzinfo=UTC))

    for _ in range(94):
        scheduler = KitScheduler(kit.services)
        await scheduler.start()
        await scheduler.idle()
        await scheduler.shutdown()
        clock.advance(timedelta(seconds=38))

    runs = [r for r in await kit.services.job_runs.recent("rem", 200) if r.scheduled_for]
    assert len(runs) == MAX_ATTEMPTS and all(r.status == "failed" for r in runs)
    assert model.calls["rem_review"] == MAX_ATTEMPTS
    assert model.calls["rem_condense"] <= MAX_ATTEMPTS


async def test_the_budget_bounds_a_backlog_the_retry_rules_alone_would_let_through(
    settings: Settings, clock: FakeClock
) -> None:
    """3,000 imported messages are 15 batches: 315 failing curation calls are within the
    retry rules. The daily budget keeps each day's spending under its cap, and the work goes
    on every day rather than in one burst."""
    model = EverNewFailure(crashes=False)
    cap = BudgetSettings(daily_tokens=100_000)
    async with Kit.open(
        settings=dataclasses.replace(settings, budget=cap),
        llm=FakeLLM(default=model),
        embedder=HashingEmbedder(),
        clock=clock,
        background=False,
    ) as kit:
        start = MONDAY - timedelta(days=1)
        text = "We went through the garden plans, the trip and the budget again today. "
        await kit.import_messages(
            NewMessage("user" if n % 2 == 0 else "assistant", f"{n}: {text}", start + n * SECOND)
            for n in range(3000)
        )
        scheduler = KitScheduler(kit.services)
        await scheduler.start()
        await scheduler.idle()
        for _ in range(5 * 48):
            await _tick(scheduler, kit, clock)
        await scheduler.shutdown()

        spent = await _background_tokens_by_day(kit)
        pauses = await kit.services.budget.pauses(TODAY, TODAY + timedelta(days=5))

    assert spent and max(spent.values()) <= cap.daily_tokens
    assert len(spent) == 6  # every day did some of the work: none was skipped, none burst
    assert model.calls["curate"] < 15 * CATEGORIES * MAX_ATTEMPTS / 3
    assert pauses and all(p.refused <= 48 for p in pauses)  # one refusal per tick at most


SECOND = timedelta(seconds=20)


async def _background_tokens_by_day(kit: Kit) -> dict[date, int]:
    rows = await kit.services.db.fetchall(
        "SELECT at, input_tokens + output_tokens + cache_read_tokens + cache_write_tokens"
        " FROM llm_usage WHERE purpose != 'chat' AND at >= ?",
        (to_iso(MONDAY - timedelta(days=1)),),
    )
    by_day: Counter[date] = Counter()
    for at, tokens in rows:
        by_day[local_date(datetime.fromisoformat(at), kit.services.tz)] += int(tokens)
    return dict(by_day)
