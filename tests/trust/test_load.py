"""A short run of the load test (tests/trust/load.py runs it for minutes): 20 conversations at
once over the control socket and Telegram, several users, curation running beside them; the
daemon's socket, database and log are owner-only."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.shared_model import require_model
from tests.trust.load import load


@pytest.mark.integration
async def test_twenty_conversations_at_once_lose_nothing_and_answer_once_in_order(
    tmp_path: Path,
) -> None:
    require_model()
    report = await load(tmp_path, seconds=6, rate=1.0)
    assert report.problems == [], report.summary()
    assert report.sent >= 100 and report.answered == report.sent
    assert report.curation_runs >= 1  # curation ran beside the load
