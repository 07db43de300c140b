"""What the chat-turn tests share: Kit on the local preset, its chat model a local server
speaking llama-cpp-python's dialect (the real openai SDK against tests/servers/openai_api.py)."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator

import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.config import Settings
from kit.embed.hashing import HashingEmbedder
from tests.servers.openai_api import FakeOpenAIServer


@pytest.fixture
async def local(
    settings: Settings, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[tuple[Kit, FakeOpenAIServer]]:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    async with FakeOpenAIServer(dialect="llama-cpp-python") as server:
        llm = dataclasses.replace(
            settings.llm,
            provider="openai",
            base_url=server.url,
            preset="local",
            structured_output="json_object",
            max_retries=0,
        )
        async with Kit.open(
            settings=dataclasses.replace(settings, llm=llm),
            embedder=HashingEmbedder(),
            clock=clock,
            background=False,
        ) as kit:
            yield kit, server
