"""The generated reference pages (docs/cli.md) say what the code says: regenerate them with
`python -m kit.docs_gen` after changing a command."""

from __future__ import annotations

import argparse
from pathlib import Path

from kit.docs_gen import cli_reference, main, pages, stale
from tests.docs.named_paths import REPO


def test_the_generated_pages_are_current() -> None:
    assert stale(REPO) == [], "stale generated pages: run `python -m kit.docs_gen`"


def test_a_changed_command_makes_its_page_stale(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    assert main(["--root", str(tmp_path)]) == 0
    assert main(["--check", "--root", str(tmp_path)]) == 0
    page = tmp_path / "docs" / "cli.md"
    page.write_text(page.read_text(encoding="utf-8").replace("--json", "--jason"), "utf-8")
    assert stale(tmp_path) == ["docs/cli.md"]
    assert main(["--check", "--root", str(tmp_path)]) == 1


def test_every_command_and_argument_is_on_the_page() -> None:
    """Every subcommand gets a heading and every option a row, with its default."""
    text = pages()["docs/cli.md"]
    for heading in ("## `kit search`", "## `kit facts undo`", "## `kit eval retrieval`"):
        assert heading in text
    top = argparse.ArgumentParser(prog="kit")
    sub = top.add_subparsers(dest="command")
    demo = sub.add_parser("demo", help="a demo command")
    demo.add_argument("--k", type=int, default=10, help="how many")
    demo.add_argument("query", help="what to look for")
    page = cli_reference(top)
    assert "- [`kit demo`](#kit-demo): a demo command" in page
    assert "| `--k K` | how many (default: `10`) |" in page
    assert "kit demo [--k K] query" in page


def test_the_socket_page_lists_every_declared_op_with_its_checked_fields() -> None:
    from kit.docs_gen.socket_page import socket_reference
    from kit.operations import operation_names

    page = socket_reference()
    rows = [line for line in page.splitlines() if line.startswith("| `")]
    assert [row.split("`")[1] for row in rows] == list(operation_names())
    (deactivate,) = [row for row in rows if row.startswith("| `deactivate_fact` |")]
    assert "`fact_id: integer (a positive id)`" in deactivate
    assert "`reason: string (at most 500 characters)`" in deactivate
    (rem,) = [row for row in rows if row.startswith("| `rem` |")]
    assert "`dry_run: true/false = false`" in rem and "`progress`" in rem
    (passes,) = [row for row in rows if row.startswith("| `passes` |")]
    assert "`[PassRecord]`" in passes
