"""`kit backup`: a consistent copy of the database while Kit (or the daemon) keeps writing.

SQLite's online backup API copies every page inside one read transaction; in WAL mode that
read never blocks writers and sees one committed state, so the copy is consistent without
stopping anything. The copy is written beside the target, checked with `PRAGMA
integrity_check`, made a self-contained single file (journal mode DELETE), and only then
renamed into place. It is readable by the owner alone (0600).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from kit.errors import InputError, NotFound, StorageError
from kit.memory.db import storage_error


@dataclass(frozen=True)
class BackupResult:
    path: Path
    size_bytes: int
    messages: int
    facts: int
    days: int


def backup_target(target: Path, now: datetime) -> Path:
    """A directory gets a dated file name; an existing file is never overwritten."""
    if target.is_dir():
        target = target / f"kit-backup-{now.strftime('%Y%m%d-%H%M%S')}.db"
    if target.exists():
        raise InputError(f"{target}: already exists; choose a new name (a backup never overwrites)")
    if not target.parent.is_dir():
        raise InputError(f"{target.parent}: no such directory; create it first")
    return target


def backup_database(source: Path, target: Path) -> BackupResult:
    """Copy `source` to `target` (blocking: run it with `asyncio.to_thread`)."""
    if not source.exists():
        raise NotFound(f"{source}: there is no database here yet, so nothing to back up")
    partial = target.with_name(target.name + ".partial")
    try:
        os.close(os.open(partial, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    except FileExistsError as exc:
        raise InputError(
            f"{partial}: left over from an interrupted backup; delete it and try again"
        ) from exc
    except OSError as exc:
        raise StorageError(f"{partial}: cannot create the backup file ({exc.strerror})") from exc
    try:
        _copy(source, partial)
        result = _check(partial)
        os.replace(partial, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            partial.unlink()
        raise
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
