"""Where Kit writes on disk: folders only the owner can use, files that appear whole.

The data directory (and the folders Kit makes in it) is created owner-only, and refused when
someone else could write to it: Kit holds the owner's private memory there, and a directory
others can write to lets them swap the database, plant a symlink where Kit writes, or squat
the control socket. Kit never changes the permissions of a directory it did not create (it
could be a shared one, like /tmp): it names the problem and the fix instead. Every command
checks the data directory when it reads its settings (`check_private_dir`); whatever creates
a folder uses `private_dir`.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from pathlib import Path

from kit.errors import ConfigError, StorageError


def check_private_dir(path: Path) -> None:
    """Raise a ConfigError if `path` exists and is not a directory that only we can write to.
    A missing directory is fine: it is created owner-only when first needed."""
    try:
        info = path.stat()
    except FileNotFoundError:
        return
    except OSError as exc:
        raise StorageError(
            f"{path}: cannot use this directory ({exc.strerror}); "
            "choose another with --data-dir or KIT_DATA_DIR"
        ) from exc
    if not stat.S_ISDIR(info.st_mode):
        raise ConfigError(
            f"{path}: is not a directory; choose another data directory with --data-dir or "
            "KIT_DATA_DIR"
        )
    if info.st_uid != os.getuid():
        raise ConfigError(
            f"{path}: this directory belongs to another user (uid {info.st_uid}), so Kit will "
            "not keep your memory there; choose your own with --data-dir or KIT_DATA_DIR"
        )
    if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        raise ConfigError(
            f"{path}: other users can write to this directory (mode "
            f"{stat.S_IMODE(info.st_mode):o}), so Kit will not keep your memory there; run "
            f"`chmod 700 {path}` or choose another with --data-dir or KIT_DATA_DIR"
        )


def private_dir(path: Path) -> Path:
    """`path` as a directory only we can use: created 0700 if missing (with any missing parents,
    also 0700), else checked as `check_private_dir` does. Returns `path`."""
    created = False
    try:
        for folder in reversed([p for p in (path, *path.parents) if not p.exists()]):
            try:
                folder.mkdir(mode=0o700)
                created = folder == path
            except FileExistsError:
                pass  # made meanwhile by another Kit: checked below like any existing one
    except OSError as exc:
        raise StorageError(
            f"{path}: cannot create the data directory ({exc.strerror}); "
            "choose another with --data-dir or KIT_DATA_DIR"
        ) from exc
    if not created:
        check_private_dir(path)
    return path


def publish(partial: Path, target: Path, *, replace: bool = False) -> None:
    """Give the finished file `partial` its name `target` in one step. Never overwrites unless
    `replace` (then atomically, and a symlink at `target` is replaced, not followed): a hard
    link fails if `target` exists, even if it appeared a moment ago."""
    if replace:
        os.replace(partial, target)
        return
    try:
        os.link(partial, target)
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP):
            raise
        # A file system without hard links (FAT): check, then rename (a narrow race).
        if os.path.lexists(target):
            raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), str(target)) from exc
        os.rename(partial, target)
        return
    with contextlib.suppress(FileNotFoundError):
        partial.unlink()


# Below this much free space, a write error is taken to be the full disk it most likely is
# (SQLite reports a full disk while it grows its shared-memory file as a plain "disk I/O error").
_NEARLY_FULL_BYTES = 1 << 20


def disk_full(path: Path) -> bool:
    """Whether the file system holding `path` (or its nearest existing parent) is (nearly) full."""
    for place in (path, *path.parents):
        try:
            info = os.statvfs(place)
        except OSError:
            continue
        return info.f_bavail * info.f_frsize < _NEARLY_FULL_BYTES
    return False


def os_error(exc: OSError, path: Path, doing: str) -> StorageError:
    """An OSError from writing Kit's files, as one line naming the place and the fix."""
    if exc.errno in (errno.ENOSPC, errno.EDQUOT) or disk_full(path):
        return StorageError(
            f"{path}: {doing}: the disk is full; free some space there and try again "
            "(nothing was half-written)"
        )
    if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return StorageError(
            f"{path}: {doing}: not writable ({exc.strerror}); check that the data directory "
            "is yours and writable, or choose another with --data-dir or KIT_DATA_DIR"
        )
    return StorageError(f"{path}: {doing} ({exc.strerror or exc})")
