"""`kit export`: everything Kit remembers about you, as JSON (restorable) or Markdown."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from pathlib import Path

from kit.commands.common import open_kit, user_of
from kit.commands.progress import progress
from kit.text import plural


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cmd = sub.add_parser(
        "export",
        help="export facts (with history), day summaries and messages",
        description="JSON is a versioned document that `kit import` restores into an empty "
        "memory; Markdown is for reading. Files are written readable by you alone, and an "
        "existing file is never replaced without --force.",
    )
    cmd.add_argument("--format", choices=("json", "markdown"), default="json")
    cmd.add_argument("--output", "-o", type=Path, help="file to write (default: stdout)")
    cmd.add_argument("--force", action="store_true", help="replace the output file if it exists")
    cmd.set_defaults(func=run)


async def run(args: argparse.Namespace) -> int:
    from kit.portability.export import to_json, to_markdown
    from kit.portability.target import check_target

    if args.output is not None:
        check_target(args.output, force=args.force)  # before the work, not after it
    async with open_kit(args, with_embedder=False) as kit:
        with progress("Exporting"):
            document = await kit.export(user=user_of(args, kit))
        tz = kit.tz
    pieces: Iterable[str] = (
        [to_json(document)] if args.format == "json" else to_markdown(document, tz)
    )
    if args.output is None:
        for piece in pieces:
            sys.stdout.write(piece)
        sys.stdout.flush()
        return 0
    _write(args.output, pieces, force=args.force)
    counts = document["counts"]
    print(
        f"Exported {plural(counts['facts'], 'fact')} "
        f"({plural(counts['fact_history'], 'history entry', 'history entries')}), "
        f"{plural(counts['days'], 'day')} and {plural(counts['messages'], 'message')} "
        f"to {args.output}.",
        file=sys.stderr,
    )
    return 0


def _write(path: Path, pieces: Iterable[str], *, force: bool) -> None:
    from kit.portability.target import private_file

    with (
        private_file(path, force=force) as fd,
        open(fd, "w", encoding="utf-8", closefd=False) as out,
    ):
        for piece in pieces:
            out.write(piece)
