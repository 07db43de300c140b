"""Another process holding the database's write lock (as a second Kit or a sqlite3 shell would)."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

_HOLD_LOCK = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
sys.stdin.read()
conn.execute("ROLLBACK")
"""


@asynccontextmanager
async def write_lock_held(path: Path) -> AsyncIterator[None]:
    """A separate process holds BEGIN EXCLUSIVE on `path` until the block ends."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        _HOLD_LOCK,
        str(path),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
    )
    try:
        assert proc.stdout is not None
        assert (await proc.stdout.readline()).strip() == b"locked"
        yield
    finally:
        await proc.communicate(b"")
