"""Retries for background calls, done here rather than by the SDK: a passing refusal (rate
limit, overload, a 5xx, a lost connection) is tried again after a backoff that honours the
server's retry-after; a call that timed out is never resent at once. A timed-out prompt may
still be running on the server (a local one goes on computing for minutes): sending it again
would only queue the same work twice. It fails with `LLMTimeout` instead, and its work backs off
(10 and 40 minutes, then it is parked or held: docs/curation.md, Background budget and bounded
retries).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from kit.errors import LLMBusy
from kit.llm.base import LLM, LLMReply, LLMRequest, TextSink

log = logging.getLogger(__name__)

FIRST_DELAY = 0.5  # seconds; doubles on each retry (as the SDKs' own backoff)
MAX_DELAY = 8.0
MAX_RETRY_AFTER = 60.0  # a server asking for longer is not waited on: the work backs off

Sleep = Callable[[float], Awaitable[None]]


class RetryingLLM:
    def __init__(self, inner: LLM, retries: int, *, sleep: Sleep = asyncio.sleep) -> None:
        self.inner = inner
        self._retries = retries
        self._sleep = sleep

    async def complete(self, request: LLMRequest, on_text: TextSink | None = None) -> LLMReply:
        for attempt in range(self._retries + 1):
            try:
                return await self.inner.complete(request, on_text)
            except LLMBusy as exc:
                if attempt == self._retries:
                    raise
                delay = backoff(attempt, exc.retry_after)
                if delay is None:
                    raise
                log.info(
                    "%s call refused for now (%s); retry %d of %d in %.1f s",
                    request.purpose,
                    exc,
                    attempt + 1,
                    self._retries,
                    delay,
                )
                await self._sleep(delay)
        raise AssertionError("unreachable")  # pragma: no cover


def backoff(attempt: int, retry_after: float | None) -> float | None:
    """Seconds to wait before retry `attempt + 1`; None when the server asks for longer than
    is worth waiting inside one call."""
    if retry_after is not None:
        return float(retry_after) if retry_after <= MAX_RETRY_AFTER else None
    return min(MAX_DELAY, FIRST_DELAY * 2.0**attempt)
