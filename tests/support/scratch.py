"""Where the tests keep their files: in memory (/dev/shm) when the machine has room there.

Almost every test opens a store that it throws away a moment later: a SQLite file, or a
database the test PostgreSQL copies from its template. On a disk, their writes and fsyncs are
most of the suite's waiting (a CREATE DATABASE took 0.31 s on this machine's disk, 0.02 s in
memory), and a thrown-away store needs no durability. So pytest's `tmp_path` and the test
PostgreSQL's folder go to a tmpfs when there is one with room; otherwise (a container's 64 MB
/dev/shm, macOS) the usual temporary folder. KIT_TEST_TMPDIR names a folder instead.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

TMPFS = Path("/dev/shm")
ROOM = 2 * 2**30  # a whole run's files are ~60 MB; this leaves room for a runaway test
OVERRIDE = "KIT_TEST_TMPDIR"


def scratch_folder() -> Path | None:
    """The folder for the tests' temporary files, or None for the system's default."""
    given = os.environ.get(OVERRIDE, "").strip()
    if given:
        return Path(given)
    try:
        if TMPFS.is_dir() and os.access(TMPFS, os.W_OK) and shutil.disk_usage(TMPFS).free >= ROOM:
            return TMPFS
    except OSError:
        pass
    return None


def use_scratch_folder() -> None:
    """Make `tempfile` (and so pytest's tmp_path and tests/support/postgres.py) use it. Runs
    when the root conftest is imported, before pytest picks its base temporary folder (and
    xdist hands the workers theirs)."""
    folder = scratch_folder()
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
        tempfile.tempdir = str(folder)
