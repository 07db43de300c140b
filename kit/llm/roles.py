"""One LLM per role behind the port: each call goes to the client of its role (a chat reply
to the chat model's endpoint, everything else to the background one), so a hosted chat model
and a local curator can live side by side. The request already names its role's model."""

from __future__ import annotations

from dataclasses import replace

from kit.llm.base import LLM, LLMReply, LLMRequest, TextSink

# Purposes answered by the chat role; every other call is background work (its model is the
# background model: the filter and `kit eval qa`'s judge included).
CHAT_PURPOSES = frozenset({"chat", "eval_answer"})


class RoleRouter:
    def __init__(self, chat: LLM, background: LLM, judge: LLM | None = None) -> None:
        self.chat = chat
        self.background = background
        self.judge = judge or background

    def for_purpose(self, purpose: str) -> LLM:
        if purpose in CHAT_PURPOSES:
            return self.chat
        if purpose == "eval_judge":
            return self.judge
        return self.background

    async def complete(self, request: LLMRequest, on_text: TextSink | None = None) -> LLMReply:
        return await self.for_purpose(request.purpose).complete(request, on_text)


class Tempered:
    """A role's client with its `temperature` (`[llm.<role>] temperature`) on every request
    that sets none of its own."""

    def __init__(self, inner: LLM, temperature: float) -> None:
        self._inner = inner
        self._temperature = temperature

    async def complete(self, request: LLMRequest, on_text: TextSink | None = None) -> LLMReply:
        if request.temperature is None:
            request = replace(request, temperature=self._temperature)
        return await self._inner.complete(request, on_text)
