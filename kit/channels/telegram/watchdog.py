"""The long-poll watchdog of the Telegram channel (kit/channels/telegram/channel.py), without
the SDK: a poll answered (updates or an empty timeout) proves the connection works; none for
`stall_after` seconds means it is stuck, and the channel restarts polling."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

Sleep = Callable[[float], Awaitable[None]]


class PollWatchdog:
    """`answered()` is called on every answered long poll; `watch(restart)` runs until
    cancelled. `stall_wait` waits `stall_after` (a seam: a test ends the wait itself instead of
    betting on how fast a loaded machine answers a poll)."""

    def __init__(self, stall_after: float, stall_wait: Sleep = asyncio.sleep) -> None:
        self.stall_after = stall_after
        self._stall_wait = stall_wait
        self._answered = asyncio.Event()

    def answered(self) -> None:
        self._answered.set()

    async def watch(self, restart: Callable[[], Awaitable[None]]) -> None:
        while True:
            if await self._answered_in_time():
                self._answered.clear()
            else:
                await restart()

    async def _answered_in_time(self) -> bool:
        """Whether a long poll is answered before `stall_after` has passed (if both happen at
        once, it has passed: a restart too many is harmless, a stuck poll kept is not)."""
        async with asyncio.TaskGroup() as group:
            answered = group.create_task(self._answered.wait())
            stalled = group.create_task(self._stalled())
            await asyncio.wait({answered, stalled}, return_when=asyncio.FIRST_COMPLETED)
            in_time = not stalled.done()
            answered.cancel()
            stalled.cancel()
        return in_time

    async def _stalled(self) -> None:
        await self._stall_wait(self.stall_after)
