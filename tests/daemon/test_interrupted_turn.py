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
        self.calls = 0

    async def complete(self, request: LLMRequest, on_text: TextSink | None = None) -> LLMReply:
        self.calls += 1
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


async def test_interrupt_cancels_every_running_turn_and_wait_idle_sees_them_end(
    settings, clock
) -> None:
    llm = StalledLLM()
    async with Kit.open(
        settings=settings, llm=llm, embedder=HashingEmbedder(), clock=clock, background=False
    ) as kit:
        agent = kit.services.agent
        turns = [
            asyncio.create_task(kit.send("first", conversation="a")),
            asyncio.create_task(kit.send("second", conversation="b")),
        ]
        while llm.calls < 2:  # noqa: ASYNC110 - both turns must be waiting on the model
            await asyncio.sleep(0)
        assert agent.in_flight == 2
        assert agent.interrupt() == 2
        await agent.wait_idle()
        results = await asyncio.gather(*turns, return_exceptions=True)
        assert all(isinstance(r, asyncio.CancelledError) for r in results)
        assert agent.in_flight == 0
        for name in ("a", "b"):
            conv = await kit.services.messages.conversation("owner", "api", name)
            window = await kit.services.messages.window(conv.id)
            assert [m.source for m in window] == ["chat", "interrupted"]
