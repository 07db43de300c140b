"""An LLM wrapper that records every call's token usage, whatever the adapter."""

from __future__ import annotations

from kit.llm.base import LLM, LLMReply, LLMRequest, TextSink
from kit.memory.usage import UsageLog


class MeteredLLM:
    def __init__(self, inner: LLM, usage: UsageLog) -> None:
        self.inner = inner
        self._usage = usage

    async def complete(self, request: LLMRequest, on_text: TextSink | None = None) -> LLMReply:
        reply = await self.inner.complete(request, on_text)
        await self._usage.record(
            model=reply.model or request.model,
            purpose=request.purpose,
            usage=reply.usage,
            user_id=request.user_id,
        )
        return reply
