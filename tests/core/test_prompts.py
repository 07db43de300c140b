"""Prompts: every file registered with its exact variables; mistakes fail at start-up."""

from __future__ import annotations

from pathlib import Path

import pytest

from kit.errors import ConfigError
from kit.prompts import PROMPTS_DIR, REQUIRED, Prompts


def test_every_prompt_file_is_registered_and_every_registered_prompt_exists() -> None:
    files = {
        p.relative_to(PROMPTS_DIR).with_suffix("").as_posix() for p in PROMPTS_DIR.rglob("*.md")
    }
    assert files == set(REQUIRED)


def test_repository_prompts_pass_the_start_up_check() -> None:
    Prompts().check()


@pytest.mark.parametrize("name", sorted(REQUIRED))
def test_each_prompt_renders_with_exactly_its_variables(name: str) -> None:
    values = {var: f"<<{var.upper()}>>" for var in REQUIRED[name]}
    text = Prompts().render(name, **values)
    for var, value in values.items():
        assert value in text
        assert f"${var}" not in text and f"${{{var}}}" not in text


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "greet.md").write_text("Hello $name, that costs $$5.\n", encoding="utf-8")
    (tmp_path / "broken.md").write_text("Hello $name, that costs $5.\n", encoding="utf-8")
    return tmp_path


def test_literal_dollars_and_values_are_not_substituted_twice(folder: Path) -> None:
    text = Prompts(folder).render("greet", name="$other ${x}")
    assert text == "Hello $other ${x}, that costs $5.\n"


def test_stray_dollar_fails_the_start_up_check_not_the_render(folder: Path) -> None:
    with pytest.raises(ConfigError, match=r"broken\.md: a `\$` that is not a \$placeholder.*\$\$"):
        Prompts(folder).check({"broken": frozenset({"name"})})


def test_variable_mismatch_fails_the_start_up_check(folder: Path) -> None:
    with pytest.raises(ConfigError, match=r"prompts/greet\.md: expects variables \['name'\]"):
        Prompts(folder).check({"greet": frozenset({"name", "day"})})


def test_missing_prompt_file_names_the_path(folder: Path) -> None:
    with pytest.raises(ConfigError, match=r"nope\.md: prompt file missing"):
        Prompts(folder).check({"nope": frozenset()})


@pytest.mark.parametrize(
    ("values", "detail"),
    [({}, "missing: ['name']"), ({"name": "a", "day": "b"}, "unexpected: ['day']")],
)
def test_render_refuses_missing_or_extra_variables(
    folder: Path, values: dict[str, str], detail: str
) -> None:
    with pytest.raises(ConfigError) as err:
        Prompts(folder).render("greet", **values)
    assert detail in str(err.value)


def test_the_chat_prompt_forbids_making_up_facts_about_the_owner() -> None:
    """A small model with an empty memory invented the owner's sister (issue 29): the prompt
    says to state only what memory or the conversation holds, and to ask otherwise."""
    text = Prompts().render("chat", owner_name="")
    assert "Say about your owner only what <memory> or this conversation holds" in text
    assert "if you do not know, say so, or ask" in text
