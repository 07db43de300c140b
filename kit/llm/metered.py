"""An LLM wrapper that records every call's token usage, whatever the adapter, and holds
background calls to the daily budget (kit/llm/budget.py) before they are made.

A call that timed out is recorded too, at its estimate (what it sent, plus all it was allowed
to write): the server may well have read it and be writing still, and a slow model must not
escape the daily budget by never answering in time."""

from __future__ import annotations

from kit.errors import LLMTimeout
from kit.llm.base import LLM, LLMReply, LLMRequest, TextSink, Usage
from kit.llm.budget import Budget
from kit.llm.tokens import estimate_request
from kit.llm.usage import UsageLog


class MeteredLLM:
    def __init__(self, inner: LLM, usage: UsageLog, budget: Budget | None = None) -> None:
        self.inner = inner
        self._usage = usage
        self._budget = budget

    async def complete(self, request: LLMRequest, on_text: TextSink | None = None) -> LLMReply:
        if self._budget is None:
            return await self._call(request, on_text)
        async with self._budget.admit(request):  # raises BudgetSpent when it does not fit
            return await self._call(request, on_text)

    async def _call(self, request: LLMRequest, on_text: TextSink | None) -> LLMReply:
        try:
            reply = await self.inner.complete(request, on_text)
        except LLMTimeout:
            sent = estimate_request(request) - request.max_tokens
            await self._record(request, request.model, Usage(sent, request.max_tokens))
            raise
        await self._record(request, reply.model or request.model, reply.usage)
        return reply

    async def _record(self, request: LLMRequest, model: str, usage: Usage) -> None:
        await self._usage.record(
            model=model, purpose=request.purpose, usage=usage, user_id=request.user_id
        )
