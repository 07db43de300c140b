"""Where `kit export -o` and `kit backup` write: one rule for both.

The owner's whole memory goes into these files, often in a shared folder, so:
- an existing file (or symlink) at the target is never replaced unless `--force` is given;
- the file is built beside the target as `<name>.partial`, created with O_EXCL|O_NOFOLLOW
  and mode 0600 (a planted file or symlink there is refused, never followed);
- it gets its name only when complete, synced to disk: by a hard link that fails if the target
  appeared meanwhile, or, with `--force`, an atomic rename over it (a symlink there is
  replaced, not followed). An interrupted write leaves no target and removes its partial file.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

from kit.errors import InputError, StorageError
from kit.files import os_error, publish

_NEW = os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_WRONLY | os.O_CLOEXEC


def check_target(path: Path, *, force: bool) -> None:
    """Refuse, before any work is done, a target that cannot or must not be written."""
    if path.is_dir():
        raise InputError(f"{path}: is a directory; give a file name, e.g. {path / 'kit.json'}")
    if not path.parent.is_dir():
        raise InputError(f"{path.parent}: no such directory; create it first")
    if os.path.lexists(path) and not force:
        raise InputError(
            f"{path}: already exists; choose a new name, or pass --force to replace it"
        )


def partial_path(target: Path) -> Path:
    return target.with_name(target.name + ".partial")


@contextlib.contextmanager
def private_file(target: Path, *, force: bool) -> Iterator[int]:
    """A new owner-only file that appears at `target` whole, or not at all. Yields its open
    descriptor (the caller writes through it, or through the `.partial` path beside it)."""
    check_target(target, force=force)
    partial = partial_path(target)
    if force:
        with contextlib.suppress(FileNotFoundError):
            partial.unlink()  # a leftover (or a planted symlink) goes; it is never followed
    try:
        fd = os.open(partial, _NEW, 0o600)
    except FileExistsError as exc:
        raise InputError(
            f"{partial}: left over from an interrupted write; delete it, or pass --force"
        ) from exc
    except OSError as exc:
        raise os_error(exc, partial, "cannot create the file") from exc
    try:
        yield fd
        os.fchmod(fd, 0o600)
        os.fsync(fd)
        _same_file(partial, fd)
        publish(partial, target, replace=force)
    except FileExistsError as exc:
        raise InputError(
            f"{target}: appeared while it was being written; choose a new name, or pass --force"
        ) from exc
    except OSError as exc:
        raise os_error(exc, target, "cannot write the file") from exc
    finally:
        os.close(fd)
        with contextlib.suppress(FileNotFoundError):
            partial.unlink()


def _same_file(partial: Path, fd: int) -> None:
    """The name still points at the file we created (nobody swapped it while we wrote)."""
    ours, named = os.fstat(fd), os.lstat(partial)
    if (ours.st_dev, ours.st_ino) != (named.st_dev, named.st_ino):
        raise StorageError(f"{partial}: was replaced by someone else while being written")
