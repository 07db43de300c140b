"""`kit restore`: a restored database put in place of kit.db, so that nothing old can damage it.

Copying a backup over kit.db by hand is not enough: after a crash, kit.db-wal and kit.db-shm
beside it still hold the old database's last changes, and SQLite replays them onto whatever
file now carries the name, so the restored file fails its integrity check. So a restore:

1. stages the backup beside kit.db (a copy in a temporary file, synced) and checks the copy:
   SQLite's full integrity check, and a schema this Kit knows (not one from a newer Kit);
   then rebuilds it: its rows go into a fresh database Kit's migrations make, and nothing
   else of it (rebuild.py; stage.py does the staging, and a `kit export` the same way);
2. moves the current kit.db, kit.db-wal and kit.db-shm aside under one dated name
   (`kit.db.before-restore-YYYYmmdd-HHMMSS` with its `-wal` and `-shm`: together they are
   still the database as it was, openable as it was). Nothing is deleted;
3. renames the staged file into place (atomic) and syncs the folder;
4. checks the installed file again (integrity, schema, the same counts); if that fails, the
   old files are put back and the restore is undone.

The caller holds the data directory's and the SQLite file's locks (no Kit is running).
Blocking throughout: run it with `asyncio.to_thread` (the export path is async).
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import sqlite3
import stat
import tempfile
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from kit.errors import InputError, NotFound, StorageError
from kit.files import os_error
from kit.forget.receipt import Receipt, SaltOf, from_document
from kit.store.dbfile import database_file_problem
from kit.store.migrations import MIGRATIONS

_PARTS = ("", "-wal", "-shm")  # a SQLite database in WAL mode is these three files
_COPY_CHUNK = 1 << 20


@dataclass(frozen=True)
class Checked:
    """What a database file holds, as checked: its schema and main counts."""

    schema: int  # migrations applied
    known: int  # migrations this Kit knows
    messages: int
    facts: int
    days: int

    def describe(self) -> str:
        return f"{self.messages:,} messages, {self.facts:,} facts, {self.days:,} days"


@dataclass(frozen=True)
class Installed:
    database: Path
    checked: Checked
    aside: tuple[Path, ...]  # the previous kit.db and its -wal/-shm, as they are named now


def stage_copy(backup: Path, database: Path) -> Path:
    """A synced copy of the file `backup` beside `database` (a temporary name). The backup is
    only read: it is never opened with SQLite, which could write its -wal/-shm."""
    source = _regular_file(backup)
    if source.resolve() == database.resolve():
        raise InputError(f"{backup}: this is the database itself; give a backup file")
    wal = source.with_name(source.name + "-wal")
    if wal.exists() and wal.stat().st_size:
        raise InputError(
            f"{backup}: a write-ahead log ({wal.name}) beside it holds changes that are not in "
            "the file, so it is not a whole backup; give a file made by `kit backup` (or "
            "open this one once with sqlite3 to fold its log in, then try again)"
        )
    staged = new_staging(database)
    try:
        try:
            fd = os.open(source, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        except OSError as exc:
            raise InputError(f"{backup}: cannot read the file ({exc.strerror})") from exc
        with os.fdopen(fd, "rb") as src, staged.open("r+b") as out:
            if not stat.S_ISREG(os.fstat(src.fileno()).st_mode):  # swapped since we looked
                raise InputError(f"{backup}: not a regular file; give a backup file")
            while chunk := src.read(_COPY_CHUNK):
                out.write(chunk)
            out.flush()
            os.fsync(out.fileno())
    except BaseException:
        discard(staged)
        raise
    return staged


def new_staging(database: Path) -> Path:
    """An empty owner-only file beside `database`, to build the restored database in."""
    try:
        fd, name = tempfile.mkstemp(prefix=f".{database.name}-restore-", dir=database.parent)
    except OSError as exc:
        raise os_error(exc, database.parent, "cannot write beside the database") from exc
    os.close(fd)
    return Path(name)


def kept_receipts(
    database: Path, user_ids: set[str] | None, salt_of: SaltOf | None
) -> list[tuple[str, Receipt]]:
    """(user id, receipt) for the forget receipts of `user_ids` (None: every user) in the
    memory a restore replaces; none when it has none or cannot be read (a restore is often of
    a damaged file: the ledger, kit/forget/ledger.py, still has them)."""
    if not database.is_file():
        return []
    # Read as it is, creating nothing beside it: with no -wal, as an immutable file (a
    # read-only connection would leave a -wal and -shm behind, to be moved aside with it).
    wal = database.with_name(database.name + "-wal").exists()
    try:
        mode = "mode=ro" if wal else "immutable=1"
        conn = sqlite3.connect(f"{database.resolve().as_uri()}?{mode}", uri=True)
        try:
            rows = conn.execute(
                "SELECT user_id, receipt_id, document FROM forget_receipts"
            ).fetchall()
        finally:
            conn.close()
    except sqlite3.Error:
        return []
    found: list[tuple[str, Receipt]] = []
    for user, rid, document in rows:
        if user_ids is None or user in user_ids:
            with contextlib.suppress(InputError, ValueError):
                receipt = from_document(json.loads(document), f"forget receipt {rid}", salt_of)
                found.append((str(user), receipt))
    return found


def snapshot(database: Path, target: Path) -> None:
    """A consistent copy of the live `database` (its write-ahead log folded in) at `target`,
    read without changing a byte of it (a read-only connection checkpoints nothing)."""
    wal = database.with_name(database.name + "-wal").exists()
    mode = "mode=ro" if wal else "immutable=1"  # as kept_receipts: nothing made beside it
    try:
        src = sqlite3.connect(f"{database.resolve().as_uri()}?{mode}", uri=True)
        try:
            dst = sqlite3.connect(target)
            try:
                src.backup(dst)
                dst.execute("PRAGMA journal_mode=DELETE").fetchall()
            finally:
                dst.close()
        finally:
            src.close()
    except sqlite3.Error as exc:
        raise InputError(f"{database}: cannot be read ({exc})") from exc


def discard(staged: Path) -> None:
    for part in _PARTS:
        with contextlib.suppress(FileNotFoundError):
            Path(f"{staged}{part}").unlink()


def check(path: Path, label: str) -> Checked:
    """Refuse, saying why, a file that is not a whole Kit database this Kit can run on:
    not SQLite, failing SQLite's full integrity check, no Kit schema, or a newer schema."""
    problem = database_file_problem(path)
    if problem is not None:
        raise InputError(f"{label}: {_backup_problem(problem)}")
    try:
        conn = sqlite3.connect(path)  # a staged copy, or kit.db under our locks
    except sqlite3.Error as exc:
        raise InputError(f"{label}: cannot be opened as a database ({exc})") from exc
    try:
        conn.execute("PRAGMA trusted_schema = OFF")  # nothing its schema defines runs here
        problems = [str(r[0]) for r in conn.execute("PRAGMA integrity_check(5)")]
        if problems != ["ok"]:
            text = " ".join("; ".join(problems).replace("*** in database main ***", "").split())
            raise InputError(
                f"{label}: fails SQLite's integrity check ({text[:200]}); it cannot be restored: "
                "try an older backup"
            )
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if "schema_migrations" not in tables:
            raise InputError(f"{label}: a SQLite database, but not Kit's (no schema_migrations)")
        names = [str(r[0]) for r in conn.execute("SELECT name FROM schema_migrations")]
        known = [m.name for m in MIGRATIONS]
        newer = sorted(set(names) - set(known))
        if newer:
            raise InputError(
                f"{label}: made by a newer Kit (its schema has {len(names)} migrations, this Kit "
                f"knows {len(known)}; new to this one: {', '.join(newer[:3])}); upgrade Kit "
                "first, then restore"
            )
        counts = [
            int(conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]) if t in tables else 0
            for t in ("messages", "facts", "days")
        ]
    except sqlite3.DatabaseError as exc:  # so damaged that the check itself cannot read it
        raise InputError(
            f"{label}: fails SQLite's integrity check ({exc}); it cannot be restored: try an "
            "older backup"
        ) from exc
    finally:
        conn.close()
    return Checked(len(names), len(known), *counts)


def _backup_problem(problem: str) -> str:
    if problem.startswith("not a SQLite database"):
        return (
            "not a SQLite database, so not a backup made by `kit backup` (a `kit export` JSON "
            "file is restored the same way, by `kit restore FILE`)"
        )
    return f"{problem}; it cannot be restored: try an older backup"


def install(staged: Path, database: Path, checked: Checked, now: datetime) -> Installed:
    """Move the current database files aside, put `staged` (checked as `checked`) in their
    place, and check it there. On any failure the previous files are put back."""
    aside_base = aside_name(database, now)
    moved: list[tuple[Path, Path]] = []  # (original, aside)
    linked = False
    try:
        if database.exists():
            # A hard link first: kit.db keeps its name until the new file replaces it, so no
            # moment (a crash of this command included) leaves no database at all.
            try:
                os.link(database, aside_base)
                linked = True
            except OSError:
                os.rename(database, aside_base)
            moved.append((database, aside_base))
        for part in _PARTS[1:]:
            current, aside = Path(f"{database}{part}"), Path(f"{aside_base}{part}")
            if current.exists():
                os.rename(current, aside)
                moved.append((current, aside))
        os.chmod(staged, 0o600)
        os.replace(staged, database)
        _sync_dir(database.parent)
    except OSError as exc:
        _put_back(moved, database, linked)
        discard(staged)
        raise os_error(exc, database, "cannot put the backup in place") from exc
    try:
        again = check(database, str(database))
        if again != checked:
            raise InputError(
                f"{database}: holds {again.describe()} once in place, not the "
                f"{checked.describe()} checked before"
            )
    except InputError as exc:
        failed = Path(f"{database}.failed-restore-{now:%Y%m%d-%H%M%S}")
        os.replace(database, failed)
        _put_back(moved, database, linked=False)
        raise StorageError(
            f"the restored file did not check out in place ({exc}); the previous database is "
            f"back as it was, and the failed copy is {failed}. Check the disk, then try again"
        ) from exc
    return Installed(database, checked, tuple(aside for _, aside in moved))


def aside_name(database: Path, now: datetime) -> Path:
    """`kit.db.before-restore-YYYYmmdd-HHMMSS` (with -2, -3... if taken), for the file and,
    with their suffixes, its -wal and -shm."""
    base = f"{database}.before-restore-{now:%Y%m%d-%H%M%S}"
    for n in itertools.count(1):
        name = base if n == 1 else f"{base}-{n}"
        if not any(os.path.lexists(f"{name}{part}") for part in _PARTS):
            return Path(name)
    raise AssertionError("unreachable")  # pragma: no cover


def _put_back(moved: list[tuple[Path, Path]], database: Path, linked: bool) -> None:
    """Undo the moves: each aside file back under its own name."""
    for original, aside in reversed(moved):
        if original == database and linked and database.exists():
            with contextlib.suppress(OSError):
                aside.unlink()  # kit.db itself never moved: the link goes
            continue
        with contextlib.suppress(OSError):
            os.replace(aside, original)


def _regular_file(path: Path) -> Path:
    try:
        info = path.stat()
    except FileNotFoundError:
        raise NotFound(
            f"{path}: no such file; give the path of a backup (`kit backup` made it) or an "
            "export (`kit export`)"
        ) from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read the file ({exc.strerror})") from exc
    if stat.S_ISDIR(info.st_mode):
        raise InputError(f"{path}: is a directory; give the backup file inside it")
    if not stat.S_ISREG(info.st_mode):
        raise InputError(f"{path}: not a regular file (a pipe or a device); give a backup file")
    return path


def _sync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
