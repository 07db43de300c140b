"""`kit backup`: a consistent copy of the database while Kit (or the daemon) keeps writing.

SQLite's online backup API copies every page inside one read transaction; in WAL mode that
read never blocks writers and sees one committed state, so the copy is consistent without
stopping anything. The copy is written beside the target, checked with `PRAGMA
integrity_check`, made a self-contained single file (journal mode DELETE), and only then
given its name (the same rule as `kit export -o`: target.py). It is readable by the owner
alone (0600).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from kit.errors import NotFound, StorageError
from kit.portability.target import check_target, partial_path, private_file
from kit.store.dbfile import check_database_file
from kit.store.sqlite import storage_error


@dataclass(frozen=True)
class BackupResult:
    path: Path
    size_bytes: int
    messages: int
    facts: int
    days: int


def backup_target(target: Path, now: datetime, *, force: bool = False) -> Path:
    """A directory gets a dated file name; an existing file is replaced only with `force`."""
    if target.is_dir():
        target = target / f"kit-backup-{now.strftime('%Y%m%d-%H%M%S')}.db"
    check_target(target, force=force)
    return target


def backup_database(source: Path, target: Path, *, force: bool = False) -> BackupResult:
    """Copy `source` to `target` (blocking: run it with `asyncio.to_thread`)."""
    if not source.exists():
        raise NotFound(f"{source}: there is no database here yet, so nothing to back up")
    check_database_file(source)
    with private_file(target, force=force):
        partial = partial_path(target)
        _copy(source, partial)
        result = _check(partial)
    return BackupResult(target, target.stat().st_size, *result)


def _copy(source: Path, partial: Path) -> None:
    # timeout: wait out a writer's brief exclusive moments (checkpoints) instead of failing.
    src = sqlite3.connect(source, timeout=30)
    try:
        dst = sqlite3.connect(partial)
        try:
            src.backup(dst)  # all pages in one step: one read transaction, one consistent state
            dst.execute("PRAGMA journal_mode=DELETE").fetchall()  # one file, no -wal beside it
        except sqlite3.Error as exc:
            raise _error(exc, source, partial) from exc
        finally:
            dst.close()
    finally:
        src.close()


def _check(partial: Path) -> tuple[int, int, int]:
    conn = sqlite3.connect(partial)
    try:
        problems = [r[0] for r in conn.execute("PRAGMA integrity_check").fetchall()]
        if problems != ["ok"]:
            raise StorageError(
                f"the backup failed its integrity check ({'; '.join(problems[:3])}); the source "
                "may be damaged: run `kit doctor`"
            )
        counts = tuple(
            int(conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])
            for table in ("messages", "facts", "days")
        )
    except sqlite3.Error as exc:
        raise storage_error(exc, partial) from exc
    finally:
        conn.close()
    return counts  # type: ignore[return-value]


def _error(exc: sqlite3.Error, source: Path, partial: Path) -> StorageError:
    if "full" in str(exc):
        return StorageError(
            f"{partial.parent}: the disk is full, so the backup could not be written; free "
            "some space there (the database itself is untouched)"
        )
    return storage_error(exc, source)
