"""A scheduled job that keeps failing is recorded where `kit doctor` looks, and doctor names it
with the command that redoes it by hand, instead of saying "All good"."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from apscheduler.triggers.interval import IntervalTrigger

from kit.api import Kit
from kit.app import Services
from kit.cli import parser
from kit.clock import FakeClock
from kit.jobs.runs import FAILURES_KEPT
from scheduler import KitScheduler
from scheduler.jobs import JobSpec

SECRET_ANSWER = "the model said my PIN is 4471"


async def _crashing_sweep(services: Services, now: datetime, scheduled_for: datetime | None) -> str:
    raise OverflowError("date value out of range")


async def _doctor(kit: Kit, tmp_path: Path, monkeypatch: Any, capsys: Any) -> tuple[int, str]:
    monkeypatch.setenv("KIT_DATA_DIR", str(kit.settings.data_dir))
    monkeypatch.setenv("KIT_CONFIG", str(tmp_path / "doctor.toml"))
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-0123456789")
    (tmp_path / "doctor.toml").write_text("")
    args = parser().parse_args(["doctor", "--offline"])
    code = await args.func(args)
    return code, capsys.readouterr().out


async def test_a_sweep_that_keeps_crashing_is_a_problem_doctor_names_until_it_succeeds(
    kit: Kit, clock: FakeClock, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    """Before, every sweep crashed, the scheduler only logged it, and doctor said "All good"."""
    crashing = JobSpec("curation_sweep", IntervalTrigger(minutes=5), _crashing_sweep, False)
    scheduler = KitScheduler(kit.services, jobs=[crashing])
    for _ in range(3):
        assert (await scheduler.run_now("curation_sweep")).status == "failed"
        clock.advance(timedelta(minutes=5))

    code, out = await _doctor(kit, tmp_path, monkeypatch, capsys)

    assert code == 1 and "All good" not in out
    line = next(x for x in out.splitlines() if "job curation_sweep" in x)
    assert line.startswith("  FIX   job curation_sweep: 3 run(s) went wrong since the last")
    assert "(never)" in line and "failed: OverflowError (see the log)" in line
    assert "logs/kit.log" in line and "`kit curate` curates now" in line

    async def fine(services: Services, now: datetime, scheduled_for: datetime | None) -> str:
        return "0 curation pass(es)"

    healed = KitScheduler(
        kit.services, jobs=[JobSpec("curation_sweep", crashing.trigger, fine, False)]
    )
    assert (await healed.run_now("curation_sweep")).status == "done"
    assert await kit.services.job_runs.troubles() == []
    runs = await kit.services.job_runs.recent("curation_sweep", 50)
    assert [r.status for r in runs] == ["ok"]  # an interval job keeps only what doctor needs
    code, out = await _doctor(kit, tmp_path, monkeypatch, capsys)
    assert "ok    jobs: none failed since its last success" in out


async def test_an_interval_jobs_failures_are_kept_bounded(kit: Kit, clock: FakeClock) -> None:
    crashing = JobSpec("curation_sweep", IntervalTrigger(minutes=5), _crashing_sweep, False)
    scheduler = KitScheduler(kit.services, jobs=[crashing])
    for _ in range(FAILURES_KEPT + 5):
        await scheduler.run_now("curation_sweep")
        clock.advance(timedelta(minutes=5))
    runs = await kit.services.job_runs.recent("curation_sweep", 100)
    assert len(runs) == FAILURES_KEPT
    (trouble,) = await kit.services.job_runs.troubles()
    assert trouble.failures == FAILURES_KEPT and trouble.latest.id == runs[0].id


async def test_a_rem_run_whose_process_died_is_reported_as_never_finished(
    kit: Kit, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    async with kit.services.db.transaction() as tx:
        await tx.execute(
            "INSERT INTO job_runs (job, started_at, status, lease_owner, lease_expires_at)"
            " VALUES ('rem', '2026-03-02T03:00:00+00:00', 'running', 'elsewhere:1',"
            " '2026-03-02T04:00:00+00:00')"
        )
    code, out = await _doctor(kit, tmp_path, monkeypatch, capsys)
    assert code == 1
    assert "FIX   job rem: 1 run(s) went wrong" in out and "never finished" in out
    assert "`kit rem` runs it now" in out
