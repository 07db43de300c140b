"""Kit on the local preset against a local OpenAI-compatible server (llama-cpp-python's
dialect): what the chat-turn and the extract-style tests share."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from kit.api import Kit
from kit.clock import FakeClock
from kit.config import Settings
from kit.embed.hashing import HashingEmbedder


@asynccontextmanager
async def local_kit(
    settings: Settings, base_url: str, clock: FakeClock, **llm: Any
) -> AsyncIterator[Kit]:
    """Kit whose model is the server at `base_url` (JSON-object output, no retries); `llm`
    overrides more of its [llm] settings. The caller unsets OPENAI_API_KEY."""
    chosen = dataclasses.replace(
        settings.llm,
        provider="openai",
        base_url=base_url,
        preset="local",
        structured_output="json_object",
        max_retries=0,
        **llm,
    )
    async with Kit.open(
        settings=dataclasses.replace(settings, llm=chosen),
        embedder=HashingEmbedder(),
        clock=clock,
        background=False,
    ) as kit:
        yield kit
