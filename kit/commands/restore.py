"""`kit restore FILE`: put a backup (or an export) in place of the memory, keeping the old one.

The one command the docs and `kit doctor` give after a crash or a damaged kit.db. The work
is kit/portability/restore_file.py; this module takes the locks (no Kit may run meanwhile)
and says what it did.
"""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the work loads when the command runs, not with `kit --help`
    from kit.config import Settings
    from kit.portability import restore_file
    from kit.portability.restore import RestoreResult


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cmd = sub.add_parser(
        "restore",
        help="put a backup (kit backup) or an export (kit export) in place of the memory",
        description="Checks FILE first (SQLite's integrity check and a schema this Kit knows; "
        "an export is checked whole), moves the current kit.db and its -wal and -shm aside "
        "under a dated name (kept, never deleted), puts the restored database in place in one "
        "step and checks it again. Stop Kit first. A --user namespace is for exports only.",
    )
    cmd.add_argument("file", type=Path, metavar="FILE", help="a `kit backup` file or a JSON export")
    cmd.add_argument(
        "--allow-forgotten",
        action="store_true",
        help="restore an export's messages a `kit forget` erased anyway (refused without it)",
    )
    cmd.set_defaults(func=run)


async def run(args: argparse.Namespace) -> int:
    import asyncio

    from kit.clock import SystemClock
    from kit.commands import import_
    from kit.config import load_settings
    from kit.errors import InputError
    from kit.files import private_dir
    from kit.portability import restore_file
    from kit.portability.restore import read_export
    from kit.store.engines import describe

    settings = load_settings(args.config, args.data_dir)
    file = args.file.expanduser()
    export = await asyncio.to_thread(_is_export, file)
    if settings.on_postgres:
        if export:
            return await import_.restore_export(args, file)  # into an empty memory, as kit import
        raise InputError(
            f"kit restore puts a SQLite file back, and memory lives on {describe(settings)}: "
            "restore PostgreSQL with its own tools (pg_restore of a pg_dump, or the server's "
            "base backups). To load a Kit backup file into it, point a config's storage.url "
            "at the file (sqlite:///path/to/backup.db) and run `kit storage copy --to URL` "
            "into an empty database; a `kit export` file restores here with kit restore FILE"
        )
    if args.user and not export:
        raise InputError(
            "--user is for restoring an export; a backup file holds every user's memory"
        )
    database = settings.database_path
    private_dir(database.parent)
    now = SystemClock().now()
    with _no_kit_running(settings):
        if export:
            document = read_export(file)  # checked whole before anything is written
            user = args.user or document["user_id"]
            staged, restored = await restore_file.stage_export(
                document, user, database, SystemClock(), allow_forgotten=args.allow_forgotten
            )
            label = f"the database restored from {file}"
        else:
            staged = await asyncio.to_thread(restore_file.stage_copy, file, database)
            restored, label = None, str(file)
        try:
            checked = await asyncio.to_thread(restore_file.check, staged, label)
        except BaseException:
            restore_file.discard(staged)
            raise
        installed = await asyncio.to_thread(restore_file.install, staged, database, checked, now)
    _report(file, installed, restored)
    return 0


def _is_export(file: Path) -> bool:
    from kit.portability.restore import is_export_file

    if not file.exists() or not file.is_file():
        return False  # the backup path says what is wrong with it
    return is_export_file(file)


@contextlib.contextmanager
def _no_kit_running(settings: Settings) -> Iterator[None]:
    """Hold the data directory's and the SQLite file's locks, or say who holds them."""
    from kit.daemon.lock import AlreadyRunning, DataDirLock, PidFileLock, store_file_lock

    held: list[PidFileLock] = []
    locks: list[PidFileLock | None] = [DataDirLock(settings.data_dir), store_file_lock(settings)]
    try:
        for lock in filter(None, locks):
            holder = lock.try_acquire("standalone")
            if holder is not None:
                raise AlreadyRunning(
                    f"{settings.data_dir}: {holder.describe()} is using this memory, and a "
                    f"restore replaces it; stop it first ({holder.how_to_stop()}), run "
                    "kit restore again, then start Kit",
                    holder,
                )
            held.append(lock)
        yield
    finally:
        for taken in reversed(held):
            taken.release()


def _report(file: Path, installed: restore_file.Installed, restored: RestoreResult | None) -> None:
    checked = installed.checked
    what = f"the export {file} (the memory of {restored.user_id!r})" if restored else str(file)
    print(
        f"Restored {what} into {installed.database}: {checked.describe()}; SQLite's "
        "integrity check ok before and after it was put in place."
    )
    if checked.schema < checked.known:
        print(
            f"Its schema is older ({checked.schema} of {checked.known} migrations): Kit "
            "brings it up to date when it next starts."
        )
    if installed.aside:
        print("The previous database is kept (nothing was deleted), as:")
        for path in installed.aside:
            print(f"  {path}")
        print(
            "Together these files are the memory as it was before; delete them once you no "
            "longer need it."
        )
    if restored is not None:
        print("Its messages, facts and notes are embedded again when Kit next runs.")
        if restored.forgotten:
            from kit.commands.import_ import flag_line

            print(flag_line(list(restored.forgotten), str(file)))
    print("Start Kit again: kit run (or systemctl --user start kit).")
