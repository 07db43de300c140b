"""Follow-up tests run with follow-ups on (`followups.enabled`), two offers a day."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator

import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.config import FollowupSettings, Settings
from kit.embed.hashing import HashingEmbedder
from kit.llm.fake import FakeLLM


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return dataclasses.replace(settings, followups=FollowupSettings(enabled=True, per_day=2))


@pytest.fixture
async def other(settings: Settings, kit: Kit, clock: FakeClock) -> AsyncIterator[Kit]:
    """A second worker on the test's store, beside `kit` (opened after it: migrated)."""
    async with Kit.open(
        settings=settings, llm=FakeLLM(), embedder=HashingEmbedder(), clock=clock, background=False
    ) as opened:
        yield opened
