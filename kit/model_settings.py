"""`[llm]`: which model answers which role, through which provider, within which limits.

Roles: `chat` (the replies the owner waits on), `background` (curation, window and daily
summaries, REM, the model filter) and `judge` (`kit eval qa`'s grader; the background model
unless set). `[llm]` sets the default for every role; `[llm.chat]`, `[llm.background]` and
`[llm.judge]` override any of provider, base_url, model, key_env and the limits, so an owner can
chat with a hosted model and curate with a local one.

Limits left unset come from the `preset`: "hosted" fits the hosted APIs; "local" fits models
served on a CPU (long timeouts, short outputs, a small context window, the small tool set).
Keys never live here: `key_env` names the environment variable that holds one.
"""

from __future__ import annotations

import ipaddress
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar
from urllib.parse import urlsplit

from kit.errors import ConfigError
from kit.providers import ANTHROPIC, NAMES, PROVIDERS, provider

PRESETS = ("hosted", "local")
ROLES = ("chat", "background", "judge")
# "tool": a forced tool call; "json": a JSON-schema response format (OpenAI, vLLM, llama.cpp's
# llama-server, Ollama); "json_object": `{"type": "json_object", "schema": ...}`, the dialect
# of llama-cpp-python's server, which answers `json_schema` with a 500 (issue 29). Which
# provider speaks which: its record (kit/providers.py).
STRUCTURED = ("tool", "json", "json_object")
DEADLINE_TIMEOUTS = 2.0  # an unset deadline_seconds is this many times timeout_seconds
MIN_CONTEXT_TOKENS = 2048  # the curator's rules and one message need about that much
T = TypeVar("T")
_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,127}")


@dataclass(frozen=True)
class Limits:
    timeout_seconds: float
    max_tokens: int  # output tokens one call may ask for
    max_retries: int
    context_tokens: int  # what one request may hold, input and output together
    tools: str  # the chat model's tool set: "all" or "small"


# hosted: a 4,096-token curation answer at ~50 tokens/s takes 80 s, so background waits longer
# than chat. local (SmolLM2-135M on 2 cores, issue 21): passes took 28-197 s and a looping
# answer 15-20 min at 4,096 tokens, so outputs are capped and the context is a 4k window.
PRESET_LIMITS: dict[str, dict[str, Limits]] = {
    "hosted": {
        "chat": Limits(60.0, 1024, 3, 100_000, "all"),
        "background": Limits(180.0, 4096, 3, 100_000, "all"),
    },
    "local": {
        "chat": Limits(300.0, 512, 1, 8192, "small"),
        "background": Limits(900.0, 1024, 1, 8192, "small"),
    },
}


@dataclass(frozen=True)
class RoleSettings:
    """Overrides for one role; anything left out comes from `[llm]`, then the preset."""

    provider: str | None = None
    base_url: str | None = None
    model: str | None = None
    key_env: str | None = None
    timeout_seconds: float | None = None
    deadline_seconds: float | None = None
    max_tokens: int | None = None
    max_retries: int | None = None
    context_tokens: int | None = None
    structured_output: str | None = None
    temperature: float | None = None  # None: the provider's default (0 for a reproducible run)
    # USD per million tokens, for the cost `kit eval qa` and bench/real_model.py print.
    price_input: float | None = None
    price_output: float | None = None


@dataclass(frozen=True)
class LLMSettings:
    provider: str = ANTHROPIC.name
    base_url: str = ""
    key_env: str = ""  # "" = the provider's usual variable (its record's key_env)
    preset: str = "hosted"
    chat_model: str = "claude-sonnet-4-6"
    small_model: str = "claude-haiku-4-5"
    max_tokens: int | None = None  # the chat reply's limit (background: [llm.background])
    max_retries: int | None = None
    timeout_seconds: float | None = None
    # The whole call, retries included (the SDKs' timeouts are per read); unset: twice
    # timeout_seconds.
    deadline_seconds: float | None = None
    context_tokens: int | None = None
    # "tool": structured answers are a forced tool call; "json" / "json_object": (openai only)
    # a response format in the server's dialect, for servers that do not honour a forced tool
    # choice (STRUCTURED says which speaks which).
    structured_output: str = "tool"
    max_tool_rounds: int = 4
    tools: str = ""  # "all", "small" or tool names, comma-separated; "" = the preset's
    chat: RoleSettings = field(default_factory=RoleSettings)
    background: RoleSettings = field(default_factory=RoleSettings)
    judge: RoleSettings = field(default_factory=RoleSettings)


@dataclass(frozen=True)
class ModelRole:
    """One role with every value decided: what an adapter is built from."""

    role: str
    provider: str
    base_url: str
    model: str
    key_env: str
    timeout_seconds: float
    deadline_seconds: float
    max_tokens: int
    max_retries: int
    context_tokens: int
    structured_output: str
    price_input: float | None = None
    price_output: float | None = None
    temperature: float | None = None
    # Whether the config names key_env for this endpoint (beside its base_url, or in the
    # role's own table): a key goes only to the host it was configured for.
    key_named: bool = False

    @property
    def key_goes_here(self) -> bool:
        """Whether the owner's key (the variable `key_env` names) may be sent to this role's
        endpoint: the provider's own API (the usual variable is its key), or an endpoint the
        config names the variable for. A proxy or a server of your own gets none otherwise."""
        return self.hosted_by_provider or self.key_named

    @property
    def where(self) -> str:
        """The endpoint, as a person reads it (never with a key)."""
        return self.base_url or provider(self.provider).api

    @property
    def hosted_by_provider(self) -> bool:
        """Whether it talks to the provider's own API (a key of the provider's format)."""
        host = self.base_url.split("://", 1)[-1].split("/", 1)[0].lower()
        own = provider(self.provider).domain
        return not self.base_url or host == own or host.endswith("." + own)

    @property
    def on_own_server(self) -> bool:
        """Whether base_url is on this machine or a private network (Ollama, llama.cpp):
        such a server may want no key, and Kit sends none of the owner's there."""
        host = (urlsplit(self.base_url).hostname or "").lower() if self.base_url else ""
        if not host:
            return False
        if host == "localhost" or host.endswith((".local", ".lan", ".internal", ".localhost")):
            return True
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return False
        return address.is_loopback or address.is_private or address.is_link_local

    def output(self, wanted: int) -> int:
        """The output tokens a call that wants `wanted` may ask for in this role."""
        return max(1, min(wanted, self.max_tokens))

    def setting(self, key: str) -> str:
        """Where `key` is set for this role (for messages that name the fix)."""
        return f"llm.{self.role}.{key}"


def model_role(llm: LLMSettings, role: str) -> ModelRole:
    """`role` with its overrides, then `[llm]`, then the preset. The judge inherits the
    background role's overrides before `[llm]`'s."""
    if role not in ROLES:
        raise ValueError(f"unknown model role {role!r}")
    chain = [getattr(llm, role)] + ([llm.background] if role == "judge" else [])
    limits = PRESET_LIMITS[llm.preset]["chat" if role == "chat" else "background"]

    def pick(key: str) -> Any:
        """The first override of `key` along the chain, or None."""
        return next((getattr(s, key) for s in chain if getattr(s, key) is not None), None)

    name = pick("provider") or llm.provider
    spec = provider(name)
    default_model = llm.chat_model if role == "chat" else llm.small_model
    top_tokens = llm.max_tokens if role == "chat" else None  # `[llm] max_tokens`: chat only
    timeout = _first(pick("timeout_seconds"), llm.timeout_seconds, limits.timeout_seconds)
    tables: list[RoleSettings | LLMSettings] = [*chain, llm]
    return ModelRole(
        role=role,
        provider=name,
        base_url=_first(pick("base_url"), llm.base_url),
        model=_first(pick("model"), default_model),
        key_env=pick("key_env") or llm.key_env or spec.key_env,
        timeout_seconds=timeout,
        deadline_seconds=_first(
            pick("deadline_seconds"), llm.deadline_seconds, DEADLINE_TIMEOUTS * timeout
        ),
        max_tokens=_first(pick("max_tokens"), top_tokens, limits.max_tokens),
        max_retries=_first(pick("max_retries"), llm.max_retries, limits.max_retries),
        context_tokens=_first(pick("context_tokens"), llm.context_tokens, limits.context_tokens),
        # [llm]'s "json" is for the roles whose provider speaks it; one kept on Anthropic's (a
        # hosted chat beside a local curator) answers in a forced tool call, its only way.
        structured_output=_first(
            pick("structured_output"),
            llm.structured_output if llm.structured_output in spec.structured else "tool",
        ),
        price_input=pick("price_input"),
        price_output=pick("price_output"),
        temperature=pick("temperature"),
        key_named=_level(tables, "key_env") <= _level(tables, "base_url"),
    )


def _level(tables: list[RoleSettings | LLMSettings], key: str) -> float:
    """How specific the table that sets `key` is: 0 the role's own, the last [llm]; infinity
    when none does. "" is unset, but for a role's base_url, where it means the provider's API."""
    for level, table in enumerate(tables):
        value = getattr(table, key)
        if value or (value == "" and key == "base_url" and isinstance(table, RoleSettings)):
            return level
    return math.inf


def _first(*values: T | None) -> T:
    """The first value that is set (the last one always is)."""
    found = next((v for v in values if v is not None), None)
    assert found is not None
    return found


def tool_set(llm: LLMSettings) -> str:
    """The chat model's tools: "all", "small", or names (checked against the tools by
    kit/tools.py)."""
    return llm.tools.strip() or PRESET_LIMITS[llm.preset]["chat"].tools


Bad = Callable[[str, str], ConfigError]


def check_role_settings(section: RoleSettings, bad: Bad, name: str, source: str) -> None:
    """Ranges of one `[llm.<role>]` table (the combinations: `check_llm_settings`)."""
    _check_common(section, bad, name, source)
    if section.model is not None and not section.model.strip():
        raise bad("model", "must not be empty; leave it out to use [llm]'s model")
    for key in ("price_input", "price_output"):
        value = getattr(section, key)
        if value is not None and not 0.0 <= value < math.inf:
            raise bad(key, "must be a price in USD per million tokens, 0 or more")
    if section.temperature is not None and not 0.0 <= section.temperature <= 2.0:
        raise bad("temperature", "must be a number from 0 to 2 (0: the most repeatable)")


def check_llm_settings(section: LLMSettings, bad: Bad, source: str) -> None:
    _check_common(section, bad, "llm", source)
    if section.preset not in PRESETS:
        raise bad("preset", f"must be one of {', '.join(map(repr, PRESETS))}")
    if section.max_tool_rounds < 1:
        raise bad("max_tool_rounds", "must be at least 1")
    for key in ("chat_model", "small_model"):
        if not getattr(section, key).strip():
            raise bad(key, "must name a model")
    resolved = [model_role(section, role) for role in ROLES]
    for role in resolved:
        spec = provider(role.provider)
        if role.structured_output not in spec.structured:
            raise ConfigError(
                f"{source}: llm.{role.role}: structured_output = {role.structured_output!r} "
                f"needs provider = {_speakers(role.structured_output)} ({spec.api} speaks "
                f"{', '.join(map(repr, spec.structured))}); set it to 'tool'"
            )
    wanted = section.structured_output
    if all(wanted not in provider(r.provider).structured for r in resolved):
        raise ConfigError(
            f"{source}: llm: structured_output = {wanted!r} needs provider = "
            f"{_speakers(wanted)} for some role (no role's provider speaks it); set it to 'tool'"
        )


def _speakers(dialect: str) -> str:
    """The providers that speak a structured_output dialect, as a config line names them."""
    return " or ".join(repr(p.name) for p in PROVIDERS if dialect in p.structured)


def _check_common(section: LLMSettings | RoleSettings, bad: Bad, name: str, source: str) -> None:
    chosen = section.provider
    if chosen is not None and chosen not in NAMES:
        raise bad("provider", f"must be one of {', '.join(map(repr, NAMES))}")
    structured = section.structured_output
    if structured is not None and structured not in STRUCTURED:
        raise bad("structured_output", f"must be one of {', '.join(map(repr, STRUCTURED))}")
    key_env = section.key_env
    if key_env and not _ENV_NAME.fullmatch(key_env):
        # Never echo it: whoever got this wrong may have pasted the key itself.
        raise ConfigError(
            f"{source}: {name}.key_env must name an environment variable (like "
            "OPENAI_API_KEY), never the key itself; put the key in that variable"
        )
    base_url = section.base_url
    if base_url and not base_url.startswith(("http://", "https://")):
        raise bad("base_url", "must be an http:// or https:// URL (or empty)")
    for key in ("timeout_seconds", "deadline_seconds"):
        seconds = getattr(section, key)
        if seconds is not None and not 0.0 < seconds < math.inf:
            raise bad(key, "must be a positive number of seconds")
    if section.max_tokens is not None and section.max_tokens < 1:
        raise bad("max_tokens", "must be at least 1")
    if section.max_retries is not None and section.max_retries < 0:
        raise bad("max_retries", "must be at least 0")
    context = section.context_tokens
    if context is not None and context < MIN_CONTEXT_TOKENS:
        raise bad("context_tokens", f"must be at least {MIN_CONTEXT_TOKENS}")
