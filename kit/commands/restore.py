"""`kit restore FILE`: put a backup (or an export) in place of the memory, keeping the old one.

The one command the docs and `kit doctor` give after a crash or a damaged kit.db. A backup is
rebuilt, never adopted (kit/portability/rebuild.py); an export replaces its one owner's memory
(kit/portability/stage.py); the forgets made after the file was written are re-applied
(kit/forget/reapply.py). This module takes the locks (no Kit may run meanwhile) and says what
was done. On PostgreSQL an export is restored in place (restore_pg.py).
"""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from kit.commands.forget_lines import flag_line, forget_lines

if TYPE_CHECKING:  # the work loads when the command runs, not with `kit --help`
    from kit.config import Settings
    from kit.portability import restore_file
    from kit.portability.stage import Staged


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cmd = sub.add_parser(
        "restore",
        help="put a backup (kit backup) or an export (kit export) in place of the memory",
        description="Checks FILE first (SQLite's integrity check and a schema this Kit knows; "
        "an export is checked whole), then builds a new database: a backup's rows are copied "
        "into one Kit's own migrations make (its tables and columns must be Kit's; any other "
        "trigger, view, table or index in it is named and left behind); an export replaces "
        "its one owner's memory, and every other owner's goes across unchanged. The forgets "
        "made after FILE was written (kept in the data directory's forget ledger) are "
        "applied again. The current kit.db and its -wal and -shm are moved aside under a "
        "dated name (kept, never deleted), the new database is put in place in one step and "
        "checked again. Stop Kit first. A --user namespace is for exports only.",
    )
    cmd.add_argument("file", type=Path, metavar="FILE", help="a `kit backup` file or a JSON export")
    cmd.add_argument(
        "--allow-forgotten",
        action="store_true",
        help="bring back what a `kit forget` erased: the forgets made after FILE are not "
        "applied again, and an export's own forgotten messages are not refused",
    )
    cmd.add_argument(
        "--all-owners",
        action="store_true",
        help="let a backup replace the memory of every owner a store holds (refused without "
        "it when there are several), or an export be restored over a database that cannot "
        "be read",
    )
    cmd.set_defaults(func=run)


async def run(args: argparse.Namespace) -> int:
    import asyncio

    from kit.clock import SystemClock, resolve_timezone
    from kit.config import load_settings
    from kit.errors import InputError
    from kit.files import private_dir
    from kit.forget.ledger import Ledger
    from kit.portability import restore_file, stage
    from kit.portability.restore import read_export

    settings = load_settings(args.config, args.data_dir)
    file = args.file.expanduser()
    export = await asyncio.to_thread(_is_export, file)
    if settings.on_postgres:
        from kit.commands.restore_pg import restore_on_postgres

        return await restore_on_postgres(args, settings, file, export)
    if args.user and not export:
        raise InputError(
            "--user is for restoring an export; a backup file holds every user's memory"
        )
    database = settings.database_path
    private_dir(database.parent)
    clock = SystemClock()
    options = stage.Options(
        clock=clock,
        tz=resolve_timezone(settings.schedule.timezone),
        ledger=Ledger(settings.data_dir),
        allow_forgotten=args.allow_forgotten,
        all_owners=args.all_owners,
    )
    with _no_kit_running(settings):
        if export:
            document = read_export(file, options.ledger.salt_of)  # whole, before any write
            user = args.user or document["user_id"]
            staged = await stage.stage_export(document, user, database, options)
            label = f"the database restored from {file}"
        else:
            staged = await stage.stage_backup(file, database, str(file), options)
            label = f"the database rebuilt from {file}"
        try:
            checked = await asyncio.to_thread(restore_file.check, staged.path, label)
        except BaseException:
            restore_file.discard(staged.path)
            raise
        installed = await asyncio.to_thread(
            restore_file.install, staged.path, database, checked, clock.now()
        )
    _report(file, installed, staged)
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


def owners_text(users: Sequence[str]) -> str:
    return ", ".join(repr(u) for u in users) if users else "nobody"


def _report(file: Path, installed: restore_file.Installed, staged: Staged) -> None:
    checked, restored = installed.checked, staged.restored
    what = f"the export {file} (the memory of {restored.user_id!r})" if restored else str(file)
    print(
        f"Restored {what} into {installed.database}: {checked.describe()}; SQLite's "
        "integrity check ok before and after it was put in place."
    )
    if restored is None:
        print(
            f"Rebuilt: its rows were copied into a database Kit's own migrations made (its "
            f"schema: {staged.migrations} of {checked.known} migrations, brought up to date). "
            f"It holds the memory of {owners_text(staged.owners)}."
        )
        if staged.replaced:
            print(
                f"It replaced the memory of {owners_text(staged.replaced)}: every owner "
                f"{installed.database.name} held."
            )
    else:
        if staged.replaced:
            print(f"It replaced the memory of {restored.user_id!r} only.")
        if staged.kept:
            print(
                f"The memory of the other owners ({owners_text(staged.kept)}) went across "
                "unchanged."
            )
    if staged.left_behind:
        print("Left behind (not Kit's, so not restored): " + "; ".join(staged.left_behind) + ".")
    for line in forget_lines(staged.reapplied, staged.brought_back, file):
        print(line)
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
            print(flag_line(list(restored.forgotten), str(file)))
    print("Start Kit again: kit run (or systemctl --user start kit).")
