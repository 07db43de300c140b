"""`kit export`: everything Kit remembers about you, as JSON (restorable) or Markdown."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterable
from pathlib import Path

from kit.commands.common import open_kit, user_of
from kit.errors import InputError, StorageError
from kit.portability.export import export_document, to_json, to_markdown


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cmd = sub.add_parser(
        "export",
        help="export facts (with history), day summaries and messages",
        description="JSON is a versioned document that `kit import` restores into an empty "
        "memory; Markdown is for reading. Files are written readable by you alone.",
    )
    cmd.add_argument("--format", choices=("json", "markdown"), default="json")
    cmd.add_argument("--output", "-o", type=Path, help="file to write (default: stdout)")
    cmd.set_defaults(func=run)


async def run(args: argparse.Namespace) -> int:
    if args.output is not None:
        _check_output(args.output)
    async with open_kit(args, with_embedder=False) as kit:
        s = kit.services
        document = await export_document(s.db, user_of(args, kit), s.clock.now())
        tz = s.tz
    pieces: Iterable[str] = (
        [to_json(document)] if args.format == "json" else to_markdown(document, tz)
    )
    if args.output is None:
        for piece in pieces:
            sys.stdout.write(piece)
        sys.stdout.flush()
        return 0
    _write_private(args.output, pieces)
    counts = document["counts"]
    print(
        f"Exported {counts['facts']} facts ({counts['fact_history']} history entries), "
        f"{counts['days']} days and {counts['messages']} messages to {args.output}.",
        file=sys.stderr,
    )
    return 0


def _check_output(path: Path) -> None:
    if path.is_dir():
        raise InputError(f"{path}: is a directory; give a file name, e.g. {path / 'kit.json'}")
    if not path.parent.is_dir():
        raise InputError(f"{path.parent}: no such directory; create it first")


def _write_private(path: Path, pieces: Iterable[str]) -> None:
    """Write beside the target with mode 0600, then rename: no half-written export."""
    partial = path.with_name(path.name + ".partial")
    try:
        fd = os.open(partial, os.O_CREAT | os.O_TRUNC | os.O_WRONLY, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            for piece in pieces:
                handle.write(piece)
        os.chmod(partial, 0o600)
        os.replace(partial, path)
    except OSError as exc:
        partial.unlink(missing_ok=True)
        raise StorageError(f"{path}: cannot write the export ({exc.strerror})") from exc
