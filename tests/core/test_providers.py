"""Each model provider is declared once (kit/providers.py): its record is what the settings, the
composition root, `kit doctor` and the price list read, and nothing else names a provider."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from kit.app_models import _adapter
from kit.config import load_settings
from kit.errors import ConfigError
from kit.llm.prices import price
from kit.model_settings import LLMSettings, RoleSettings, model_role
from kit.providers import NAMES, PROVIDERS, provider
from tests.servers import providers as fakes

REPO = Path(__file__).resolve().parents[2]


def test_no_module_but_the_records_names_a_provider() -> None:
    """A branch on a provider's name (`if role.provider == "openai"`), a table keyed by it or
    a default spelled out would each be one more place a new provider has to be added."""
    found = [
        f"{path.relative_to(REPO)}:{node.lineno} {node.value!r}"
        for root in ("kit", "tui", "scheduler")
        for path in sorted((REPO / root).rglob("*.py"))
        if path != REPO / "kit" / "providers.py"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant) and node.value in NAMES
    ]
    assert found == []


@pytest.mark.parametrize("record", PROVIDERS, ids=NAMES)
async def test_each_record_names_an_adapter_that_builds_a_client_for_a_role(record) -> None:
    """The record's adapter module is under kit/llm/, has `make_client`, and what it makes
    speaks the port and `kit doctor`'s check; kit/app_models.py builds it from the record alone."""
    assert record.adapter.startswith("kit.llm.")
    module = importlib.import_module(record.adapter)
    role = model_role(LLMSettings(provider=record.name, base_url="http://127.0.0.1:9/v1"), "chat")
    client = _adapter(role, "a-key-nobody-checks", max_retries=0, timeout=1.0)
    try:
        assert type(client).__module__ == module.__name__
        for method in ("complete", "reach", "aclose"):
            assert callable(getattr(client, method))
    finally:
        await client.aclose()


def test_each_record_is_whole() -> None:
    for record in PROVIDERS:
        assert record.structured and record.structured[0] == "tool", record.name
        assert record.domain and "/" not in record.domain, record.name
        assert record.key_env.isupper(), record.name
        assert bool(record.key_prefix) == bool(record.key_name), record.name
    assert len(set(NAMES)) == len(NAMES)


def test_the_defaults_come_from_the_record() -> None:
    for record in PROVIDERS:
        role = model_role(LLMSettings(provider=record.name), "background")
        assert role.key_env == record.key_env
        assert role.where == record.api
        assert role.hosted_by_provider
        under = model_role(
            LLMSettings(provider=record.name, base_url=f"https://api.{record.domain}"), "chat"
        )
        assert under.hosted_by_provider
    assert LLMSettings().provider == PROVIDERS[0].name


def test_list_prices_are_the_records_and_only_for_its_own_api() -> None:
    for record in PROVIDERS:
        for model, per_input, per_output in record.list_prices:
            own = model_role(LLMSettings(provider=record.name, chat_model=model), "chat")
            assert price(own) == (per_input, per_output)
            proxy = model_role(
                LLMSettings(provider=record.name, chat_model=model, base_url="http://10.0.0.2/v1"),
                "chat",
            )
            assert price(proxy) is None  # a proxy's or a local server's price is its own


def test_an_unknown_provider_is_refused_with_the_known_ones(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown model provider 'mistral'; known: anthropic"):
        provider("mistral")
    config = tmp_path / "config.toml"
    config.write_text('[llm]\nprovider = "mistral"\n', encoding="utf-8")
    with pytest.raises(ConfigError) as raised:
        load_settings(config, tmp_path / "data")
    assert all(repr(name) in str(raised.value) for name in NAMES)


def test_a_dialect_a_provider_does_not_speak_names_those_that_do(tmp_path: Path) -> None:
    quiet = next(p for p in PROVIDERS if "json" not in p.structured)
    config = tmp_path / "config.toml"
    config.write_text(
        f'[llm]\nprovider = "{quiet.name}"\n[llm.chat]\nstructured_output = "json"\n',
        encoding="utf-8",
    )
    with pytest.raises(ConfigError) as raised:
        load_settings(config, tmp_path / "data")
    speakers = [p.name for p in PROVIDERS if "json" in p.structured]
    assert all(repr(name) in str(raised.value) for name in speakers)
    assert quiet.api in str(raised.value)


def test_the_fake_servers_cover_every_provider() -> None:
    """A new record needs its local fake (tests/servers/providers.py) for the tests that run
    one story through every provider's real SDK."""
    assert tuple(fakes.PROVIDERS) == NAMES
    assert RoleSettings().provider is None
