"""`kit storage copy --to URL`: move the whole memory to another store (SQLite <-> PostgreSQL)."""

from __future__ import annotations

import argparse
import dataclasses
from typing import TYPE_CHECKING

from kit.clock import SystemClock
from kit.daemon.lock import AlreadyRunning, DataDirLock
from kit.errors import InputError

if TYPE_CHECKING:
    from kit.config import Settings
    from kit.portability.copy import CopyResult


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cmd = sub.add_parser(
        "storage",
        help="move the memory to another store (SQLite <-> PostgreSQL)",
        description="Where memory lives is storage.url in config.toml.",
    )
    actions = cmd.add_subparsers(dest="action", required=True, metavar="ACTION")
    copy = actions.add_parser(
        "copy",
        help="copy the whole memory (every user) into an empty store",
        description="Copies every table of the configured store into the store at --to, ids "
        "kept, in one transaction: each table's row count and content hash are checked before "
        "it commits, and any failure leaves the target empty. A target holding rows is refused. "
        "Vectors are copied; full-text indexes are rebuilt by the target. A PostgreSQL "
        "password comes from PGPASSWORD, never from the URL. Stop Kit first.",
    )
    copy.add_argument(
        "--to",
        required=True,
        metavar="URL",
        help="postgresql://user@host:5432/db or sqlite:///path/to/kit.db",
    )
    copy.set_defaults(func=run_copy)


async def run_copy(args: argparse.Namespace) -> int:
    from kit.config import StorageSettings, load_settings
    from kit.storage_url import check_storage_url

    url = str(args.to).strip()
    if not url:
        raise InputError("--to needs a store: postgresql://user@host:5432/db or sqlite:///path")
    check_storage_url(url, "--to")  # before connecting: a password in it is refused
    settings = load_settings(args.config, args.data_dir)
    target = dataclasses.replace(settings, storage=StorageSettings(url=url))
    lock = DataDirLock(settings.data_dir)
    holder = lock.try_acquire("standalone")
    if holder is not None:
        raise AlreadyRunning(
            f"{settings.data_dir}: {holder.describe()} is using this data directory; stop it "
            "first (e.g. systemctl --user stop kit), copy, then point storage.url at the copy",
            holder,
        )
    try:
        result = await _copy(settings, target)
    finally:
        lock.release()
    _report(result, target)
    return 0


async def _copy(settings: Settings, target: Settings) -> CopyResult:
    from kit.portability.copy import copy_memory
    from kit.store.engines import open_database
    from kit.store.migrate import migrate

    clock = SystemClock()
    async with open_database(settings) as source, open_database(target) as into:
        await migrate(source, clock)
        await migrate(into, clock)
        return await copy_memory(source, into)


def _report(result: CopyResult, target: Settings) -> None:
    from kit.store.engines import describe

    filled = [t for t in result.tables if t.rows]
    print(
        f"Copied {result.rows:,} rows in {len(filled)} tables from {result.source} into "
        f"{result.target}; every table's row count and content hash matched before the copy "
        "committed."
    )
    width = max((len(t.name) for t in filled), default=0)
    for table in filled:
        rows = f"{table.rows:,} row" + ("" if table.rows == 1 else "s")
        print(f"  {table.name:<{width}}  {rows:>14}  sha256 {table.digest[:16]}")
    vectors = ", ".join(f"{n:,} of {model}" for model, n in result.vectors.items())
    print(f"Vectors: copied ({vectors or 'none'}); nothing needs embedding again.")
    print(f"Full-text index: rebuilt by the target from the rows ({result.lexical}).")
    if target.on_postgres:
        print("Id sequences: moved past the copied ids.")
    print(
        f'To run Kit on the copy: storage.url = "{describe(target)}" in config.toml'
        + (" (the password in PGPASSWORD)." if target.on_postgres else ".")
    )
