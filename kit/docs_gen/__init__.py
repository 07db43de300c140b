"""The reference pages generated from the code: `python -m kit.docs_gen` writes them,
`python -m kit.docs_gen --check` writes nothing and exits 1 when a committed page differs from
what the code says (tests/docs/test_reference.py runs the same comparison).

- docs/cli.md from `kit`'s argparse parser (kit/docs_gen/cli_page.py);
- docs/socket-protocol.md from the declaration of the client surface (kit/docs_gen/socket_page.py).

This is a tool for the repository, not a `kit` subcommand: it is never registered in the parser
it documents.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from kit.docs_gen.cli_page import cli_reference
from kit.docs_gen.socket_page import socket_reference

__all__ = ["cli_reference", "main", "pages", "socket_reference", "stale"]


def pages() -> dict[str, str]:
    """Every generated page, by its path in the repository."""
    from kit.cli import parser

    return {
        "docs/cli.md": cli_reference(parser()),
        "docs/socket-protocol.md": socket_reference(),
    }


def stale(root: Path, render: Callable[[], dict[str, str]] = pages) -> list[str]:
    """The generated pages whose committed text differs from what the code says now."""
    found = []
    for name, text in render().items():
        path = root / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            found.append(name)
    return found


def main(argv: Sequence[str] | None = None) -> int:
    cli = argparse.ArgumentParser(
        prog="python -m kit.docs_gen",
        description="Write the generated reference pages in docs/ (or check them).",
    )
    cli.add_argument("--check", action="store_true", help="write nothing; exit 1 if stale")
    cli.add_argument(
        "--root", type=Path, default=Path.cwd(), help="the repository (default: this folder)"
    )
    args = cli.parse_args(argv)
    root: Path = args.root
    if not (root / "pyproject.toml").is_file() or not (root / "docs").is_dir():
        print(f"{root} holds no pyproject.toml and docs/: run in a clone of Kit", file=sys.stderr)
        return 2
    if args.check:
        names = stale(root)
        for name in names:
            print(f"{name} is stale: run python -m kit.docs_gen", file=sys.stderr)
        return 1 if names else 0
    for name, text in pages().items():
        (root / name).write_text(text, encoding="utf-8")
        print(f"wrote {name}")
    return 0
