"""The models' clients, part of the composition root (kit/app.py builds with them): each role's
key (sent only to the host it was configured for), its adapter (the provider's SDK, loaded only
when a role uses it), its retries, and the router over chat, background and judge. `kit doctor`
and `kit run` check keys and reach here without building the rest.
"""

from __future__ import annotations

import dataclasses
import importlib
import os
import time
from contextlib import AsyncExitStack

from kit.config import Settings
from kit.errors import LLMUnavailable
from kit.llm.base import LLM, LLMReply, LLMRequest, MakeClient, ModelClient, TextSink
from kit.llm.deferred import DeferredLLM
from kit.llm.retry import RetryingLLM
from kit.llm.roles import RoleRouter, Tempered
from kit.model_settings import ModelRole, model_role
from kit.providers import provider
from kit.reach import Reach

REACH_SECONDS = 10.0  # how long `kit doctor` waits for the model API (no retries)
# Sent as the key to a server of our own (llm.base_url) when its variable is unset: Ollama and
# llama.cpp take any key, and a server that wants one says so (401), which doctor reports.
NO_KEY = "no-key-set"


class UnconfiguredLLM:
    """Stands in when a role has no API key: every call says exactly how to fix it."""

    def __init__(self, problem: str) -> None:
        self.problem = problem

    async def complete(self, request: LLMRequest, on_text: TextSink | None = None) -> LLMReply:
        raise LLMUnavailable(self.problem)


def role_key(role: ModelRole) -> tuple[str | None, str | None]:
    """(the key to send, or None; why there is none). A key goes only to the host it was
    configured for (`ModelRole.key_goes_here`): any other endpoint is sent none. A role on a
    server of the owner's own (this machine or the local network) may do without."""
    if not role.key_goes_here:
        return NO_KEY, None
    key = os.environ.get(role.key_env, "").strip()
    if key:
        return key, None
    if role.on_own_server:
        return NO_KEY, None
    company = provider(role.provider).company
    return None, (
        f"{role.key_env} is not set; export your {company} API key (llm.{role.role} uses "
        f"{role.where}) and restart Kit"
    )


def missing_keys(settings: Settings) -> list[str]:
    """What a role still needs before Kit can answer and curate (`kit run` refuses to start)."""
    found = [role_key(model_role(settings.llm, r))[1] for r in ("chat", "background")]
    return list(dict.fromkeys(p for p in found if p))


async def reach_role(role: ModelRole, *, within: float) -> tuple[Reach, float]:
    """One free, bounded request to a role's endpoint (`kit doctor`): a token count or the
    model list, no retries, `within` seconds; with the seconds the answer took (the SDK's
    loading not counted). The key comes from the environment (a role without one:
    `role_key`); nothing of it is kept."""
    key, _ = role_key(role)
    client = _adapter(role, key or NO_KEY, max_retries=0, timeout=within)
    try:
        started = time.monotonic()
        reach = await client.reach(role.model)
        return reach, time.monotonic() - started
    finally:
        await client.aclose()


def _adapter(
    role: ModelRole, key: str, *, max_retries: int, timeout: float, deadline: float | None = None
) -> ModelClient:
    """The one place an SDK client is made: the adapter module the provider's record names
    (kit/providers.py), imported only when a role uses it, so a Kit on one provider never
    loads another's SDK."""
    module = importlib.import_module(provider(role.provider).adapter)
    make: MakeClient = module.make_client
    return make(role, key, max_retries=max_retries, timeout=timeout, deadline=deadline)


def role_llm(role: ModelRole, stack: AsyncExitStack, made: list[DeferredLLM]) -> LLM:
    """A role's model, closed with `stack`, its client made on first use (appended to
    `made`). Chat keeps the SDK's own retries (timeouts included: the owner is waiting);
    background calls retry here, never resending a prompt that timed out (kit/llm/retry.py)."""
    key, problem = role_key(role)
    if key is None:
        return UnconfiguredLLM(problem or "no API key")
    chat = role.role == "chat"
    client = DeferredLLM(
        lambda: _adapter(
            role,
            key,
            max_retries=role.max_retries if chat else 0,
            timeout=role.timeout_seconds,
            deadline=role.deadline_seconds,
        )
    )
    made.append(client)
    stack.push_async_callback(client.aclose)
    llm: LLM = client if chat else RetryingLLM(client, role.max_retries)
    return llm if role.temperature is None else Tempered(llm, role.temperature)


def real_llm(settings: Settings, stack: AsyncExitStack, made: list[DeferredLLM]) -> LLM:
    """The router over the three roles; the judge shares the background's client when its
    settings are the same."""
    chat, background, judge = (model_role(settings.llm, r) for r in ("chat", "background", "judge"))
    background_llm = role_llm(background, stack, made)
    same = dataclasses.replace(judge, role="background") == background
    return RoleRouter(
        role_llm(chat, stack, made),
        background_llm,
        background_llm if same else role_llm(judge, stack, made),
    )
