"""A simulated week, driven through the scheduler's jobs with a fake clock: messages every day,
idle curation, day-end summaries, REM every night. On day 8 the context sandwich shows the last
two days condensed, the core facts, and nothing expired or retired."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.config import RemSettings, Settings
from kit.embed.hashing import HashingEmbedder
from kit.llm.fake import FakeLLM
from scheduler import KitScheduler
from tests.support.scripted_model import MemoryModel

pytestmark = pytest.mark.stores

MONDAY = datetime(2026, 3, 2, tzinfo=UTC)

# What the owner says on each day of the week (day 1 is Monday 2026-03-02).
SAID = {
    1: ["fact person: Ana lives in Lisbon", "fact preferences: Ana prefers tea over coffee"],
    2: [
        "fact projects: Ana is preparing the Porto hackathon",
        "fact entities: Ana has a dentist appointment on 2026-03-04 until 2026-03-04",
    ],
    3: ["fact technical: Ana deploys with Nix", "fact projects: Ana is writing a book on trams"],
}


@pytest.fixture
async def week_kit(
    settings: Settings, clock: FakeClock
) -> AsyncIterator[tuple[Kit, FakeLLM, MemoryModel]]:
    model = MemoryModel(retire=("hackathon",))
    llm = FakeLLM(default=model)
    # Facts unused for 3 days go to the REM review (60 in real life; a week is short).
    settings = dataclasses.replace(settings, rem=RemSettings(stale_days=3))
    async with Kit.open(
        settings=settings, llm=llm, embedder=HashingEmbedder(), clock=clock, background=False
    ) as kit:
        yield kit, llm, model


async def test_a_simulated_week_ends_with_the_right_sandwich(
    week_kit: tuple[Kit, FakeLLM, MemoryModel], clock: FakeClock
) -> None:
    kit, _, model = week_kit
    s = kit.services
    scheduler = KitScheduler(s)  # its jobs, driven by hand at the fake times

    for n in range(1, 8):
        day = MONDAY + timedelta(days=n - 1)
        clock.set(day + timedelta(hours=9))
        for i, text in enumerate([f"Day {n}: worked on topic-{n}", *SAID.get(n, [])]):
            clock.set(day + timedelta(hours=9, minutes=i))
            await kit.send(text)
        clock.set(day + timedelta(hours=10))  # idle for 30+ minutes: the conversation is over
        assert (await scheduler.run_now("curation_sweep")).status == "done"
        assert (await scheduler.run_now("embedding_backfill")).status == "done"
        clock.set(day + timedelta(hours=23, minutes=55))
        assert (await scheduler.run_now("daily_summary")).status == "done"
        clock.set(day + timedelta(days=1, hours=3))
        assert (await scheduler.run_now("rem")).status == "done"

    clock.set(MONDAY + timedelta(days=7, hours=9))  # day 8, Monday 2026-03-09
    sandwich = await s.context.build("owner", "What did I decide last week?", now=clock.now())
    memory = sandwich.system[1].text  # the stable block: core facts and recent days

    assert [d.day.isoformat() for d in sandwich.recent_days] == ["2026-03-07", "2026-03-08"]
    for d in sandwich.recent_days:
        assert d.condensed and d.detailed  # condensed by REM, the detailed one kept
        assert d.condensed in memory and d.detailed not in memory
    assert "- Day 7: worked on topic-7 (condensed)" in memory
    assert "[09:00]" not in memory  # the detailed bullets carry times; the condensed do not

    assert [f.content for f in sandwich.core_facts] == ["Ana lives in Lisbon"]
    assert "Ana lives in Lisbon" in memory
    everything = "\n".join(b.text for b in sandwich.system)
    assert "dentist" not in everything and "hackathon" not in everything

    facts = {f.content: f for f in await kit.facts(include_inactive=True)}
    dentist = facts["Ana has a dentist appointment on 2026-03-04"]
    assert not dentist.active
    assert (await kit.fact_history(dentist.id))[-1].reason == "expired"
    # REM would retire a fact held with confidence 0.9: it asked the owner first (issue 22),
    # and the fact stays in use until the owner answers.
    hackathon = facts["Ana is preparing the Porto hackathon"]
    assert hackathon.active
    (question,) = await kit.inbox()
    assert [f.id for f in question.old] == [hackathon.id] and question.operation["op"] == (
        "DEACTIVATE"
    )
    await kit.answer_question(question.id, "take-new")
    hackathon = await s.facts.get("owner", hackathon.id)
    last = (await kit.fact_history(hackathon.id))[-1]
    assert not hackathon.active and last.actor == "owner" and "hackathon is over" in last.reason
    assert facts["Ana prefers tea over coffee"].active and facts["Ana deploys with Nix"].active
    assert facts["Ana is writing a book on trams"].active

    days = await s.days.listing("owner")
    assert len(days) == 7 and all(d.condensed for d in days)
    report = await s.rem.last_report("owner")
    assert report is not None and report.condensed_days == (MONDAY.date() + timedelta(days=6),)
    assert len([r for r in await s.job_runs.recent("rem", 20) if r.status == "ok"]) == 7
    assert model.seen.count("daily_summary") == 7 and model.seen.count("rem_condense") == 7
