"""Which chat lines are commands, and what an unknown one gets: one declaration for Telegram,
`kit chat` and the TUI (kit/chat_commands.py)."""

from __future__ import annotations

import pytest

from kit.chat_commands import COMMANDS, command_name, unknown_command


@pytest.mark.parametrize(
    ("line", "name"),
    [
        ("/help", "help"),
        ("  /Facts people", "facts"),
        ("/search ana birthday", "search"),
        ("/help@kit_bot", "help"),
        ("/etc/hosts is broken", None),  # a path: a message
        ("hello /help", None),
        ("/", None),
        ("/123", None),
    ],
)
def test_a_command_is_a_slash_and_a_name_at_the_start(line: str, name: str | None) -> None:
    assert command_name(line) == name


def test_an_unknown_command_gets_the_closest_names() -> None:
    assert unknown_command("serch") == (
        "I don't know /serch. Did you mean /search? /help lists what I can do."
    )
    assert unknown_command("zzz") == "I don't know /zzz. /help lists what I can do."


def test_help_lists_every_declared_command() -> None:
    from kit.chat_commands import HELP

    for name, _ in COMMANDS:
        assert f"/{name}" in HELP
