"""Every model call is bounded, on both providers (the real anthropic and openai SDKs against
local servers that misbehave): a deadline for the whole answer (a trickle never trips a
per-read timeout), a size past which the answer is cut and says so (the rest is not read),
and a stream that ends without its end marker is asked once more, never kept as complete."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from kit.errors import LLMBusy, LLMTimeout, LLMUnavailable
from kit.llm.anthropic import AnthropicLLM
from kit.llm.base import ChatMessage, LLMReply, LLMRequest, SystemBlock
from kit.llm.bounds import BROKE_OFF_NOTE, cut_note, reply_chars
from kit.llm.openai import OpenAILLM
from tests.servers.providers import PROVIDERS, Endpoint

pytestmark = pytest.mark.parametrize("provider", PROVIDERS)

MAX_TOKENS = 64  # the answer may keep reply_chars(64) = 1,024 characters


@pytest.fixture
async def endpoint(provider: str) -> AsyncIterator[Endpoint]:
    async with Endpoint.start(provider) as running:
        yield running


def _request() -> LLMRequest:
    return LLMRequest(
        model="chat-model",
        system=(SystemBlock("be brief"),),
        messages=(ChatMessage.text("user", "hello"),),
        max_tokens=MAX_TOKENS,
    )


async def _complete(
    endpoint: Endpoint, *, streaming: bool, deadline: float | None = None
) -> tuple[LLMReply, str]:
    """One call with a generous per-read timeout; with the text streamed, when `streaming`."""
    kind = AnthropicLLM if endpoint.provider == "anthropic" else OpenAILLM
    llm = kind(api_key="test-key", base_url=endpoint.url, max_retries=0, timeout=60.0,
               deadline=deadline)  # fmt: skip
    seen: list[str] = []

    async def sink(piece: str) -> None:
        seen.append(piece)

    try:
        reply = await llm.complete(_request(), sink if streaming else None)
    finally:
        await llm.aclose()
    return reply, "".join(seen)


@pytest.mark.parametrize("streaming", [False, True], ids=["plain", "streaming"])
async def test_an_answer_that_trickles_ends_at_the_deadline(
    endpoint: Endpoint, streaming: bool
) -> None:
    """One character every 10 ms never trips the 60 s per-read timeout; the deadline ends the
    call, and the connection (the server stops sending when it is gone)."""
    endpoint.queue_trickle()
    with pytest.raises(LLMTimeout, match="did not answer in time"):
        await _complete(endpoint, streaming=streaming, deadline=1.0)
    if endpoint.endless_began:  # on a loaded machine the deadline may pass before it does
        assert await asyncio.to_thread(endpoint.wait_abandoned)


async def test_a_streamed_flood_is_cut_at_the_limit_and_the_rest_is_not_read(
    endpoint: Endpoint,
) -> None:
    """A server that ignores max_tokens and never stops: the answer keeps the limit, says it
    was cut, is marked max_tokens, and the stream is closed (the server sees it go)."""
    endpoint.queue_flood(None)
    reply, streamed = await _complete(endpoint, streaming=True)
    limit = reply_chars(MAX_TOKENS)
    assert reply.stop_reason == "max_tokens"
    assert reply.text == "x" * limit + cut_note(limit)
    assert streamed == reply.text  # what the owner saw is what is kept
    assert await asyncio.to_thread(endpoint.wait_abandoned)


async def test_a_plain_answer_past_the_limit_is_cut_and_says_so(endpoint: Endpoint) -> None:
    endpoint.queue_flood(50_000)  # within the body's bound, past the answer's
    reply, _ = await _complete(endpoint, streaming=False)
    limit = reply_chars(MAX_TOKENS)
    assert reply.stop_reason == "max_tokens"
    assert reply.text == "x" * limit + cut_note(limit)


async def test_a_plain_body_past_its_bound_is_dropped_unread(endpoint: Endpoint) -> None:
    """A body too big to read in part: nothing of it is kept, and reading stops at the bound."""
    endpoint.queue_flood(None)  # endless: reading must stop by itself
    with pytest.raises(LLMUnavailable, match="nothing of it was kept") as caught:
        await _complete(endpoint, streaming=False)
    assert not isinstance(caught.value, LLMBusy)  # the same again would do the same
    assert await asyncio.to_thread(endpoint.wait_abandoned)


async def test_an_answer_within_the_limit_is_untouched(endpoint: Endpoint) -> None:
    endpoint.queue(endpoint.text("y" * reply_chars(MAX_TOKENS)))
    reply, streamed = await _complete(endpoint, streaming=True)
    assert reply.stop_reason == "end_turn" and reply.text == "y" * reply_chars(MAX_TOKENS)
    assert streamed == reply.text


@pytest.mark.parametrize("clean", [True, False], ids=["no end marker", "connection dropped"])
async def test_a_broken_stream_is_asked_once_more(endpoint: Endpoint, clean: bool) -> None:
    """A stream that ends without finish_reason / message_stop (or whose connection drops)
    is not an answer: the call is made once more, and the owner is told why the text
    starts over."""
    endpoint.queue_cut_stream("The answer is", clean=clean)
    endpoint.queue(endpoint.text("The answer is 42."))
    reply, streamed = await _complete(endpoint, streaming=True)
    assert reply.text == "The answer is 42." and reply.stop_reason == "end_turn"
    assert streamed == "The answer is" + BROKE_OFF_NOTE + "The answer is 42."
    assert len(endpoint.bodies()) == 2


@pytest.mark.parametrize("clean", [True, False], ids=["no end marker", "connection dropped"])
async def test_a_stream_broken_twice_fails_and_is_never_an_answer(
    endpoint: Endpoint, clean: bool
) -> None:
    for _ in range(2):
        endpoint.queue_cut_stream("The answer is", clean=clean)
    with pytest.raises(LLMUnavailable, match="broke off twice") as caught:
        await _complete(endpoint, streaming=True)
    assert not isinstance(caught.value, LLMBusy)  # asked once more, not again
    assert len(endpoint.bodies()) == 2
