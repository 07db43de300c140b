"""Digest fixtures: a second "worker" on the test's store (kit/digest sends once across them)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.config import Settings
from kit.embed.hashing import HashingEmbedder
from kit.llm.fake import FakeLLM


@pytest.fixture
async def other(settings: Settings, kit: Kit, clock: FakeClock) -> AsyncIterator[Kit]:
    """A second worker on the test's store, beside `kit` (opened after it: migrated)."""
    async with Kit.open(
        settings=settings, llm=FakeLLM(), embedder=HashingEmbedder(), clock=clock, background=False
    ) as opened:
        yield opened
