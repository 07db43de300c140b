"""The daemon's start-up pass (scheduler/component.py): the day summaries of days Kit was off
for are written, REM then condenses them, and only then does the daemon say its start-up jobs
are done (systemd's status). The crash soak's clean start waits on that word: stopped before
it, the days the pass had just summarised were left uncondensed (tests/trust/soak.py)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.config import Settings
from kit.daemon.socket_client import SocketClient
from kit.embed.hashing import HashingEmbedder
from kit.llm.fake import FakeLLM
from kit.memory.messages import NewMessage
from scheduler.component import CAUGHT_UP, ScheduledJobs
from tests.support.inprocess_daemon import running_daemon

pytestmark = pytest.mark.slow


async def test_the_days_summarised_at_start_are_condensed_before_the_start_up_jobs_are_done(
    settings: Settings, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    yesterday = clock.now() - timedelta(days=1)  # the clock's 09:00: before REM's 03:00 ran
    async with Kit.open(
        settings=settings, llm=FakeLLM(), embedder=HashingEmbedder(), clock=clock
    ) as kit:
        await kit.import_messages(
            [NewMessage("user", "Baked bread with Ana", yesterday)], conversation="kitchen"
        )
        assert await kit.services.days.get("owner", yesterday.date()) is None
    llm = FakeLLM(default="- Baked bread with Ana\n- Planned the week")
    async with running_daemon(
        settings, clock, llm, monkeypatch, components=[ScheduledJobs], said=CAUGHT_UP
    ) as data:
        day = await SocketClient(data / "kit.sock").day(yesterday.date())
    assert day is not None and day.detailed  # the missed day summary, caught up at start
    assert day.condensed  # and condensed by the REM the pass caught up after it
    assert [r.purpose for r in llm.requests if r.purpose != "chat"][-1] == "rem_condense"
