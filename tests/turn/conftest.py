"""What the chat-turn tests share: Kit on the local preset, its chat model a local server
speaking llama-cpp-python's dialect (the real openai SDK against tests/servers/openai_api.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.config import Settings
from tests.servers.openai_api import FakeOpenAIServer
from tests.support.local_kit import local_kit


@pytest.fixture
async def local(
    settings: Settings, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[tuple[Kit, FakeOpenAIServer]]:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    async with (
        FakeOpenAIServer(dialect="llama-cpp-python") as server,
        local_kit(settings, server.url, clock) as kit,
    ):
        yield kit, server
