"""The Anthropic adapter: the only module that imports the anthropic SDK.

Retries for 429, 529, 5xx and timeouts are the SDK's own (bounded by `max_retries`, with
backoff that honours retry-after); what still fails becomes `LLMUnavailable`: `LLMTimeout` when
no answer came in time, `LLMBusy` (with the server's retry-after) when another try may work.
Every call is bounded (kit/llm/bounds.py): a deadline, a size, and a stream that ends without
its `message_stop` is broken, asked once more.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import anthropic
from anthropic.types import Message

from kit.errors import LLMBusy, LLMTimeout, LLMUnavailable
from kit.llm.base import (
    Block,
    ChatMessage,
    LLMReply,
    LLMRequest,
    TextBlock,
    TextSink,
    ToolResult,
    ToolUse,
    Usage,
)
from kit.llm.bounds import (
    BodyTooLarge,
    Meter,
    StreamBroken,
    body_bytes,
    bounded,
    cap_reply,
    cut_note,
    read_body,
    reply_chars,
    too_large,
)
from kit.llm.status import status_error, status_message, transport_errors
from kit.model_settings import DEADLINE_TIMEOUTS, ModelRole
from kit.reach import Reach

log = logging.getLogger(__name__)


_TRANSPORT_ERRORS: tuple[type[Exception], ...] = transport_errors()


def make_client(
    role: ModelRole, key: str, *, max_retries: int, timeout: float, deadline: float | None = None
) -> AnthropicLLM:
    """A client for `role` (its provider's record names this module: kit/providers.py)."""
    return AnthropicLLM(
        api_key=key,
        base_url=role.base_url or None,
        max_retries=max_retries,
        timeout=timeout,
        deadline=deadline,
        # A key goes only to the host it was configured for (ModelRole.key_goes_here)
        key_env=role.key_env if role.key_goes_here else "",
    )


class AnthropicLLM:
    def __init__(
        self,
        *,
        api_key: str,
        base_url: str | None = None,
        max_retries: int = 3,
        timeout: float = 60.0,
        deadline: float | None = None,
        key_env: str = "ANTHROPIC_API_KEY",
    ) -> None:
        self._key_env = key_env  # named in messages about the key, never its value
        self._deadline = deadline or DEADLINE_TIMEOUTS * timeout  # the whole call, retries too
        self._client = anthropic.AsyncAnthropic(
            api_key=api_key, base_url=base_url or None, max_retries=max_retries, timeout=timeout
        )

    async def aclose(self) -> None:
        await self._client.close()

    async def reach(self, model: str) -> Reach:
        """Whether the API takes the key and knows `model`: a token count (free), and where
        a proxy has no such endpoint (404), a one-token message. Bounded by the client's
        timeout and retries; nothing of the key or the answer's text is kept."""
        messages: Any = [{"role": "user", "content": "ping"}]
        try:
            try:
                await self._client.messages.count_tokens(model=model, messages=messages)
            except anthropic.NotFoundError:
                await self._client.messages.create(model=model, max_tokens=1, messages=messages)
        except anthropic.APIStatusError as exc:
            status = exc.status_code
            if status in (401, 403):
                return Reach("refused", f"the key was refused ({status})")
            if status == 404:
                return Reach("not_found", f"no model {model!r} here (404)")
            return Reach("error", status_message(status, self._key_env))
        except anthropic.APITimeoutError:
            return Reach("busy", "took the connection but did not answer in time")
        except anthropic.APIConnectionError:
            return Reach("unreachable", "cannot connect")
        return Reach("ok", model)

    async def complete(self, request: LLMRequest, on_text: TextSink | None = None) -> LLMReply:
        return await bounded(
            lambda: self._attempt(request, on_text),
            deadline=self._deadline,
            purpose=request.purpose,
            on_text=on_text,
        )

    async def _attempt(self, request: LLMRequest, on_text: TextSink | None) -> LLMReply:
        params = _params(request)
        try:
            if on_text is None:
                return await self._plain(params, request)
            return await self._stream(params, request, on_text)
        except BodyTooLarge as exc:
            log.warning("model call for %s: %s; dropped", request.purpose, exc)
            raise too_large(body_bytes(request.max_tokens)) from exc
        except anthropic.APIStatusError as exc:
            log.warning("model call failed (%s) for %s", exc.status_code, request.purpose)
            raise status_error(exc.status_code, self._key_env, exc.response) from exc
        except anthropic.APITimeoutError as exc:
            log.warning("model call timed out for %s", request.purpose)
            raise LLMTimeout("the model did not answer in time; try again shortly") from exc
        except anthropic.APIConnectionError as exc:
            log.warning("cannot reach the model API for %s", request.purpose)
            raise LLMBusy("cannot reach the model API; check the network or llm.base_url") from exc
        except (anthropic.APIError, *_TRANSPORT_ERRORS) as exc:  # type: ignore[misc]  # e.g. a stream cut mid-way
            log.warning("model call broke off for %s: %s", request.purpose, type(exc).__name__)
            raise LLMUnavailable("the model's answer broke off; try again shortly") from exc

    async def _plain(self, params: dict[str, Any], request: LLMRequest) -> LLMReply:
        """A whole answer, its body read to a bound (the SDK would read any size)."""
        async with self._client.messages.with_streaming_response.create(**params) as response:
            body = await read_body(response.iter_bytes(), body_bytes(request.max_tokens))
        try:
            data = json.loads(body)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise _not_a_message(request) from exc
        if not isinstance(data, dict) or not isinstance(data.get("content"), list):
            raise _not_a_message(request)
        return cap_reply(_reply(Message.construct(**data)), reply_chars(request.max_tokens))

    async def _stream(
        self, params: dict[str, Any], request: LLMRequest, on_text: TextSink
    ) -> LLMReply:
        meter = Meter(reply_chars(request.max_tokens))
        stopped = False
        async with self._client.messages.stream(**params) as stream:
            try:
                async for event in stream:
                    if event.type == "text":
                        piece = meter.take(event.text)
                        if piece:
                            await on_text(piece)
                    elif event.type == "input_json":
                        meter.take(event.partial_json)
                    elif event.type == "message_stop":
                        stopped = True
                    if meter.over:
                        break  # stop reading: what follows is dropped unread
            except _TRANSPORT_ERRORS as exc:
                raise StreamBroken(f"the connection broke: {type(exc).__name__}") from exc
            message = stream.current_message_snapshot
        if meter.over:
            await on_text(cut_note(meter.limit))
            return cap_reply(_reply(message), meter.limit, went_on=True)
        if not stopped:
            raise StreamBroken("the stream ended without message_stop")
        return _reply(message)


def _not_a_message(request: LLMRequest) -> LLMUnavailable:
    log.warning("the model API's answer for %s is not a message", request.purpose)
    return LLMUnavailable("the model API answered with something that is not a reply")


def _params(request: LLMRequest) -> dict[str, Any]:
    system: list[dict[str, Any]] = []
    for block in request.system:
        entry: dict[str, Any] = {"type": "text", "text": block.text}
        if block.cache:
            entry["cache_control"] = {"type": "ephemeral"}
        system.append(entry)
    params: dict[str, Any] = {
        "model": request.model,
        "max_tokens": request.max_tokens,
        "messages": [_message(m) for m in request.messages],
    }
    if system:
        params["system"] = system
    if request.tools:
        params["tools"] = [
            {"name": t.name, "description": t.description, "input_schema": dict(t.input_schema)}
            for t in request.tools
        ]
    if request.tool_choice:
        params["tool_choice"] = {"type": "tool", "name": request.tool_choice}
    if request.temperature is not None:
        params["temperature"] = request.temperature
    return params


def _message(message: ChatMessage) -> dict[str, Any]:
    return {"role": message.role, "content": [_block(b) for b in message.content]}


def _block(block: Block) -> dict[str, Any]:
    if isinstance(block, TextBlock):
        return {"type": "text", "text": block.text}
    if isinstance(block, ToolUse):
        return {"type": "tool_use", "id": block.id, "name": block.name, "input": dict(block.input)}
    assert isinstance(block, ToolResult)
    return {
        "type": "tool_result",
        "tool_use_id": block.tool_use_id,
        "content": block.content,
        "is_error": block.is_error,
    }


def _reply(message: Any) -> LLMReply:
    blocks: list[Block] = []
    for part in message.content:
        if part.type == "text":
            blocks.append(TextBlock(part.text))
        elif part.type == "tool_use":
            blocks.append(ToolUse(part.id, part.name, dict(part.input or {})))
    usage = message.usage
    return LLMReply(
        content=tuple(blocks),
        stop_reason=message.stop_reason or "end_turn",
        usage=Usage(
            input_tokens=usage.input_tokens or 0,
            output_tokens=usage.output_tokens or 0,
            cache_read_tokens=getattr(usage, "cache_read_input_tokens", None) or 0,
            cache_write_tokens=getattr(usage, "cache_creation_input_tokens", None) or 0,
        ),
        model=message.model,
    )
