"""`kit backup PATH`: a consistent copy of the database, safe while the daemon runs."""

from __future__ import annotations

import argparse
from pathlib import Path

from kit.text import plural


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cmd = sub.add_parser(
        "backup",
        help="copy the database to PATH (works while Kit runs)",
        description="Uses SQLite's online backup: the copy is one consistent moment, checked "
        "for integrity, readable by you alone. PATH may be a directory (a dated name is used); an "
        "existing file is never replaced without --force. "
        "Restore it with `kit restore FILE` (stop Kit first), never by copying it over kit.db.",
    )
    cmd.add_argument("path", type=Path)
    cmd.add_argument("--force", action="store_true", help="replace PATH if it exists")
    cmd.set_defaults(func=run)


async def run(args: argparse.Namespace) -> int:
    import asyncio

    from kit.clock import SystemClock
    from kit.config import load_settings
    from kit.errors import InputError
    from kit.portability.backup import backup_database, backup_target
    from kit.store.engines import describe

    # Only the settings: a backup reads the file directly and never opens a second engine.
    settings = load_settings(args.config, args.data_dir)
    if settings.on_postgres:
        raise InputError(
            f"kit backup copies a SQLite file, and memory lives on {describe(settings)}; back "
            "it up with PostgreSQL's own tools (pg_dump, or the server's base backups), or one "
            "owner with kit export"
        )
    target = backup_target(args.path.expanduser(), SystemClock().now(), force=args.force)
    result = await asyncio.to_thread(
        backup_database, settings.database_path, target, force=args.force
    )
    print(
        f"Backed up {settings.database_path} to {result.path} ({result.size_bytes:,} bytes: "
        f"{plural(result.messages, 'message')}, {plural(result.facts, 'fact')}, "
        f"{plural(result.days, 'day')}; "
        "integrity check ok)."
    )
    return 0
