"""Either provider's local fake behind one face, so a test can run the same story through the
real anthropic SDK and the real openai SDK: `Endpoint.start("openai")`.

Answers are built provider-neutrally (`text`, `call`, `cut_at_limit`) and read back the same
way (`system_of`, `asked_of`)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from kit.model_settings import LLMSettings
from tests.servers import anthropic_api, openai_api

PROVIDERS = ("anthropic", "openai")
Spec = dict[str, Any]


@dataclass
class Endpoint:
    provider: str
    server: anthropic_api.FakeAnthropicServer | openai_api.FakeOpenAIServer

    @classmethod
    @asynccontextmanager
    async def start(cls, provider: str) -> AsyncIterator[Endpoint]:
        fake: Any = (
            anthropic_api.FakeAnthropicServer()
            if provider == "anthropic"
            else openai_api.FakeOpenAIServer()
        )
        async with fake as running:
            yield cls(provider, running)

    @property
    def url(self) -> str:
        return self.server.url

    def llm(self, **changes: Any) -> LLMSettings:
        """[llm] for this endpoint: no key needed (it is on this machine), no retries."""
        values: dict[str, Any] = {
            "provider": self.provider,
            "base_url": self.url,
            "max_retries": 0,
            "chat_model": "chat-model",
            "small_model": "small-model",
        }
        return LLMSettings(**(values | changes))

    # -- answers --------------------------------------------------------------------------
    def text(self, text: str, **usage: Any) -> Spec:
        if self.provider == "anthropic":
            return anthropic_api.text_reply(text, **_anthropic_usage(usage))
        return openai_api.text_reply(text, **usage)

    def call(self, name: str, arguments: dict[str, Any], **usage: Any) -> Spec:
        if self.provider == "anthropic":
            spec = anthropic_api.tool_use_reply(name, arguments)
            if usage:
                spec["usage"] = anthropic_api.text_reply("", **_anthropic_usage(usage))["usage"]
            return spec
        return openai_api.tool_call_reply(name, arguments, **usage)

    def cut_at_limit(self, spec: Spec) -> Spec:
        """The same answer, stopped at the output limit (a model looping to max_tokens)."""
        if self.provider == "anthropic":
            return {**spec, "stop_reason": "max_tokens"}
        return {**spec, "finish_reason": "length"}

    def queue(self, spec: Spec) -> None:
        self.server.queue(spec)

    def queue_stall(self, seconds: float) -> None:
        self.server.queue_stall(seconds)

    def queue_trickle(self) -> None:
        """An answer that never ends, one character at a time (no read ever waits long)."""
        self.server.queue_trickle()

    def queue_flood(self, chars: int | None = None) -> None:
        """A text answer of `chars` characters (None: endless), as fast as it is read."""
        self.server.queue_flood(chars)

    def queue_cut_stream(self, text_prefix: str, *, clean: bool = False) -> None:
        """A stream that stops after `text_prefix`: its connection dropped, or (`clean`) its
        body ended without the answer's end marker."""
        self.server.queue_cut_stream(text_prefix, clean=clean)

    def wait_abandoned(self, within: float = 60.0) -> bool:
        """Whether the client stopped reading an answer that went on (an event, waited on for
        at most `within` seconds: a bound, not an expectation)."""
        return self.server.abandoned.wait(within)

    @property
    def endless_began(self) -> bool:
        """Whether a trickle or a flood had begun (a client may give up before it does)."""
        return self.server.endless_began.is_set()

    @property
    def responder(self) -> Callable[[dict[str, Any]], Spec | str]:
        return self.server.responder

    @responder.setter
    def responder(self, answer: Callable[[dict[str, Any]], Spec | str]) -> None:
        self.server.responder = answer

    # -- what was asked -------------------------------------------------------------------
    def bodies(self) -> list[dict[str, Any]]:
        """Every model call's request body (not token counts or model lists), oldest first."""
        if isinstance(self.server, openai_api.FakeOpenAIServer):
            return self.server.completions()
        return [r.json for r in self.server.requests if r.path == "/v1/messages"]

    def system_of(self, body: dict[str, Any]) -> str:
        """The system prompt as the model reads it."""
        if self.provider == "anthropic":
            return "\n\n".join(b["text"] for b in body.get("system", []))
        return "".join(m["content"] for m in body["messages"] if m["role"] == "system")

    def asked_of(self, body: dict[str, Any]) -> str:
        """Everything but the system prompt, as text."""
        if self.provider == "anthropic":
            return json.dumps(body["messages"])
        return json.dumps([m for m in body["messages"] if m["role"] != "system"])


def _anthropic_usage(usage: dict[str, Any]) -> dict[str, Any]:
    names = {"prompt_tokens": "input_tokens", "completion_tokens": "output_tokens"}
    return {names.get(k, k): v for k, v in usage.items()}
