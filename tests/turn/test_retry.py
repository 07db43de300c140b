"""Background retries (kit/llm/retry.py): a passing refusal is tried again after a backoff
that honours retry-after; a timed-out prompt is never resent; a refusal for good is not retried."""

from __future__ import annotations

import pytest

from kit.errors import LLMBusy, LLMTimeout, LLMUnavailable
from kit.llm.base import ChatMessage, LLMRequest
from kit.llm.fake import FakeLLM
from kit.llm.retry import MAX_RETRY_AFTER, RetryingLLM, backoff

REQUEST = LLMRequest("m", (), (ChatMessage.text("user", "hi"),), 10, purpose="curate:people")


def _retrying(*script: object, retries: int = 3) -> tuple[RetryingLLM, FakeLLM, list[float]]:
    inner = FakeLLM(script, default=None)  # type: ignore[arg-type]
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    return RetryingLLM(inner, retries, sleep=sleep), inner, slept


async def test_a_passing_refusal_is_retried_with_backoff_honouring_retry_after() -> None:
    llm, inner, slept = _retrying(LLMBusy("overloaded", retry_after=2.5), LLMBusy("5xx"), "ok")
    assert (await llm.complete(REQUEST)).text == "ok"
    assert len(inner.requests) == 3 and slept == [2.5, 1.0]


async def test_a_timed_out_prompt_is_never_resent() -> None:
    llm, inner, slept = _retrying(LLMTimeout("no answer in time"), "ok")
    with pytest.raises(LLMTimeout):
        await llm.complete(REQUEST)
    assert len(inner.requests) == 1 and slept == []


async def test_a_refusal_for_good_is_not_retried_and_retries_are_bounded() -> None:
    llm, inner, _ = _retrying(LLMUnavailable("the key was refused"), "ok")
    with pytest.raises(LLMUnavailable, match="refused"):
        await llm.complete(REQUEST)
    assert len(inner.requests) == 1
    llm, inner, slept = _retrying(*(LLMBusy("429") for _ in range(5)), retries=2)
    with pytest.raises(LLMBusy):
        await llm.complete(REQUEST)
    assert len(inner.requests) == 3 and slept == [0.5, 1.0]


def test_a_server_asking_for_a_long_wait_is_not_waited_on_inside_the_call() -> None:
    assert backoff(0, MAX_RETRY_AFTER + 1) is None
    assert backoff(10, None) == 8.0
