"""The README stays a front door: short, and its quick start is what CI runs."""

from __future__ import annotations

import re

from tests.docs.named_paths import REPO

README = REPO / "README.md"


def _quick_start() -> list[str]:
    text = README.read_text(encoding="utf-8")
    section = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block, "README's Quick start has no ```sh block"
    return [line.split("#", 1)[0].strip() for line in block.group(1).splitlines() if line.strip()]


def test_the_readme_is_a_front_door_not_the_manual() -> None:
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines <= 250, f"README.md has {lines} lines: move the topic into a page of docs/"


def test_ci_runs_the_readmes_test_command_exactly() -> None:
    start, tests = _quick_start()
    assert start == "pip install -e . && kit run"
    assert tests == "pip install -e '.[dev]' && python -m pytest"
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert tests in (line.strip() for line in ci)


def _exclusive_commands() -> set[str]:
    """Commands whose module opens Kit with the data directory's lock (`exclusive=True`):
    they refuse to run beside a daemon."""
    found = set()
    for module in (REPO / "kit" / "commands").glob("*.py"):
        source = module.read_text(encoding="utf-8")
        named = re.search(r'add_parser\(\s*"([\w-]+)"', source)
        if named and "exclusive=True" in source:
            found.add(named.group(1))
    return found


def test_the_readme_says_which_commands_want_the_daemon_stopped() -> None:
    """The README starts the daemon, then shows `kit import`, which refuses beside it: every
    README line showing such a command says the daemon must be stopped."""
    commands = _exclusive_commands()
    assert "import" in commands
    lines = README.read_text(encoding="utf-8").splitlines()
    for name in commands:
        for line in (x for x in lines if re.search(rf"(?<!from )\bkit {name}\b", x)):
            assert "daemon" in line, f"README: {line.strip()!r} does not say to stop the daemon"
