"""The database file itself, before SQLite opens it: made whole, and checked cheaply on open.

SQLite takes an empty file for an empty database, so a kit.db cut to zero bytes (a copy that
failed, a disk that filled up during `cp`) would quietly become an empty memory, and a file cut
short is only noticed when a read reaches the missing pages. So a new database is made aside
and linked into place with its header already written (Kit never leaves a zero-length kit.db),
and every open first reads the 100-byte header: an empty file, something that is not SQLite,
or a file shorter than its header says is refused with what to do. That costs one stat and one
small read. The full page check (`PRAGMA quick_check`, about 0.3 s for a 260 MB database of
100k messages with their vectors) runs once when the daemon starts and in `kit doctor`, not
on every command.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import tempfile
from pathlib import Path

from kit.errors import StorageError
from kit.files import publish

_MAGIC = b"SQLite format 3\x00"
_HEADER_BYTES = 100


def create_database_file(path: Path) -> None:
    """A new empty database at `path`: mode 0600, WAL mode, header written. Made beside it and
    linked into place; if another Kit made one first, theirs is kept."""
    fd, name = tempfile.mkstemp(prefix=f".{path.name}-new-", dir=path.parent)  # mode 0600
    os.close(fd)
    fresh = Path(name)
    try:
        conn = sqlite3.connect(fresh)
        try:
            conn.execute("PRAGMA journal_mode=WAL").fetchall()  # writes the first page
        finally:
            conn.close()
        with contextlib.suppress(FileExistsError):
            publish(fresh, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            fresh.unlink()


def check_no_stray_wal(path: Path) -> None:
    """Before a new database is made at `path`: refuse if a write-ahead log of an earlier one
    is still beside it (SQLite would replay it onto the new file and damage it)."""
    wal = path.with_name(path.name + "-wal")
    if wal.exists() and wal.stat().st_size:
        raise StorageError(
            f"{path}: the database file is missing but its write-ahead log {wal.name} is still "
            f"there, and a new database beside it would be damaged by it; put the database "
            f"file back, or restore a backup with `kit restore BACKUP` (it keeps the log "
            f"aside), or move {wal.name} and {path.name}-shm out of the folder to start empty"
        )


def check_database_file(path: Path) -> None:
    """Refuse a kit.db that is empty, not SQLite, or shorter than its header says."""
    problem = database_file_problem(path)
    if problem is not None:
        raise StorageError(f"{path}: {problem}; {damaged_fix(path)}")


def damaged_fix(path: Path) -> str:
    """What to do about a damaged kit.db (the file and its -wal/-shm go aside together: a
    write-ahead log left beside another database file is replayed onto it and damages it)."""
    return (
        "restore your latest backup with `kit restore BACKUP` (a file made by `kit backup`, or "
        "a `kit export`); it keeps the damaged file and its -wal/-shm aside. To start with an "
        "empty memory instead, move the file away together with its -wal and -shm, if any "
        f"(mkdir ~/kit-damaged && mv {path} {path}-wal {path}-shm ~/kit-damaged/)"
    )


def database_file_problem(path: Path) -> str | None:
    """Why the file at `path` is not a whole SQLite database ("the database file is empty
    (0 bytes)", "not a SQLite database ...", "cut short ..."), from its size and 100-byte
    header; None when it looks whole (pages are checked by SQLite's integrity check)."""
    size = path.stat().st_size
    wal = path.with_name(path.name + "-wal")
    wal_size = wal.stat().st_size if wal.exists() else 0
    if size == 0:
        if wal_size:
            return None  # made by an older Kit, all its pages still in the WAL: SQLite reads them
        return "the database file is empty (0 bytes)"
    with path.open("rb") as handle:
        header = handle.read(_HEADER_BYTES)
    if len(header) < _HEADER_BYTES or not header.startswith(_MAGIC):
        return "not a SQLite database (damaged or overwritten)"
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(header[28:32], "big")
    # The page count is trusted only when the change counter matches its "valid for" copy,
    # and only without a WAL (a checkpoint cut short may leave the file short; the WAL mends it).
    counted = header[24:28] == header[92:96] and pages > 0
    if counted and not wal_size and size < pages * page_size:
        return f"the database file is cut short ({size:,} of {pages * page_size:,} bytes)"
    return None
