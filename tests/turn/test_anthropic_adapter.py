"""The Anthropic adapter with the real SDK against a local Messages API server."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from kit.errors import LLMUnavailable
from kit.llm.anthropic import AnthropicLLM
from kit.llm.base import (
    ChatMessage,
    LLMRequest,
    SystemBlock,
    TextBlock,
    ToolResult,
    ToolSpec,
    ToolUse,
)
from tests.servers.anthropic_api import FakeAnthropicServer


@pytest.fixture
async def server() -> AsyncIterator[FakeAnthropicServer]:
    async with FakeAnthropicServer() as running:
        yield running


def _request(**changes: object) -> LLMRequest:
    base: dict[str, object] = dict(
        model="claude-test",
        system=(SystemBlock("stable part", cache=True), SystemBlock("per turn")),
        messages=(ChatMessage.text("user", "hello"),),
        max_tokens=100,
    )
    base.update(changes)
    return LLMRequest(**base)  # type: ignore[arg-type]


async def _llm(server: FakeAnthropicServer, **kw: object) -> AnthropicLLM:
    return AnthropicLLM(api_key="test-key", base_url=server.url, **kw)  # type: ignore[arg-type]


async def test_text_reply_and_usage(server: FakeAnthropicServer) -> None:
    server.queue_text("Hi there", input_tokens=42, output_tokens=7, cache_read=30)
    llm = await _llm(server, max_retries=0)
    try:
        reply = await llm.complete(_request())
    finally:
        await llm.aclose()
    assert reply.text == "Hi there"
    assert (reply.usage.input_tokens, reply.usage.output_tokens) == (42, 7)
    assert reply.usage.cache_read_tokens == 30


async def test_system_blocks_marked_for_prompt_caching(server: FakeAnthropicServer) -> None:
    """The stable prefix carries cache_control; the per-turn part does not."""
    llm = await _llm(server, max_retries=0)
    try:
        await llm.complete(_request())
    finally:
        await llm.aclose()
    system = server.requests[-1].json["system"]
    assert system[0] == {
        "type": "text",
        "text": "stable part",
        "cache_control": {"type": "ephemeral"},
    }
    assert "cache_control" not in system[1]


async def test_tool_use_and_tool_results_round_trip(server: FakeAnthropicServer) -> None:
    server.queue_tool_use("search_memory", {"query": "Ana"}, tool_id="toolu_1")
    server.queue_text("Found it")
    tools = (ToolSpec("search_memory", "search", {"type": "object", "properties": {}}),)
    llm = await _llm(server, max_retries=0)
    try:
        first = await llm.complete(_request(tools=tools))
        assert first.tool_uses == (ToolUse("toolu_1", "search_memory", {"query": "Ana"}),)
        follow_up = (
            ChatMessage.text("user", "hello"),
            ChatMessage("assistant", first.content),
            ChatMessage("user", (ToolResult("toolu_1", "Ana likes tea"),)),
        )
        second = await llm.complete(_request(tools=tools, messages=follow_up))
    finally:
        await llm.aclose()
    assert second.text == "Found it"
    sent = server.requests[-1].json
    assert sent["tools"][0]["name"] == "search_memory"
    assert sent["messages"][2]["content"][0] == {
        "type": "tool_result",
        "tool_use_id": "toolu_1",
        "content": "Ana likes tea",
        "is_error": False,
    }


async def test_streaming_delivers_text_in_pieces(server: FakeAnthropicServer) -> None:
    server.queue_text("A fairly long answer that arrives in several pieces.")
    chunks: list[str] = []

    async def sink(chunk: str) -> None:
        chunks.append(chunk)

    llm = await _llm(server, max_retries=0)
    try:
        reply = await llm.complete(_request(), on_text=sink)
    finally:
        await llm.aclose()
    assert "".join(chunks) == reply.text == "A fairly long answer that arrives in several pieces."
    assert len(chunks) > 1
    assert server.requests[-1].json["stream"] is True


@pytest.mark.parametrize("status", [429, 529, 500])
async def test_api_errors_become_llm_unavailable_after_retries(
    server: FakeAnthropicServer, status: int
) -> None:
    for _ in range(3):
        server.queue_error(status, retry_after=0.01)
    llm = await _llm(server, max_retries=2)
    try:
        with pytest.raises(LLMUnavailable) as caught:
            await llm.complete(_request())
    finally:
        await llm.aclose()
    assert len(server.requests) == 3  # one try plus two bounded retries
    assert "test-key" not in str(caught.value)


async def test_transient_error_is_retried_then_succeeds(server: FakeAnthropicServer) -> None:
    server.queue_error(529, retry_after=0.01)
    server.queue_text("recovered")
    llm = await _llm(server, max_retries=2)
    try:
        reply = await llm.complete(_request())
    finally:
        await llm.aclose()
    assert reply.text == "recovered"


async def test_timeout_becomes_llm_unavailable(server: FakeAnthropicServer) -> None:
    server.queue_stall(2.0)
    llm = await _llm(server, max_retries=0, timeout=0.3)
    try:
        with pytest.raises(LLMUnavailable, match="did not answer in time"):
            await llm.complete(_request())
    finally:
        await llm.aclose()


async def test_stream_cut_midway_becomes_llm_unavailable(server: FakeAnthropicServer) -> None:
    """Cut twice: a broken stream is asked once more (tests/turn/test_bounded_replies.py)."""
    server.queue_cut_stream("The answer is")
    server.queue_cut_stream("The answer is")
    seen: list[str] = []

    async def sink(chunk: str) -> None:
        seen.append(chunk)

    llm = await _llm(server, max_retries=0)
    try:
        with pytest.raises(LLMUnavailable, match="broke off"):
            await llm.complete(_request(), on_text=sink)
    finally:
        await llm.aclose()


async def test_empty_content_is_an_empty_reply_not_a_crash(server: FakeAnthropicServer) -> None:
    server.queue_text("")
    llm = await _llm(server, max_retries=0)
    try:
        reply = await llm.complete(_request())
    finally:
        await llm.aclose()
    assert reply.text == ""
    assert reply.content in ((), (TextBlock(""),))
