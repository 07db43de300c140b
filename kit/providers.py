"""The model providers, each declared once, as kit/surface.py declares the operations.

A record says what the rest of Kit needs to know of a provider: the value of `llm.provider`,
how its API and its key are named to the owner, the host of its own API, the variable its key
usually lives in, the `structured_output` dialects it speaks, what `kit doctor` checks of a key,
its list prices, and the adapter module (under kit/llm/, the only module importing its SDK)
whose `make_client` builds a client for a role. Nothing else branches on a provider's name
(tests/core/test_providers.py holds that); adding one is a record here and its adapter
(docs/development.md: Adding a model provider).

The presets (`llm.preset`: "hosted", "local") hold for every provider: a local server is any
provider's API at a `base_url` of the owner's own (kit/model_settings.py).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Provider:
    name: str  # llm.provider's value
    company: str  # who issues its keys, in the line that asks for one
    api: str  # where a role without base_url talks, as a person reads it
    speaks: str  # the kind of API, for "the server at base_url may speak another kind"
    domain: str  # its own API's host: a base_url on it (or under it) is the provider's own
    key_env: str  # the variable its key usually lives in (llm.key_env's default)
    adapter: str  # the module whose make_client(role, key, max_retries=, timeout=) builds one
    structured: tuple[str, ...]  # the structured_output dialects it speaks ("tool" first)
    key_prefix: str = ""  # kit doctor: a key for its own API starts so ("" = no check)
    key_name: str = ""  # kit doctor: "an Anthropic key", in the warning about the key's form
    key_help: str = ""  # kit doctor: how to get a key it takes ("" = export the one it expects)
    list_prices: tuple[tuple[str, float, float], ...] = ()  # (model, USD/M input, output)
    sdk_loggers: tuple[str, ...] = ()  # the SDK's loggers, quieted to warnings (kit/logs.py)


ANTHROPIC = Provider(
    name="anthropic",
    company="Anthropic",
    api="the Anthropic API",
    speaks="an Anthropic",
    domain="anthropic.com",
    key_env="ANTHROPIC_API_KEY",
    adapter="kit.llm.anthropic",
    structured=("tool",),  # the Anthropic API answers in a forced tool call
    key_prefix="sk-",
    key_name="an Anthropic key",
    key_help="create a key at console.anthropic.com and export it",
    # As published when this was written (2026); kit/llm/prices.py
    list_prices=(("claude-haiku-4-5", 1.0, 5.0), ("claude-sonnet-4-6", 3.0, 15.0)),
    sdk_loggers=("anthropic",),
)

OPENAI = Provider(
    name="openai",
    company="OpenAI",
    api="the OpenAI API",
    speaks="an OpenAI-compatible",
    domain="openai.com",
    key_env="OPENAI_API_KEY",
    adapter="kit.llm.openai",
    # "json": a JSON-schema response format (OpenAI, vLLM, llama.cpp's llama-server, Ollama);
    # "json_object": llama-cpp-python's dialect, which answers `json_schema` with a 500
    structured=("tool", "json", "json_object"),
)

PROVIDERS: tuple[Provider, ...] = (ANTHROPIC, OPENAI)
NAMES: tuple[str, ...] = tuple(p.name for p in PROVIDERS)


def provider(name: str) -> Provider:
    """The record named `name` (settings are checked against NAMES when read)."""
    for record in PROVIDERS:
        if record.name == name:
            return record
    raise ValueError(f"unknown model provider {name!r}; known: {', '.join(NAMES)}")
