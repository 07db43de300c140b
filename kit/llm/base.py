"""The LLM port: plain frozen dataclasses in, plain frozen dataclasses out.

No SDK object crosses this line; each provider's adapter (kit/llm/anthropic.py, kit/llm/openai.py)
is the only module that knows its SDK.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from kit.model_settings import ModelRole
from kit.reach import Reach

Role = Literal["user", "assistant"]


@dataclass(frozen=True)
class TextBlock:
    text: str


@dataclass(frozen=True)
class ToolUse:
    id: str
    name: str
    input: Mapping[str, Any]


@dataclass(frozen=True)
class ToolResult:
    tool_use_id: str
    content: str
    is_error: bool = False


Block = TextBlock | ToolUse | ToolResult


@dataclass(frozen=True)
class ChatMessage:
    role: Role
    content: tuple[Block, ...]

    @classmethod
    def text(cls, role: Role, text: str) -> ChatMessage:
        return cls(role, (TextBlock(text),))


@dataclass(frozen=True)
class SystemBlock:
    """One part of the system prompt; `cache` marks the end of a stable, cacheable prefix."""

    text: str
    cache: bool = False


@dataclass(frozen=True)
class ToolSpec:
    name: str
    description: str
    input_schema: Mapping[str, Any]


@dataclass(frozen=True)
class Usage:
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.input_tokens + other.input_tokens,
            self.output_tokens + other.output_tokens,
            self.cache_read_tokens + other.cache_read_tokens,
            self.cache_write_tokens + other.cache_write_tokens,
        )


@dataclass(frozen=True)
class LLMReply:
    content: tuple[Block, ...]
    stop_reason: str
    usage: Usage = field(default_factory=Usage)
    model: str = ""

    @property
    def text(self) -> str:
        return "".join(b.text for b in self.content if isinstance(b, TextBlock))

    @property
    def tool_uses(self) -> tuple[ToolUse, ...]:
        return tuple(b for b in self.content if isinstance(b, ToolUse))


@dataclass(frozen=True)
class LLMRequest:
    model: str
    system: tuple[SystemBlock, ...]
    messages: tuple[ChatMessage, ...]
    max_tokens: int
    tools: tuple[ToolSpec, ...] = ()
    purpose: str = "chat"  # for usage accounting: chat, window_summary, curate:people, ...
    user_id: str | None = None
    # The name of a tool the model must call (structured output); None lets it choose.
    tool_choice: str | None = None
    temperature: float | None = None  # None: the provider's default


TextSink = Callable[[str], Awaitable[None]]


class LLM(Protocol):
    async def complete(self, request: LLMRequest, on_text: TextSink | None = None) -> LLMReply:
        """One model call. With `on_text`, text is streamed to it as it is generated.

        Raises `LLMUnavailable` after the adapter's bounded retries.
        """
        ...


class ModelClient(LLM, Protocol):
    """What a provider's adapter builds (its `make_client`, named by its record in
    kit/providers.py): the port, plus `kit doctor`'s bounded check and closing."""

    async def reach(self, model: str) -> Reach: ...

    async def aclose(self) -> None: ...


class MakeClient(Protocol):
    """An adapter module's `make_client`: a client for one role, its key and bounds."""

    def __call__(
        self,
        role: ModelRole,
        key: str,
        *,
        max_retries: int,
        timeout: float,
        deadline: float | None = None,
    ) -> ModelClient: ...


def system_text(blocks: Sequence[SystemBlock]) -> str:
    return "\n\n".join(b.text for b in blocks)
