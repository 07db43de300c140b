"""How the PostgreSQL store waits out a dropped connection (kit/store/postgres/database.py):
a pause between tries that doubles from FIRST_PAUSE to LONGEST_PAUSE, for up to
RECONNECT_SECONDS, after which the caller hears that the server is gone.

The time and the pauses come from `Pauses`, the event loop's own by default. Tests hold the
pauses themselves and move the time only by them: how long an outage lasts is then what the
test says, never how fast a loaded machine runs.
"""

from __future__ import annotations

import asyncio
from typing import Protocol

RECONNECT_SECONDS = 15.0  # how long reads and new transactions wait for a server to return
FIRST_PAUSE = 0.1
LONGEST_PAUSE = 2.0


class Pauses(Protocol):
    def time(self) -> float:
        """Seconds on a monotonic clock."""
        ...

    async def sleep(self, seconds: float) -> None: ...


class LoopPauses:
    """The running event loop's clock and sleep."""

    def time(self) -> float:
        return asyncio.get_running_loop().time()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)
