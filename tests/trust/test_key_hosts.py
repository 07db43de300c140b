"""A key goes only to the host it was configured for: the usual variables (ANTHROPIC_API_KEY,
OPENAI_API_KEY) to the provider's own API, any other endpoint only when the config names the
variable beside its base_url. (With OPENAI_API_KEY exported, Kit sent `Bearer <that key>` to
a server on 127.0.0.1.) The real SDKs against local servers that record what they are sent."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from kit.api import Kit
from kit.app_models import NO_KEY, role_key
from kit.clock import FakeClock
from kit.config import Settings
from kit.embed.hashing import HashingEmbedder
from kit.model_settings import LLMSettings, RoleSettings, model_role
from tests.servers.providers import PROVIDERS, Endpoint

SECRET = {"anthropic": "sk-ant-owner-secret-0123456789", "openai": "sk-owner-secret-0123456789"}
USUAL = {"anthropic": "ANTHROPIC_API_KEY", "openai": "OPENAI_API_KEY"}


def _sent_key(endpoint: Endpoint) -> str:
    """The key the one model call carried (either SDK's header)."""
    (request,) = [
        r for r in endpoint.server.requests if r.path.endswith(("/messages", "/chat/completions"))
    ]
    headers = request.headers
    return headers.get("x-api-key") or headers.get("authorization", "").removeprefix("Bearer ")


async def _one_turn(settings: Settings, llm: LLMSettings, clock: FakeClock) -> None:
    async with Kit.open(
        settings=dataclasses.replace(settings, llm=llm),
        embedder=HashingEmbedder(),
        clock=clock,
        background=False,
    ) as kit:
        assert not (await kit.send("hello")).failed


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_the_usual_key_never_goes_to_a_server_of_your_own(
    settings: Settings, clock: FakeClock, monkeypatch: pytest.MonkeyPatch, provider: str
) -> None:
    monkeypatch.setenv(USUAL[provider], SECRET[provider])
    async with Endpoint.start(provider) as endpoint:
        await _one_turn(settings, endpoint.llm(), clock)
        sent = _sent_key(endpoint)
    assert SECRET[provider] not in sent and sent == NO_KEY


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_a_key_named_beside_the_base_url_goes_there(
    settings: Settings, clock: FakeClock, monkeypatch: pytest.MonkeyPatch, provider: str
) -> None:
    monkeypatch.setenv("MY_SERVER_KEY", "local-server-key-42")
    monkeypatch.setenv(USUAL[provider], SECRET[provider])
    async with Endpoint.start(provider) as endpoint:
        await _one_turn(settings, endpoint.llm(key_env="MY_SERVER_KEY"), clock)
        assert _sent_key(endpoint) == "local-server-key-42"


def _roles(**tables: Any) -> dict[str, Any]:
    llm = LLMSettings(**tables)
    return {r: model_role(llm, r) for r in ("chat", "background", "judge")}


def test_which_endpoint_gets_which_key(monkeypatch: pytest.MonkeyPatch) -> None:
    """The rule, role by role: a key named for one endpoint does not follow a role that
    overrides base_url; a role's own key_env goes to the endpoint it uses."""
    monkeypatch.setenv("OPENAI_API_KEY", "usual")
    monkeypatch.setenv("GROQ_KEY", "groq")
    monkeypatch.setenv("LOCAL_KEY", "local")
    hosted = _roles(provider="openai")
    assert role_key(hosted["chat"]) == ("usual", None)  # the provider's own API
    own = _roles(provider="openai", base_url="https://api.openai.com/v1")
    assert role_key(own["background"]) == ("usual", None)
    proxy = _roles(provider="openai", base_url="https://api.groq.example/v1")
    assert role_key(proxy["chat"]) == (NO_KEY, None)  # not named for it: none
    split = _roles(
        provider="openai",
        base_url="https://api.groq.example/v1",
        key_env="GROQ_KEY",
        background=RoleSettings(base_url="http://127.0.0.1:11434/v1"),
    )
    assert role_key(split["chat"]) == ("groq", None)
    assert role_key(split["background"]) == (NO_KEY, None)  # GROQ_KEY is not for Ollama
    assert role_key(split["judge"]) == (NO_KEY, None)  # the judge follows background
    named = _roles(
        provider="openai",
        base_url="https://api.groq.example/v1",
        background=RoleSettings(base_url="http://10.0.0.5:8080/v1", key_env="LOCAL_KEY"),
        chat=RoleSettings(key_env="GROQ_KEY"),
    )
    assert role_key(named["background"]) == ("local", None)
    assert role_key(named["chat"]) == ("groq", None)  # the role's own table names it
    back = _roles(
        provider="openai",
        base_url="http://127.0.0.1:11434/v1",
        chat=RoleSettings(provider="anthropic", base_url=""),
    )
    monkeypatch.setenv("ANTHROPIC_API_KEY", "anthropic")
    assert role_key(back["chat"]) == ("anthropic", None)  # back on Anthropic's own API
    assert role_key(back["background"]) == (NO_KEY, None)
