"""A sample of the crash soak (tests/trust/soak.py runs 100+ kill points): one SIGKILL of a
real Kit process in each phase (turns, embedding backfill, REM, curation, import), the file
checked after each, then a clean start that must finish everything the killed ones left."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.shared_model import require_model
from tests.trust.soak import HANG_GUARD, SCENARIOS, soak


@pytest.mark.integration
@pytest.mark.timeout(HANG_GUARD)
async def test_sigkill_in_every_phase_loses_nothing_and_the_work_resumes(tmp_path: Path) -> None:
    require_model()
    report = await soak(tmp_path, kills=len(SCENARIOS), seed=20260302, scale=0.2)
    assert report.problems == [], report.summary()
    assert set(report.kills) == set(SCENARIOS)
    assert report.final == {
        "curation_passes_left": 0,
        "unembedded": 0,
        "uncondensed_days": 0,
        "jobs_left_running": 0,
    }
    assert report.model_calls["curate"] > 0 and report.model_calls["rem_condense"] > 0
