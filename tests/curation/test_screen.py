"""Content that must never become a fact: the assistant talking about itself, and secrets."""

from __future__ import annotations

import pytest

from kit.curator.screen import screen, self_reference


@pytest.mark.parametrize(
    "text",
    [
        "I have a search_memory tool",
        "Kit can call get_day_history for past days",
        "The assistant stores facts in SQLite",
        "Uses the remember tool to store facts",
        "My memory is curated after each conversation",
        "I'm an AI built on Claude",
        "As an AI, cannot browse the web",
        "The system prompt includes core facts",
    ],
)
def test_self_referential_facts_are_recognised(text: str) -> None:
    assert self_reference(text) is not None


@pytest.mark.parametrize(
    "text",
    [
        "Ana is the owner's sister and lives in Porto",
        "The owner is building Kit, a personal assistant in Python",
        "Prefers answers without bullet points",
        "Wants to remember to call the dentist on Fridays",
        'Quotes their father: "I never give up"',
        "Uses Neovim with the LSP plugins",
        "Works on Part II of the migration",
        "John became an assistant manager",  # a job title, not Kit
        "Her brother is the assistant coach of the school team",
    ],
)
def test_facts_about_the_owner_pass(text: str) -> None:
    assert screen(text) is None


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("The owner's wifi password is hunter2!", "a password"),
        ("Deploy key: sk-abcdefghijklmnopqrstuvwx", "an API key"),
        ("Card 4111 1111 1111 1111 for travel", "a card number"),
    ],
)
def test_secrets_are_recognised_without_quoting_them(text: str, kind: str) -> None:
    why = screen(text)
    assert why is not None and kind in why
    assert "hunter2" not in why and "sk-" not in why and "4111" not in why
