"""The OpenAI chat-completions adapter (and its audio transcriptions, for voice messages:
`OpenAITranscriber`): the only module that imports the openai SDK.

It speaks to OpenAI and to the servers that copy its API (Ollama, llama.cpp, vLLM, LM Studio).
Kit's request maps onto one chat: the system blocks joined into one system message (the cached
prefix stays the same leading bytes, which is what OpenAI's and llama.cpp's prompt caches key
on), tool calls and results as `tool_calls` / `tool` messages. A forced tool is either a forced
`tool_choice` or, with `structured_output = "json"`, a JSON-schema response format whose answer
is handed back as a call of that tool (for servers that ignore a forced tool choice);
`"json_object"` sends the same schema in llama-cpp-python's dialect
(`{"type": "json_object", "schema": ...}`).

Usage: `prompt_tokens` includes the cached ones, so Kit's input is the uncached part and
`cache_read_tokens` the cached part (`prompt_tokens_details.cached_tokens`). A server that
reports no usage is estimated (~4 characters a token), so the background budget still holds.
finish_reason "length" becomes stop_reason "max_tokens": a cut answer is rejected by its reader.
Every call is bounded (kit/llm/bounds.py): a deadline, a size, and a stream that ends without
its `finish_reason` is broken, asked once more.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import openai
from openai.types.chat import ChatCompletion

from kit.errors import LLMBusy, LLMTimeout, LLMUnavailable
from kit.llm.base import (
    Block,
    ChatMessage,
    LLMReply,
    LLMRequest,
    TextBlock,
    TextSink,
    ToolResult,
    ToolSpec,
    ToolUse,
    Usage,
    system_text,
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
from kit.llm.json_repair import Unreadable, loads_lenient
from kit.llm.status import status_error, status_message, transport_errors
from kit.llm.template_tags import StreamCleaner, strip_tags
from kit.llm.tokens import estimate_request, estimate_tokens
from kit.llm.written_calls import Held, written_call
from kit.model_settings import DEADLINE_TIMEOUTS, ModelRole
from kit.reach import Reach

log = logging.getLogger(__name__)

_STOP_REASONS = {
    "stop": "end_turn",
    "length": "max_tokens",
    "tool_calls": "tool_use",
    "function_call": "tool_use",
    "content_filter": "refusal",
}


_TRANSPORT_ERRORS: tuple[type[Exception], ...] = transport_errors()


def make_client(
    role: ModelRole, key: str, *, max_retries: int, timeout: float, deadline: float | None = None
) -> OpenAILLM:
    """A client for `role` (its provider's record names this module: kit/providers.py)."""
    return OpenAILLM(
        api_key=key,
        base_url=role.base_url or None,
        max_retries=max_retries,
        timeout=timeout,
        deadline=deadline,
        # A key goes only to the host it was configured for (ModelRole.key_goes_here)
        key_env=role.key_env if role.key_goes_here else "",
        structured_output=role.structured_output,
    )


class OpenAILLM:
    def __init__(
        self,
        *,
        api_key: str,
        base_url: str | None = None,
        max_retries: int = 3,
        timeout: float = 60.0,
        deadline: float | None = None,
        key_env: str = "OPENAI_API_KEY",
        structured_output: str = "tool",
    ) -> None:
        self._key_env = key_env  # named in messages about the key, never its value
        self._deadline = deadline or DEADLINE_TIMEOUTS * timeout  # the whole call, retries too
        self._json = structured_output in ("json", "json_object")
        self._dialect = structured_output
        # OpenAI's own API wants max_completion_tokens; the servers that copy it know max_tokens.
        host = (urlsplit(base_url).hostname or "") if base_url else "api.openai.com"
        self._own_api = host == "openai.com" or host.endswith(".openai.com")
        self._client = openai.AsyncOpenAI(
            api_key=api_key, base_url=base_url or None, max_retries=max_retries, timeout=timeout
        )

    async def aclose(self) -> None:
        await self._client.close()

    async def reach(self, model: str) -> Reach:
        """Whether the server takes the key and serves `model`: its model list (free). A
        server without the list (404) is asked for one token instead. A listed model that is
        not named is `not_found` only when the list is complete (llama.cpp lists the one model
        it loaded and answers to any name)."""
        try:
            try:
                listed = [m.id async for m in self._client.models.list()]
            except openai.NotFoundError:
                await self._client.chat.completions.create(
                    model=model, max_tokens=1, messages=[{"role": "user", "content": "ping"}]
                )
                return Reach("ok", model)
        except openai.APIStatusError as exc:
            status = exc.status_code
            if status in (401, 403):
                return Reach("refused", f"the key was refused ({status})")
            if status == 404:
                return Reach("not_found", f"no model {model!r} here (404)")
            return Reach("error", status_message(status, self._key_env))
        except openai.APITimeoutError:
            return Reach("busy", "took the connection but did not answer in time")
        except openai.APIConnectionError:
            return Reach("unreachable", "cannot connect")
        if listed and model not in listed and len(listed) > 1:
            shown = ", ".join(sorted(listed)[:5]) + (", ..." if len(listed) > 5 else "")
            return Reach("not_found", f"no model {model!r} here (it serves {shown})")
        return Reach("ok", model)

    async def complete(self, request: LLMRequest, on_text: TextSink | None = None) -> LLMReply:
        return await bounded(
            lambda: self._attempt(request, on_text),
            deadline=self._deadline,
            purpose=request.purpose,
            on_text=on_text,
        )

    async def _attempt(self, request: LLMRequest, on_text: TextSink | None) -> LLMReply:
        params = self._params(request)
        try:
            if on_text is None:
                reply = await self._plain(params, request)
            else:
                reply = await self._stream(params, request, on_text)
        except BodyTooLarge as exc:
            log.warning("model call for %s: %s; dropped", request.purpose, exc)
            raise too_large(body_bytes(request.max_tokens)) from exc
        except openai.APIStatusError as exc:
            log.warning("model call failed (%s) for %s", exc.status_code, request.purpose)
            raise status_error(exc.status_code, self._key_env, exc.response) from exc
        except openai.APITimeoutError as exc:
            log.warning("model call timed out for %s", request.purpose)
            raise LLMTimeout("the model did not answer in time; try again shortly") from exc
        except openai.APIConnectionError as exc:
            log.warning("cannot reach the model API for %s", request.purpose)
            raise LLMBusy("cannot reach the model API; check the network or llm.base_url") from exc
        except (openai.APIError, *_TRANSPORT_ERRORS) as exc:  # type: ignore[misc]  # a cut stream
            log.warning("model call broke off for %s: %s", request.purpose, type(exc).__name__)
            raise LLMBusy("the model's answer broke off; try again shortly") from exc
        return self._structured(reply, request)

    async def _plain(self, params: dict[str, Any], request: LLMRequest) -> LLMReply:
        """A whole answer, its body read to a bound (the SDK would read any size)."""
        create = self._client.chat.completions.with_streaming_response.create
        async with create(**params) as response:
            body = await read_body(response.iter_bytes(), body_bytes(request.max_tokens))
        try:
            data = json.loads(body)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise _not_a_completion(request) from exc
        if not isinstance(data, dict):
            raise _not_a_completion(request)
        reply = _reply(ChatCompletion.construct(**data), request)
        return cap_reply(reply, reply_chars(request.max_tokens))

    async def _stream(
        self, params: dict[str, Any], request: LLMRequest, on_text: TextSink
    ) -> LLMReply:
        draft = _Draft()
        meter = Meter(reply_chars(request.max_tokens))
        shown = not self._json_answer(request)
        held = Held(bool(request.tools) and request.tool_choice is None)
        tags = StreamCleaner()
        stream = await self._client.chat.completions.create(
            **params, stream=True, stream_options={"include_usage": True}
        )
        async with stream:
            try:
                async for chunk in stream:
                    draft.model = chunk.model or draft.model
                    if chunk.usage is not None:
                        draft.usage = chunk.usage
                    for choice in chunk.choices:
                        delta = choice.delta
                        if delta.content:
                            piece = meter.take(delta.content)
                            draft.text.append(piece)
                            if shown and (piece := tags.take(held.take(piece))):
                                await on_text(piece)
                        for call in delta.tool_calls or ():
                            part = draft.calls.setdefault(call.index, ["", "", []])
                            if call.id:
                                part[0] = call.id
                            if call.function is not None:
                                part[1] += call.function.name or ""
                                part[2].append(meter.take(call.function.arguments or ""))
                        if choice.finish_reason:
                            draft.finish = choice.finish_reason
                    if meter.over:
                        break  # stop reading: what follows is dropped unread
            except (openai.APIConnectionError, *_TRANSPORT_ERRORS) as exc:  # type: ignore[misc]
                raise StreamBroken(f"the connection broke: {type(exc).__name__}") from exc
        if not meter.over and draft.finish is None:
            raise StreamBroken("the stream ended without a finish_reason")
        calls = [(i, n, "".join(a)) for i, n, a in (draft.calls[k] for k in sorted(draft.calls))]
        reply = _assemble(
            "".join(draft.text), calls, draft.finish, draft.usage, draft.model, request
        )
        if shown and not (reply.tool_uses and not calls):  # not a call written as text
            if rest := tags.take(held.rest()) + tags.end():
                await on_text(rest)
        if not meter.over:
            return reply
        if shown:
            await on_text(cut_note(meter.limit))
        return cap_reply(reply, meter.limit, went_on=True)

    def _json_answer(self, request: LLMRequest) -> bool:
        return self._json and request.tool_choice is not None

    def _params(self, request: LLMRequest) -> dict[str, Any]:
        messages: list[dict[str, Any]] = []
        system = system_text(request.system)
        forced = next((t for t in request.tools if t.name == request.tool_choice), None)
        if self._json_answer(request) and forced is not None:
            system += (
                f"\n\nAnswer with one JSON object and nothing else: the input of "
                f"{forced.name} ({forced.description})"
            )
        if system:
            messages.append({"role": "system", "content": system})
        for message in request.messages:
            messages.extend(_messages(message))
        params: dict[str, Any] = {"model": request.model, "messages": messages}
        params["max_completion_tokens" if self._own_api else "max_tokens"] = request.max_tokens
        if request.temperature is not None:
            params["temperature"] = request.temperature
        if self._json_answer(request) and forced is not None:
            params["response_format"] = _response_format(self._dialect, forced)
            return params
        if request.tools:
            params["tools"] = [
                {
                    "type": "function",
                    "function": {
                        "name": t.name,
                        "description": t.description,
                        "parameters": dict(t.input_schema),
                    },
                }
                for t in request.tools
            ]
        if request.tool_choice:
            params["tool_choice"] = {"type": "function", "function": {"name": request.tool_choice}}
        return params

    def _structured(self, reply: LLMReply, request: LLMRequest) -> LLMReply:
        """A JSON-format answer handed back as the call of the forced tool (when it is a
        JSON object); anything else stays text, which the reader rejects with its reason."""
        if not self._json_answer(request) or reply.tool_uses or reply.stop_reason == "max_tokens":
            return reply
        try:
            value = json.loads(reply.text)
        except json.JSONDecodeError:
            return reply
        if not isinstance(value, dict):
            return reply
        call = ToolUse(f"call_{request.tool_choice}", str(request.tool_choice), value)
        return LLMReply((call,), "tool_use", reply.usage, reply.model)


def _response_format(dialect: str, forced: ToolSpec) -> dict[str, Any]:
    """The forced tool's input schema as a response format, in the server's dialect."""
    if dialect == "json_object":  # llama-cpp-python's server: json_schema is a 500 there
        return {"type": "json_object", "schema": dict(forced.input_schema)}
    return {
        "type": "json_schema",
        "json_schema": {"name": forced.name, "schema": dict(forced.input_schema), "strict": False},
    }


def _not_a_completion(request: LLMRequest) -> LLMUnavailable:
    log.warning("the model API's answer for %s is not a chat completion", request.purpose)
    return LLMUnavailable("the model API answered with something that is not a reply")


@dataclass
class _Draft:
    """A streamed answer as it arrives."""

    text: list[str] = field(default_factory=list)
    calls: dict[int, list[Any]] = field(default_factory=dict)  # index -> [id, name, [args]]
    finish: str | None = None
    usage: Any = None
    model: str = ""


def _messages(message: ChatMessage) -> list[dict[str, Any]]:
    """One of Kit's messages as chat-completions messages: tool results each become a `tool`
    message; an assistant turn carries its text and its tool calls together."""
    texts = [b.text for b in message.content if isinstance(b, TextBlock)]
    if message.role == "assistant":
        calls = [b for b in message.content if isinstance(b, ToolUse)]
        # A string even when empty: llama-cpp-python's server refuses a null beside tool calls.
        entry: dict[str, Any] = {"role": "assistant", "content": "".join(texts)}
        if calls:
            entry["tool_calls"] = [
                {
                    "id": c.id,
                    "type": "function",
                    "function": {"name": c.name, "arguments": json.dumps(dict(c.input))},
                }
                for c in calls
            ]
        return [entry]
    found: list[dict[str, Any]] = [
        {
            "role": "tool",
            "tool_call_id": b.tool_use_id,
            "content": f"Error: {b.content}" if b.is_error else b.content,
        }
        for b in message.content
        if isinstance(b, ToolResult)
    ]
    if texts or not found:
        found.append({"role": "user", "content": "\n\n".join(texts)})
    return found


def _reply(completion: Any, request: LLMRequest) -> LLMReply:
    if not completion.choices:
        return _assemble("", [], None, completion.usage, completion.model or "", request)
    choice = completion.choices[0]
    message = choice.message
    calls = [
        (c.id or "", c.function.name or "", c.function.arguments or "")
        for c in (message.tool_calls or ())
        if getattr(c, "function", None) is not None
    ]
    return _assemble(
        message.content or "",
        calls,
        choice.finish_reason,
        completion.usage,
        completion.model or "",
        request,
    )


def _assemble(
    text: str,
    calls: list[tuple[str, str, str]],
    finish: str | None,
    usage: Any,
    model: str,
    request: LLMRequest,
) -> LLMReply:
    if not calls and (written := written_call(text, request)) is not None:
        text, calls = "", [written]
    elif request.tool_choice is None:  # a reply in words: no template tags reach the owner
        text = strip_tags(text)
    blocks: list[Block] = [TextBlock(text)] if text else []
    for number, (call_id, name, arguments) in enumerate(calls):
        blocks.append(ToolUse(call_id or f"call_{number}", name, _arguments(arguments, name)))
    stop = _STOP_REASONS.get(finish or "stop", finish or "end_turn")
    if calls and stop == "end_turn":  # a forced call ends with "stop" on OpenAI's API
        stop = "tool_use"
    return LLMReply(tuple(blocks), stop, _usage(usage, request, text, calls), model)


def _arguments(raw: str, name: str) -> dict[str, Any]:
    """A call's arguments as an object; anything else is an empty input, which the tool's
    reader rejects with its own reason (the text itself is never logged)."""
    try:
        value = loads_lenient(raw) if raw.strip() else {}
    except Unreadable:
        log.warning("the model's call of %s came with arguments that are not JSON", name)
        return {}
    if not isinstance(value, dict):
        log.warning("the model's call of %s came with arguments that are not an object", name)
        return {}
    return value


def _usage(usage: Any, request: LLMRequest, text: str, calls: list[tuple[str, str, str]]) -> Usage:
    if usage is None:  # some servers never say: estimate, so budgets still count the call
        written = estimate_tokens(text) + sum(estimate_tokens(a) for _, _, a in calls)
        return Usage(estimate_request(request) - request.max_tokens, written)
    prompt = int(getattr(usage, "prompt_tokens", 0) or 0)
    details = getattr(usage, "prompt_tokens_details", None)
    cached = int(getattr(details, "cached_tokens", 0) or 0) if details is not None else 0
    cached = min(cached, prompt)
    return Usage(
        input_tokens=prompt - cached,
        output_tokens=int(getattr(usage, "completion_tokens", 0) or 0),
        cache_read_tokens=cached,
    )


class OpenAITranscriber:
    """Speech to text through an OpenAI-compatible /v1/audio/transcriptions (kit/speech/):
    the same SDK, another endpoint. Failures become KitErrors that say nothing was kept."""

    def __init__(
        self,
        *,
        api_key: str,
        base_url: str,
        model: str,
        language: str = "",
        timeout: float = 120.0,
        key_env: str = "OPENAI_API_KEY",
    ) -> None:
        self._model = model
        self._language = language
        self._key_env = key_env  # named in messages about the key, never its value
        self._client = openai.AsyncOpenAI(
            api_key=api_key, base_url=base_url, max_retries=1, timeout=timeout
        )

    async def aclose(self) -> None:
        await self._client.close()

    async def transcribe(self, audio: bytes, *, file_name: str, mime_type: str) -> str:
        options: dict[str, Any] = {"language": self._language} if self._language else {}
        try:
            answer = await self._client.audio.transcriptions.create(
                model=self._model, file=(file_name, audio, mime_type), **options
            )
        except openai.APIStatusError as exc:
            log.warning("transcription failed (%s)", exc.status_code)
            if exc.status_code in (401, 403):
                why = f"refused the key (set {self._key_env})"
            else:
                why = f"answered with an error ({exc.status_code})"
            raise LLMUnavailable(_unheard(why)) from exc
        except openai.APITimeoutError as exc:
            raise LLMTimeout(_unheard("did not answer in time")) from exc
        except (openai.APIError, *_TRANSPORT_ERRORS) as exc:  # type: ignore[misc]
            log.warning("cannot reach the speech server: %s", type(exc).__name__)
            raise LLMBusy(_unheard("could not be reached")) from exc
        text = getattr(answer, "text", None)
        return text if isinstance(text, str) else ""


def _unheard(why: str) -> str:
    return (
        f"the speech-to-text server {why}, so I could not hear your voice message; nothing was "
        "kept. Please try again, or type it"
    )
