"""One Kit engine per data directory: an `fcntl.flock` on `<data_dir>/kit.pid`; and one per
SQLite file: the same kind of lock on `<file>.lock` beside it, since `storage.url` can point
two data directories at one file (their own locks would not see each other, and two engines
on one file run every job twice; several workers are for PostgreSQL, whose leases share the
work).

The file holds "<pid> <role>" of the holder (role: `daemon`, or `standalone` for an in-process
`kit chat` / `kit tui`), and the SQLite file's lock its data directory after them, so whoever
is refused can be told who holds it. The lock itself
(not the file's existence) is the truth: the kernel drops it when the holder dies, even by
SIGKILL, so a stale file never blocks a restart. A clean release removes the file, while
still holding the lock; whoever opened it just before and locks it just after finds that the
path no longer names what it locked, and starts again on a fresh file (without that check two
processes could each lock a different inode and both believe they hold the data directory).
"""

from __future__ import annotations

import fcntl
import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from kit.errors import KitError
from kit.files import os_error, private_dir

if TYPE_CHECKING:
    from kit.config import Settings

log = logging.getLogger(__name__)

Role = Literal["daemon", "standalone"]
LOCK_NAME = "kit.pid"


@dataclass(frozen=True)
class Holder:
    """Who holds the lock, as far as its file says (pid None: it has not written it yet)."""

    pid: int | None
    role: str
    data_dir: str = ""  # as the holder wrote it ("" from a Kit before it wrote one)

    def describe(self) -> str:
        standalone = "a standalone Kit (kit chat / kit tui / kit mcp)"
        who = "a Kit daemon" if self.role == "daemon" else standalone
        return f"{who} (pid {self.pid})" if self.pid else who

    def how_to_stop(self) -> str:
        stop = f"kill {self.pid}" if self.pid else "stop it"
        if self.role == "daemon":
            stop += " (or `systemctl --user stop kit`)"
        return stop


class AlreadyRunning(KitError):
    """Another Kit engine holds the data directory."""

    exit_code = 2

    def __init__(self, message: str, holder: Holder) -> None:
        super().__init__(message)
        self.holder = holder


class PidFileLock:
    """An flock on `path` for the life of one engine, naming its holder (module docstring)."""

    what = "lock"

    def __init__(self, path: Path, data_dir: Path) -> None:
        self.path = path
        self.data_dir = data_dir
        self._fd: int | None = None

    def try_acquire(self, role: Role) -> Holder | None:
        """Take the lock and write our pid; if someone else holds it, return who (no wait)."""
        if self._fd is not None:
            raise RuntimeError("lock already held by this process")
        private_dir(self.path.parent)
        while True:
            try:
                fd = os.open(
                    self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600
                )
            except OSError as exc:
                raise os_error(exc, self.path, f"cannot take the {self.what}") from exc
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                return self.holder()
            if self._names(fd):
                break
            os.close(fd)  # its holder removed it as it let go: lock the path's new file
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()} {role}{self._whose()}\n".encode(), 0)
            os.fsync(fd)
        except OSError as exc:
            os.close(fd)  # drops the lock again: nothing of ours is left holding it
            raise os_error(exc, self.path, f"cannot take the {self.what}") from exc
        self._fd = fd
        return None

    def _whose(self) -> str:
        """What the file says after the pid and role (the data directory, where not obvious)."""
        return ""

    def holder(self) -> Holder:
        try:
            text = self.path.read_text(encoding="utf-8").rstrip("\n").split(" ", 2)
        except OSError:
            text = []
        pid = int(text[0]) if text and text[0].isdigit() else None
        role = text[1] if len(text) > 1 and text[1] else "daemon"
        return Holder(pid, role, text[2] if len(text) > 2 else "")

    def release(self) -> None:
        """Let go, leaving no file behind (see the module docstring for why that is safe)."""
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        try:
            os.ftruncate(fd, 0)  # a reader between here and close sees "no pid", not ours
            if self._names(fd):
                self.path.unlink()
        except OSError as exc:  # an empty file left behind blocks no one
            log.warning("could not remove %s: %s", self.path, exc.strerror or exc)
        finally:
            os.close(fd)  # closing drops the flock

    def _names(self, fd: int) -> bool:
        """Whether the lock file's path still names the open file `fd`."""
        try:
            on_disk = os.stat(self.path, follow_symlinks=False)
        except FileNotFoundError:
            return False
        held = os.fstat(fd)
        return (on_disk.st_dev, on_disk.st_ino) == (held.st_dev, held.st_ino)


class DataDirLock(PidFileLock):
    """One engine per data directory: `<data_dir>/kit.pid`."""

    what = "data directory's lock"

    def __init__(self, data_dir: Path) -> None:
        super().__init__(data_dir / LOCK_NAME, data_dir)

    def acquire(self, role: Role) -> None:
        """Take the lock or raise `AlreadyRunning` naming the holder's pid."""
        holder = self.try_acquire(role)
        if holder is not None:
            raise AlreadyRunning(
                f"{self.data_dir}: {holder.describe()} is already using this data directory; "
                f"{holder.how_to_stop()} first, or talk to it with `kit chat` / `kit status`",
                holder,
            )


class SqliteFileLock(PidFileLock):
    """One engine per SQLite file, whichever data directory names it: `<file>.lock`."""

    what = "SQLite file's lock"

    def __init__(self, database: Path, data_dir: Path) -> None:
        super().__init__(database.with_name(database.name + ".lock"), data_dir)
        self.database = database

    def _whose(self) -> str:
        return f" {self.data_dir}"

    def acquire(self, role: Role) -> None:
        """Take the lock or raise `AlreadyRunning` naming the holder and its data directory."""
        holder = self.try_acquire(role)
        if holder is not None:
            theirs = f" for the data directory {holder.data_dir}" if holder.data_dir else ""
            raise AlreadyRunning(
                f"{self.database}: {holder.describe()}{theirs} is already using this SQLite "
                f"file, and one SQLite file holds one Kit; {holder.how_to_stop()} first, or "
                f"give {self.data_dir} a storage.url of its own (several workers on one "
                "memory need PostgreSQL)",
                holder,
            )


def store_file_lock(settings: Settings) -> SqliteFileLock | None:
    """The lock an engine takes on its SQLite file beside its data directory's (None on
    PostgreSQL, where workers share the store through leases)."""
    if settings.on_postgres:
        return None
    return SqliteFileLock(settings.database_path, settings.data_dir)
