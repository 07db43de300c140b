"""The fake Anthropic server, exercised through the real `anthropic` SDK (no mocks)."""

from __future__ import annotations

import time

import anthropic
import httpx2  # the transport the anthropic SDK is built on
import pytest

from tests.servers.anthropic_api import FakeAnthropicServer, text_reply

MODEL = "claude-test-model"
USER = [{"role": "user", "content": "hi"}]


def client_for(server: FakeAnthropicServer, **kw: object) -> anthropic.AsyncAnthropic:
    kw.setdefault("max_retries", 0)
    return anthropic.AsyncAnthropic(base_url=server.url, api_key="test-key", **kw)  # type: ignore[arg-type]


@pytest.fixture
def server():
    with FakeAnthropicServer() as s:
        yield s


@pytest.mark.asyncio
async def test_text_reply(server: FakeAnthropicServer) -> None:
    server.queue_text("Hello there", input_tokens=12, output_tokens=3, cache_read=7, cache_write=2)
    async with client_for(server) as client:
        msg = await client.messages.create(model=MODEL, max_tokens=100, messages=USER)
    assert msg.id.startswith("msg_")
    assert (msg.type, msg.role, msg.model) == ("message", "assistant", MODEL)
    assert msg.content[0].type == "text" and msg.content[0].text == "Hello there"
    assert msg.stop_reason == "end_turn" and msg.stop_sequence is None
    assert (msg.usage.input_tokens, msg.usage.output_tokens) == (12, 3)
    assert (msg.usage.cache_read_input_tokens, msg.usage.cache_creation_input_tokens) == (7, 2)
    assert msg._request_id and msg._request_id.startswith("req_")


@pytest.mark.asyncio
async def test_default_reply_is_ok_when_queue_empty(server: FakeAnthropicServer) -> None:
    async with client_for(server) as client:
        msg = await client.messages.create(model=MODEL, max_tokens=10, messages=USER)
    assert msg.content[0].text == "ok"


@pytest.mark.asyncio
async def test_tool_use_reply(server: FakeAnthropicServer) -> None:
    server.queue_tool_use(
        "get_weather",
        {"city": "Paris", "days": 3},
        text_before="Let me check.",
        tool_id="toolu_123",
    )
    async with client_for(server) as client:
        msg = await client.messages.create(model=MODEL, max_tokens=100, messages=USER)
    assert msg.stop_reason == "tool_use"
    assert [b.type for b in msg.content] == ["text", "tool_use"]
    tool = msg.content[1]
    assert tool.type == "tool_use"
    assert (tool.id, tool.name, tool.input) == (
        "toolu_123",
        "get_weather",
        {"city": "Paris", "days": 3},
    )


@pytest.mark.asyncio
async def test_stream_text(server: FakeAnthropicServer) -> None:
    text = "The quick brown fox jumps over the lazy dog."
    server.queue_text(text, input_tokens=20, output_tokens=11, cache_read=4)
    async with client_for(server) as client:
        async with client.messages.stream(model=MODEL, max_tokens=100, messages=USER) as stream:
            deltas = [d async for d in stream.text_stream]
            final = await stream.get_final_message()
    assert len(deltas) > 1 and "".join(deltas) == text
    assert final.content[0].text == text
    assert final.stop_reason == "end_turn" and final.model == MODEL
    assert (final.usage.input_tokens, final.usage.output_tokens) == (20, 11)
    assert final.usage.cache_read_input_tokens == 4


@pytest.mark.asyncio
async def test_stream_tool_use(server: FakeAnthropicServer) -> None:
    args = {"query": "groceries", "tags": ["food", "weekly"], "limit": 5}
    server.queue_tool_use("search_notes", args, text_before="Searching.")
    async with client_for(server) as client:
        async with client.messages.stream(model=MODEL, max_tokens=100, messages=USER) as stream:
            final = await stream.get_final_message()
    assert final.stop_reason == "tool_use"
    text, tool = final.content
    assert text.type == "text" and text.text == "Searching."
    assert tool.type == "tool_use" and tool.name == "search_notes" and tool.input == args
    assert tool.id.startswith("toolu_")


@pytest.mark.asyncio
async def test_create_stream_true_raw_events(server: FakeAnthropicServer) -> None:
    server.queue_text("abc")
    async with client_for(server) as client:
        stream = await client.messages.create(
            model=MODEL, max_tokens=10, messages=USER, stream=True
        )
        events = [e async for e in stream]
    types = [e.type for e in events]
    assert types[0] == "message_start" and types[-2:] == ["message_delta", "message_stop"]
    assert "content_block_start" in types and "content_block_stop" in types
    deltas = [e.delta.text for e in events if e.type == "content_block_delta"]
    assert "".join(deltas) == "abc"


@pytest.mark.asyncio
async def test_rate_limit_error(server: FakeAnthropicServer) -> None:
    server.queue_error(429, message="slow down", retry_after=0.01)
    async with client_for(server) as client:
        with pytest.raises(anthropic.RateLimitError) as info:
            await client.messages.create(model=MODEL, max_tokens=10, messages=USER)
    assert info.value.status_code == 429
    assert info.value.body == {
        "type": "error",
        "error": {"type": "rate_limit_error", "message": "slow down"},
    }
    assert info.value.response.headers["retry-after"] == "0.01"


@pytest.mark.asyncio
async def test_overloaded_error(server: FakeAnthropicServer) -> None:
    server.queue_error(529)
    async with client_for(server) as client:
        with pytest.raises(anthropic.APIStatusError) as info:
            await client.messages.create(model=MODEL, max_tokens=10, messages=USER)
    assert info.value.status_code == 529
    assert info.value.body["error"]["type"] == "overloaded_error"  # type: ignore[index]


@pytest.mark.asyncio
async def test_sdk_retries_500_then_succeeds(server: FakeAnthropicServer) -> None:
    server.queue_error(500, retry_after=0.01)
    server.queue_text("recovered")
    async with client_for(server, max_retries=2) as client:
        msg = await client.messages.create(model=MODEL, max_tokens=10, messages=USER)
    assert msg.content[0].text == "recovered"
    assert len(server.requests) == 2


@pytest.mark.asyncio
async def test_requests_are_recorded(server: FakeAnthropicServer) -> None:
    tools = [
        {"name": "t", "description": "d", "input_schema": {"type": "object", "properties": {}}}
    ]
    system = [{"type": "text", "text": "You are Kit.", "cache_control": {"type": "ephemeral"}}]
    async with client_for(server) as client:
        await client.messages.create(
            model=MODEL, max_tokens=7, messages=USER, system=system, tools=tools
        )
    [req] = server.requests
    assert req.path == "/v1/messages"
    # This SDK build sends the key as a bearer token; older ones used x-api-key.
    assert "test-key" in (
        req.headers.get("x-api-key", ""),
        req.headers.get("authorization", "")[7:],
    )
    assert "anthropic-version" in req.headers
    assert req.json["system"] == system and req.json["tools"] == tools
    assert req.json["messages"] == USER and req.json["max_tokens"] == 7


@pytest.mark.asyncio
async def test_responder_answers_dynamically(server: FakeAnthropicServer) -> None:
    server.responder = lambda req: text_reply(f"echo: {req['system']}")
    async with client_for(server) as client:
        msg = await client.messages.create(model=MODEL, max_tokens=10, messages=USER, system="S1")
        server.responder = lambda req: "plain string"
        msg2 = await client.messages.create(model=MODEL, max_tokens=10, messages=USER)
    assert msg.content[0].text == "echo: S1"
    assert msg2.content[0].text == "plain string"


@pytest.mark.asyncio
async def test_count_tokens(server: FakeAnthropicServer) -> None:
    async with client_for(server) as client:
        result = await client.messages.count_tokens(model=MODEL, messages=USER, system="x" * 400)
    assert result.input_tokens >= 100
    assert server.requests[-1].path == "/v1/messages/count_tokens"


@pytest.mark.asyncio
async def test_stall_triggers_client_timeout(server: FakeAnthropicServer) -> None:
    # Stalled for longer than any test runs (closing the server wakes it): the handler never
    # pops the next item, however slowly the retry arrives on a busy machine.
    server.queue_stall(600)
    server.queue_text("after the stall")
    async with client_for(server, timeout=0.3) as client:
        with pytest.raises(anthropic.APITimeoutError):
            await client.messages.create(model=MODEL, max_tokens=10, messages=USER)
        # The stalled handler has not popped the next item yet, so this request gets it.
        msg = await client.messages.create(model=MODEL, max_tokens=10, messages=USER)
    assert msg.content[0].text == "after the stall"


@pytest.mark.asyncio
async def test_short_stall_then_answers(server: FakeAnthropicServer) -> None:
    server.queue_stall(0.2)
    server.queue_text("late")
    async with client_for(server) as client:
        start = time.monotonic()
        msg = await client.messages.create(model=MODEL, max_tokens=10, messages=USER)
    assert msg.content[0].text == "late" and time.monotonic() - start >= 0.2


@pytest.mark.asyncio
async def test_cut_stream_raises_mid_stream(server: FakeAnthropicServer) -> None:
    server.queue_cut_stream("Partial ans")
    seen: list[str] = []
    async with client_for(server) as client:
        # Worth knowing: the SDK does not wrap errors raised mid-stream, so callers see the
        # transport's own exception rather than anthropic.APIConnectionError.
        with pytest.raises(httpx2.RemoteProtocolError):
            async with client.messages.stream(model=MODEL, max_tokens=100, messages=USER) as stream:
                async for delta in stream.text_stream:
                    seen.append(delta)
    assert "".join(seen) == "Partial ans"


@pytest.mark.asyncio
async def test_async_with_and_close_while_stalled() -> None:
    async with FakeAnthropicServer() as server:
        server.queue_stall(30)
        async with client_for(server, timeout=0.2) as client:
            with pytest.raises(anthropic.APITimeoutError):
                await client.messages.create(model=MODEL, max_tokens=10, messages=USER)
        start = time.monotonic()
    assert time.monotonic() - start < 5  # close() woke the stalled handler instead of waiting 30s


@pytest.mark.asyncio
async def test_a_key_it_does_not_take_is_401_and_an_unknown_model_404() -> None:
    with FakeAnthropicServer(api_key="test-key", models={MODEL}) as server:
        async with anthropic.AsyncAnthropic(
            base_url=server.url, api_key="wrong", max_retries=0
        ) as wrong:
            with pytest.raises(anthropic.AuthenticationError):
                await wrong.messages.count_tokens(model=MODEL, messages=USER)  # type: ignore[arg-type]
        async with client_for(server) as client:
            counted = await client.messages.count_tokens(model=MODEL, messages=USER)  # type: ignore[arg-type]
            assert counted.input_tokens > 0
            with pytest.raises(anthropic.NotFoundError):
                await client.messages.create(model="claude-nope", max_tokens=1, messages=USER)  # type: ignore[arg-type]
