"""REM: condensing days, expiring facts, the stored report, progress, dry runs, overlap."""

from __future__ import annotations

import os
import socket
from datetime import date, datetime, timedelta

import pytest

from kit.api import Kit
from kit.clock import FakeClock, to_iso
from kit.curator.ops import Update
from kit.curator.reports import RemProgress
from kit.errors import LLMUnavailable, NotFound
from kit.jobs.runs import JobBusy
from kit.llm.fake import FakeLLM
from kit.memory.fact_writer import Provenance
from tests.support.rem import bullets

pytestmark = pytest.mark.stores

SAT, SUN = date(2026, 2, 28), date(2026, 3, 1)  # the clock is Monday 2026-03-02 09:00 UTC


async def _days(kit: Kit, *days: date, detailed: str = bullets(30, "detail")) -> None:
    for day in days:
        await kit.services.days.put_detailed("owner", day, detailed, 40)


async def test_condense_keeps_the_detailed_summary_and_the_context_shows_the_condensed(
    kit: Kit, fake_llm: FakeLLM
) -> None:
    await _days(kit, SAT, SUN)
    fake_llm.queue(bullets(12, "sat outcome"), "Condensed:\n" + bullets(10, "sun outcome"))

    report = await kit.services.rem.run("owner")

    assert report.condensed_days == (SAT, SUN) and report.rejected == ()
    assert report.changes[:2] == (
        "condensed 2026-02-28 (30 -> 12 bullets)",
        "condensed 2026-03-01 (30 -> 10 bullets)",
    )
    sun = await kit.day(SUN)
    assert sun is not None and sun.detailed == bullets(30, "detail")
    assert sun.condensed == bullets(10, "sun outcome") and sun.condensed_at is not None
    sandwich = await kit.services.context.build("owner", "hello", now=kit.services.clock.now())
    text = "\n".join(b.text for b in sandwich.system)
    assert "sun outcome 10" in text and "detail 1\n" not in text
    (request, _) = fake_llm.requests_for("rem_condense")
    prompt = request.messages[0].content[0].text  # type: ignore[union-attr]
    assert "2026-02-28 (Saturday)" in prompt and "- detail 30" in prompt and "$" not in prompt
    assert report.input_tokens > 0 and report.output_tokens > 0


@pytest.mark.parametrize(
    ("reply", "why"),
    [
        ("", "came back empty"),
        ("As an AI, I cannot condense this.", "refusal"),
        ("Nothing much happened.", "no bullet points"),
        (bullets(21), "21 bullets"),
    ],
)
async def test_bad_condensed_output_is_rejected_and_the_day_waits(
    kit: Kit, fake_llm: FakeLLM, reply: str, why: str
) -> None:
    await _days(kit, SAT, SUN)
    fake_llm.queue(reply, bullets(10))
    report = await kit.services.rem.run("owner")
    assert report.condensed_days == (SUN,)
    assert len(report.rejected) == 1 and report.rejected[0].startswith("condense 2026-02-28: ")
    assert why in report.rejected[0]
    assert [d.day for d in await kit.services.days.uncondensed("owner")] == [SAT]
    assert report.steps[0] == RemProgress("condense", "done", "1 day(s) condensed, 1 rejected")


async def test_a_condensed_day_never_has_more_bullets_than_the_detailed(
    kit: Kit, fake_llm: FakeLLM
) -> None:
    """A short day the model only lengthens is kept word for word, not rejected night after
    night (a real 1.5B model wrote 7 bullets for a 4-bullet day in every run)."""
    detailed = bullets(4)
    await _days(kit, SUN, detailed=detailed)
    fake_llm.queue(bullets(5))
    report = await kit.services.rem.run("owner")
    assert report.rejected == ()
    assert report.condensed_days == (SUN,)
    assert any("(4 -> 4 bullets, kept as it was" in line for line in report.changes)
    assert await kit.services.days.uncondensed("owner") == []
    fake_llm.queue(bullets(2))  # a second night asks the model nothing for that day
    again = await kit.services.rem.run("owner")
    assert again.condensed_days == ()


@pytest.mark.parametrize(
    ("day", "answer", "why"),
    [
        (24, 21, "21 bullets; at most 20"),  # a long day: at most 20
        (4, 30, "30 bullets; at most 4"),  # past 20 the answer is broken, not just unshortened
    ],
)
async def test_a_condensed_day_with_too_many_bullets_is_rejected_and_waits(
    kit: Kit, fake_llm: FakeLLM, day: int, answer: int, why: str
) -> None:
    await _days(kit, SUN, detailed=bullets(day))
    fake_llm.queue(bullets(answer))
    report = await kit.services.rem.run("owner")
    assert why in report.rejected[0]
    assert report.steps[0].status == "failed"
    assert [d.day for d in await kit.services.days.uncondensed("owner")] == [SUN]


async def test_expired_facts_are_deactivated_with_reason_expired_never_deleted(
    kit: Kit, clock: FakeClock
) -> None:
    now = clock.now()
    gone = await kit.remember("Owner is in Porto this week", expires_at=now - timedelta(hours=1))
    kept = await kit.remember("Owner has a dentist appointment", expires_at=now + timedelta(days=1))
    plain = await kit.remember("Owner likes tea")

    report = await kit.services.rem.run("owner")

    assert report.expired_fact_ids == (gone.id,)
    assert any(f"#{gone.id} (expired 2026-03-02)" in line for line in report.changes)
    facts = {f.id: f for f in await kit.facts(include_inactive=True)}
    assert not facts[gone.id].active and facts[kept.id].active and facts[plain.id].active
    last = (await kit.fact_history(gone.id))[-1]
    assert (last.actor, last.operation, last.reason) == ("rem", "deactivate", "expired")
    assert report.steps[3] == RemProgress("expire", "done", "1 expired fact(s) deactivated")


async def test_dry_run_plans_everything_and_applies_nothing(
    kit: Kit, fake_llm: FakeLLM, clock: FakeClock
) -> None:
    await _days(kit, SUN)
    fact = await kit.remember("Owner is away", expires_at=clock.now() - timedelta(minutes=1))
    fake_llm.queue(bullets(10))

    report = await kit.services.rem.run("owner", dry_run=True)

    assert report.dry_run and report.condensed_days == (SUN,)
    assert report.expired_fact_ids == (fact.id,)
    assert "would condense 2026-03-01 (30 -> 10 bullets)" in report.changes
    assert (await kit.day(SUN)).condensed == ""  # type: ignore[union-attr]
    assert (await kit.services.facts.get("owner", fact.id)).active
    assert await kit.services.rem.last_report("owner") is None


async def test_report_is_stored_and_read_back_whole(kit: Kit, fake_llm: FakeLLM) -> None:
    await _days(kit, SUN)
    fake_llm.queue(bullets(10))
    report = await kit.services.rem.run("owner")
    assert await kit.services.rem.last_report("owner") == report
    assert await kit.services.rem.last_report("ana") is None


async def test_progress_reports_each_step_running_then_its_outcome(
    kit: Kit, fake_llm: FakeLLM
) -> None:
    await _days(kit, SUN)
    fake_llm.queue(bullets(10))
    events: list[RemProgress] = []

    async def sink(event: RemProgress) -> None:
        events.append(event)

    report = await kit.services.rem.run("owner", on_progress=sink)
    assert [(e.step, e.status) for e in events] == [
        ("condense", "running"),
        ("condense", "done"),
        ("review", "running"),
        ("review", "skipped"),
        ("copies", "running"),
        ("copies", "skipped"),
        ("expire", "running"),
        ("expire", "skipped"),
    ]
    assert report.steps == tuple(e for e in events if e.status != "running")


async def test_unreachable_model_fails_the_step_and_the_others_still_run(
    kit: Kit, fake_llm: FakeLLM, clock: FakeClock
) -> None:
    await _days(kit, SUN)
    fact = await kit.remember("Owner is away", expires_at=clock.now() - timedelta(minutes=1))
    fake_llm.queue(LLMUnavailable("the Anthropic API is overloaded; try again later"))
    report = await kit.services.rem.run("owner")
    assert report.steps[0].status == "failed" and "overloaded" in report.steps[0].detail
    assert report.expired_fact_ids == (fact.id,)
    assert not (await kit.services.facts.get("owner", fact.id)).active


async def test_only_date_condenses_that_day_again_and_a_missing_day_is_an_error(
    kit: Kit, fake_llm: FakeLLM
) -> None:
    await _days(kit, SAT, SUN)
    await kit.services.days.put_condensed("owner", SUN, "- old condensed")
    fake_llm.queue("- new condensed")
    report = await kit.services.rem.run("owner", only_date=SUN)
    assert report.condensed_days == (SUN,)
    assert (await kit.day(SUN)).condensed == "- new condensed"  # type: ignore[union-attr]
    assert (await kit.day(SAT)).condensed == ""  # type: ignore[union-attr]
    with pytest.raises(NotFound, match="kit summarize --date 2026-02-27"):
        await kit.services.rem.run("owner", only_date=date(2026, 2, 27))


async def test_a_second_run_in_this_process_is_refused(kit: Kit, fake_llm: FakeLLM) -> None:
    await _days(kit, SUN)
    refused: list[str] = []

    async def sink(event: RemProgress) -> None:
        if event.status == "running" and event.step == "condense":
            with pytest.raises(JobBusy) as caught:
                await kit.services.rem.run("owner")
            refused.append(str(caught.value))

    fake_llm.queue(bullets(10))
    await kit.services.rem.run("owner", on_progress=sink)
    assert refused == ["REM is already running in this process; try again when it ends"]


async def test_a_run_held_by_another_live_process_is_refused_with_who_and_since(
    kit: Kit, clock: FakeClock
) -> None:
    """The DB lease: a 'running' row of a live process (here our parent) blocks a manual run."""
    await _lease_row(kit, f"{socket.gethostname()}:{os.getppid()}", clock.now())
    with pytest.raises(JobBusy, match=r"REM is already running \(since 2026-03-02 08:30, process"):
        await kit.services.rem.run("owner")


async def test_a_lease_left_by_a_dead_process_is_taken_over(kit: Kit, clock: FakeClock) -> None:
    dead = await _dead_pid()
    await _lease_row(kit, f"{socket.gethostname()}:{dead}", clock.now())
    await kit.services.rem.run("owner")
    latest, abandoned = await kit.services.job_runs.recent("rem", 2)
    assert latest.status == "ok"
    assert abandoned.status == "abandoned" and "its process is gone" in abandoned.detail


async def test_an_expired_lease_from_another_machine_is_taken_over(
    kit: Kit, clock: FakeClock
) -> None:
    await _lease_row(kit, "other-host:4242", clock.now() - timedelta(hours=7))
    with_lease = kit.services.job_runs
    await kit.services.rem.run("owner")
    assert [r.status for r in await with_lease.recent("rem", 2)] == ["ok", "abandoned"]


async def _lease_row(kit: Kit, owner: str, now: datetime) -> None:
    started = now - timedelta(minutes=30)
    async with kit.services.db.transaction() as tx:
        await tx.execute(
            "INSERT INTO job_runs (job, started_at, status, lease_owner, lease_expires_at)"
            " VALUES ('rem', ?, 'running', ?, ?)",
            (to_iso(started), owner, to_iso(started + timedelta(hours=6))),
        )


async def _dead_pid() -> int:
    """The pid of a process that has just exited."""
    import asyncio

    proc = await asyncio.create_subprocess_exec("true")
    await proc.wait()
    return proc.pid


async def test_an_expire_step_retiring_most_of_a_category_is_held_and_reported(
    kit: Kit, clock: FakeClock
) -> None:
    """Expiries set a few at a time (each pass within the guard) that fall due on the same
    night used to retire the whole category with no guard."""
    facts = [
        await kit.remember(f"Owner works on project {n}", category="projects", confidence=0.8)
        for n in range(4)
    ]
    curator = kit.services.curator
    soon = clock.now() + timedelta(days=2)
    first = await curator.apply_ops(
        "owner", "projects", [Update(f.id, expires_at=soon) for f in facts[:2]],
        kind="curate", source_message_ids=[],
    )  # fmt: skip
    second = await curator.apply_ops(
        "owner", "projects", [Update(facts[2].id, expires_at=soon)],
        kind="curate", source_message_ids=[],
    )  # fmt: skip
    assert first.status == second.status == "applied"
    clock.advance(timedelta(days=3))

    report = await kit.services.rem.run("owner")

    held_ids = tuple(f.id for f in facts[:3])
    assert report.expired_fact_ids == () and report.held_fact_ids == held_ids
    (line,) = report.rejected
    assert line.startswith("expire projects: held 3 of 4 facts past their expiry")
    assert f"from pass {first.pass_id}, {second.pass_id}" in line
    assert "`kit facts expire projects` retires them" in line
    assert all(f.active for f in await kit.facts(category="projects"))
    assert report.steps[3].detail == "0 expired fact(s) deactivated, 3 held (see the report)"

    await curator.undo("owner", second.pass_id or 0)  # the owner takes one expiry back
    assert (await kit.services.facts.get("owner", facts[2].id)).expires_at is None
    assert await kit.expire_facts("projects") == [f.id for f in facts[:2]]
    after = {f.id: f for f in await kit.facts(include_inactive=True)}
    assert [after[f.id].active for f in facts] == [False, False, True, True]
    last = (await kit.fact_history(facts[0].id))[-1]
    assert (last.actor, last.reason) == ("owner", "expired")


async def test_an_expire_step_within_the_limit_retires_and_small_categories_may_lose_one(
    kit: Kit, clock: FakeClock
) -> None:
    past = clock.now() - timedelta(hours=1)
    two = [await kit.remember(f"Owner owns thing {n}", category="entities") for n in range(4)]
    await kit.services.facts.update("owner", two[0].id, Provenance("owner"), expires_at=past)
    await kit.services.facts.update("owner", two[1].id, Provenance("owner"), expires_at=past)
    lone = await kit.remember("Owner is in Porto", category="people", expires_at=past)
    report = await kit.services.rem.run("owner")
    assert set(report.expired_fact_ids) == {two[0].id, two[1].id, lone.id}
    assert report.held_fact_ids == () and report.rejected == ()
