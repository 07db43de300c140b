"""The curation prompts render with exactly the variables the curator supplies, and each holds
the rules its category needs."""

from __future__ import annotations

import pytest

from kit.config import CATEGORIES
from kit.prompts import REQUIRED, Prompts


def test_every_category_has_a_registered_prompt() -> None:
    prompts = Prompts()
    prompts.check({k: v for k, v in REQUIRED.items() if k.startswith("curate/")})
    assert {f"curate/{c}" for c in CATEGORIES} | {
        "curate/base",
        "curate/partial",
        "curate/elsewhere",
    } == {k for k in REQUIRED if k.startswith("curate/")}


def test_base_prompt_renders_with_the_conversation_and_its_rules() -> None:
    text = Prompts().render(
        "curate/base",
        owner_name="Ana",
        today="2026-03-02",
        messages="[2026-03-02 09:00] Ana: I moved to Porto.",
    )
    assert "I moved to Porto." in text and "Today is\n2026-03-02" in text
    for rule in ("INSERT", "UPDATE", "REPLACE", "DEACTIVATE", "never take a fact", "secrets",
                 "search_memory", "third person", "more than half"):  # fmt: skip
        assert rule in text, rule


@pytest.mark.parametrize("category", CATEGORIES)
def test_category_prompt_renders_with_its_facts_and_forbids_self_reference(category: str) -> None:
    text = Prompts().render(
        f"curate/{category}", owner_name="Ana", facts="#3 | - | Lives in Porto | 0.90"
    )
    assert "#3 | - | Lives in Porto | 0.90" in text
    assert f"`{category}`" in text
    assert "Kit" in text and "$" not in text


def test_partial_note_says_how_many_facts_are_shown_and_that_others_exist() -> None:
    text = Prompts().render("curate/partial", shown=12, total=2000, category="people")
    assert "the 12 facts related to this conversation" in text
    assert "of the 2000 active `people` facts" in text
    assert "may still exist" in text and "use only the ids listed here" in text


@pytest.mark.parametrize(
    ("category", "rule"),
    [
        ("people", "exactly ONE dossier-style entry"),
        ("preferences", "THEMED"),
        ("preferences", "not five"),
        ("technical", "Never the assistant's own architecture"),
    ],
)
def test_category_specific_rules(category: str, rule: str) -> None:
    assert rule in Prompts().render(f"curate/{category}", owner_name="Ana", facts="(none yet)")
