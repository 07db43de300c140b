"""A turn cancelled mid-reply (daemon shutdown) keeps the owner's message and says so."""

from __future__ import annotations

import asyncio

import pytest

from kit.agent import INTERRUPTED_REPLY
from kit.api import Kit
from kit.embed.hashing import HashingEmbedder
from kit.llm.base import LLMReply, LLMRequest, TextSink
from kit.llm.fake import FakeLLM


class StalledLLM:
    """Starts streaming, then never finishes: what a slow model looks like at shutdown."""

    def __init__(self) -> None:
        self.called = asyncio.Event()

    async def complete(self, request: LLMRequest, on_text: TextSink | None = None) -> LLMReply:
        self.called.set()
        if on_text is not None:
            await on_text("Let me th")
        await asyncio.Event().wait()
        raise AssertionError("unreachable")


async def test_cancelled_turn_records_an_interrupted_reply(settings, clock) -> None:
    llm = StalledLLM()
    async with Kit.open(
        settings=settings, llm=llm, embedder=HashingEmbedder(), clock=clock, background=False
    ) as kit:
        turn = asyncio.create_task(kit.send("what's on my list today?", conversation="c1"))
        await llm.called.wait()
        turn.cancel()
        with pytest.raises(asyncio.CancelledError):
            await turn
        conv = await kit.services.messages.conversation("owner", "api", "c1")
        window = await kit.services.messages.window(conv.id)
    assert [(m.role, m.text, m.source) for m in window] == [
        ("user", "what's on my list today?", "chat"),
        ("assistant", INTERRUPTED_REPLY, "interrupted"),
    ]


async def test_a_finished_turn_gets_no_interrupted_marker(kit: Kit, fake_llm: FakeLLM) -> None:
    fake_llm.queue("Nothing urgent today.")
    result = await kit.send("what's on my list today?", conversation="c1")
    window = await kit.services.messages.window(result.conversation_id)
    assert [m.source for m in window] == ["chat", "chat"]
    assert INTERRUPTED_REPLY not in [m.text for m in window]
