"""A short run of the load test (tests/trust/load.py runs it for minutes): 20 conversations at
once over the control socket and Telegram, several users, curation running beside them; the
daemon's socket, database and log are owner-only."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.shared_model import require_model
from tests.trust.load import HANG_GUARD, load


@pytest.mark.integration
@pytest.mark.timeout(HANG_GUARD)
async def test_twenty_conversations_at_once_lose_nothing_and_answer_once_in_order(
    tmp_path: Path,
) -> None:
    """A fixed amount of work (6 messages in each of the 20 conversations), not a fixed time:
    a loaded machine takes longer over it and is held to the same count."""
    require_model()
    report = await load(tmp_path, messages=6, rate=1.0)
    assert report.problems == [], report.summary()
    assert report.sent == 20 * 6 and report.answered == report.sent
    assert report.curation_runs >= 1  # curation ran beside the load
