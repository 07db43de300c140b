"""An LLM wrapper that records every call's token usage, whatever the adapter, and holds
background calls to the daily budget (kit/memory/budget.py) before they are made."""

from __future__ import annotations

from kit.llm.base import LLM, LLMReply, LLMRequest, TextSink
from kit.memory.budget import Budget
from kit.memory.usage import UsageLog


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
        reply = await self.inner.complete(request, on_text)
        await self._usage.record(
            model=reply.model or request.model,
            purpose=request.purpose,
            usage=reply.usage,
            user_id=request.user_id,
        )
        return reply
