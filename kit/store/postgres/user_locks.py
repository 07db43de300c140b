"""One user's turns in order across workers: a PostgreSQL advisory lock per user.

A turn holds `pg_advisory_lock(USER_LOCKS, hashtext(user_id))` from before the owner's message
is stored until its reply is, on a connection of its own: a session lock, because a turn is
several transactions with model calls between them. Another worker's turn for the same user
waits in the server for it (in arrival order: PostgreSQL queues lock waiters); other users'
turns go on side by side. A worker that dies drops its connection, and the server releases
the lock with it, so nothing is left held.

The locks live on a pool of their own: a turn holding one must never take the connection its
own reads need. Inside one process an asyncio lock per user comes first, so each user waits
on at most one connection per worker; `LOCK_CONNECTIONS` bounds the users whose turns run at
once in one worker (the rest wait for a connection).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

log = logging.getLogger(__name__)

USER_LOCKS = 0x4B17  # the advisory locks' first key: Kit's per-user locks (int4)
LOCK_CONNECTIONS = 16

# Opens the locks' own pool (kit/store/postgres/database.py: the one asyncpg import).
PoolFactory = Callable[[], Awaitable[Any]]


class UserLocks:
    def __init__(self, open_pool: PoolFactory) -> None:
        self._open_pool = open_pool
        self._pool: Any = None
        self._opening = asyncio.Lock()
        self._local: dict[str, tuple[asyncio.Lock, int]] = {}

    @asynccontextmanager
    async def hold(self, user_id: str) -> AsyncIterator[None]:
        """Until the block ends, no other turn for `user_id` runs, here or in another worker."""
        local, waiting = self._local.get(user_id, (asyncio.Lock(), 0))
        self._local[user_id] = (local, waiting + 1)
        try:
            async with local, self._locked(user_id):  # first come, first served in-process
                yield
        finally:
            local, waiting = self._local[user_id]
            if waiting == 1:
                del self._local[user_id]  # users seen once do not pile up
            else:
                self._local[user_id] = (local, waiting - 1)

    @asynccontextmanager
    async def _locked(self, user_id: str) -> AsyncIterator[None]:
        pool = await self._open()
        conn = await pool.acquire()
        clean = False
        try:
            await conn.execute("SELECT pg_advisory_lock($1, hashtext($2))", USER_LOCKS, user_id)
            yield
            await conn.execute("SELECT pg_advisory_unlock($1, hashtext($2))", USER_LOCKS, user_id)
            clean = True
        finally:
            if not clean:
                # Cancelled or broken mid-way: the lock may be held. Ending the session is
                # the one sure way to let it go.
                try:
                    conn.terminate()
                except Exception:  # the server went away: the session, and its lock, with it
                    log.debug("user lock: its connection was gone already", exc_info=True)
            await pool.release(conn)  # a connection the pool took back already is let be

    async def _open(self) -> Any:
        async with self._opening:
            if self._pool is None:
                self._pool = await self._open_pool()
            return self._pool

    async def close(self) -> None:
        if self._pool is not None:
            pool, self._pool = self._pool, None
            try:
                await asyncio.wait_for(pool.close(), 10)
            except Exception:  # a server gone away: drop the connections
                pool.terminate()
