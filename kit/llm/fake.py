"""A scripted LLM for tests, benchmarks and offline evaluation: a seam, not a mock.

Each call takes the next scripted step; when the script runs out, `default` answers.
Every request is kept in `requests` so tests can read exactly what the model was shown.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from typing import Any

from kit.llm.base import LLMReply, LLMRequest, TextBlock, TextSink, ToolUse, Usage

Step = str | LLMReply | ToolUse | BaseException | Callable[[LLMRequest], "str | LLMReply"]


def _estimate(text: str) -> int:
    return max(1, len(text) // 4)


class FakeLLM:
    def __init__(
        self,
        script: Iterable[Step] = (),
        *,
        default: Callable[[LLMRequest], str | LLMReply] | str | None = "ok",
    ) -> None:
        self.script: deque[Step] = deque(script)
        self.default = default
        self.requests: list[LLMRequest] = []

    def queue(self, *steps: Step) -> None:
        self.script.extend(steps)

    def requests_for(self, purpose_prefix: str) -> list[LLMRequest]:
        return [r for r in self.requests if r.purpose.startswith(purpose_prefix)]

    async def complete(self, request: LLMRequest, on_text: TextSink | None = None) -> LLMReply:
        self.requests.append(request)
        step: Any = self.script.popleft() if self.script else self.default
        if step is None:
            raise AssertionError(f"FakeLLM: no scripted reply left for {request.purpose}")
        if isinstance(step, BaseException):
            raise step
        if callable(step) and not isinstance(step, ToolUse | LLMReply):
            step = step(request)
        reply = self._as_reply(step, request)
        if on_text is not None and reply.text:
            # Stream in small pieces so consumers see more than one chunk.
            text = reply.text
            for start in range(0, len(text), 16):
                await on_text(text[start : start + 16])
        return reply

    @staticmethod
    def _as_reply(step: str | LLMReply | ToolUse, request: LLMRequest) -> LLMReply:
        prompt_tokens = sum(_estimate(b.text) for b in request.system) + sum(
            _estimate(str(m.content)) for m in request.messages
        )
        if isinstance(step, LLMReply):
            return step
        if isinstance(step, ToolUse):
            return LLMReply((step,), "tool_use", Usage(prompt_tokens, 10), request.model)
        return LLMReply(
            (TextBlock(step),), "end_turn", Usage(prompt_tokens, _estimate(step)), request.model
        )
