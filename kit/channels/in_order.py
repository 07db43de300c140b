"""One at a time per key, in arrival order; different keys side by side.

A chat channel runs each incoming update as its own task. Keyed by chat, this keeps a
person's turns in the order they wrote them while someone else's slow turn (or /rem) holds up
nobody but that person. Every task inside is tracked, so a shutdown can cancel what is left.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
from collections.abc import Awaitable, Hashable
from typing import Any, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")


class InOrderPerKey:
    def __init__(self) -> None:
        # key -> (its lock, how many works hold or wait for it); dropped when none do, so
        # keys seen once (strangers' chats) do not pile up.
        self._locks: dict[Hashable, tuple[asyncio.Lock, int]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()

    @property
    def running(self) -> int:
        """Works started or waiting for their turn."""
        return len(self._tasks)

    async def run(self, key: Hashable, work: Awaitable[T]) -> T:
        """Await `work` once every earlier work for `key` has finished. asyncio.Lock hands
        over first come, first served, so works for one key run in the order `run` was
        called. If cancelled before its turn, `work` is closed unstarted."""
        lock, holders = self._locks.get(key, (asyncio.Lock(), 0))
        self._locks[key] = (lock, holders + 1)
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        try:
            async with lock:
                return await work
        finally:
            self._tasks.discard(task)
            lock, holders = self._locks[key]
            if holders == 1:
                del self._locks[key]
            else:
                self._locks[key] = (lock, holders - 1)
            if (
                inspect.iscoroutine(work)
                and inspect.getcoroutinestate(work) == inspect.CORO_CREATED
            ):
                work.close()

    async def cancel_all(self) -> int:
        """Cancel every work still running or waiting, and wait for them to end."""
        tasks = set(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        return len(tasks)
