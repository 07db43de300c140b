"""`Follower`: the engine of a front-end that stays open for hours (the TUI), across the daemon
stopping and coming back.

It starts as `connect_to` does: the daemon over its socket when one holds the data directory,
else Kit in this process. When the daemon goes away (seen at once, because the daemon closes an
idle connection held open for that; or by a call that fails), the follower is *lost*: calls
fail at once with one clear reason, and `recover()`

- reconnects as soon as a daemon answers again (a restart by systemd, or by hand);
- when none has answered for `fallback_after` seconds, runs Kit in this process, but only after
  taking the data directory's lock: never a second writer beside a daemon;
- while another Kit holds the lock (a daemon still loading its model, another `kit tui`),
  keeps waiting for it.

Kit running here holds the lock until the front-end closes, so a daemon started meanwhile is
refused with this process's pid: close the front-end first (it then uses the daemon again
when reopened).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from kit.config import Settings
from kit.daemon.connect import READY_TIMEOUT, connect_to, engine_here
from kit.daemon.lock import DataDirLock
from kit.daemon.paths import socket_path
from kit.daemon.socket_client import DaemonUnavailable, SocketClient
from kit.operations import Operation, Relay
from kit.surface import KitClient

if TYPE_CHECKING:
    from kit.clock import Clock
    from kit.embed.base import Embedder
    from kit.llm.base import LLM

T = TypeVar("T")
Mode = Literal["daemon", "standalone", "lost"]

# Long enough for systemd's restart (RestartSec=5 in contrib/kit.service) and a daemon's start,
# so a crash does not end with this front-end holding the data directory the daemon wants.
FALLBACK_AFTER = 15.0
MAX_POLL = 2.0  # seconds between looks for a daemon while lost, at most
CHECK_TIMEOUT = 5.0  # a daemon that takes longer than this to say its status is not answering


class Follower(Relay):
    """A `KitClient` that follows the data directory's engine. Open with `Follower.open`."""

    def __init__(
        self,
        settings: Settings,
        stack: AsyncExitStack,
        *,
        user: str | None,
        background: bool,
        fallback_after: float,
        llm: LLM | None,
        embedder: Embedder | None,
        clock: Clock | None,
    ) -> None:
        self._settings = settings
        self._stack = stack  # engines run here close with the follower
        self._user = user
        self._background = background
        self.fallback_after = fallback_after
        self._fakes = (llm, embedder, clock)
        self._client: KitClient | None = None
        self._lost = asyncio.Event()
        self.mode: Mode = "lost"

    @classmethod
    @asynccontextmanager
    async def open(
        cls,
        settings: Settings,
        *,
        user: str | None = None,
        background: bool = True,
        fallback_after: float = FALLBACK_AFTER,
        ready_timeout: float = READY_TIMEOUT,
        llm: LLM | None = None,
        embedder: Embedder | None = None,
        clock: Clock | None = None,
    ) -> AsyncIterator[Follower]:
        """Connect as `connect_to` does (and fail as it does); close what was opened here."""
        async with AsyncExitStack() as stack:
            follower = cls(
                settings,
                stack,
                user=user,
                background=background,
                fallback_after=fallback_after,
                llm=llm,
                embedder=embedder,
                clock=clock,
            )
            first = connect_to(
                settings,
                user=user,
                background=background,
                ready_timeout=ready_timeout,
                llm=llm,
                embedder=embedder,
                clock=clock,
            )
            follower._use(await stack.enter_async_context(first))
            yield follower

    @property
    def lost_reason(self) -> str:
        return (
            "the Kit daemon stopped; waiting for it to come back (Kit runs in this process "
            f"if it has not within {self.fallback_after:.0f}s)"
        )

    # -- following the engine -----------------------------------------------------------------

    async def wait_lost(self) -> None:
        """Return once the engine is gone. Kit in this process goes only when we do."""
        while (client := self._client) is not None:
            if not isinstance(client, SocketClient):
                await asyncio.Event().wait()  # until cancelled (the front-end closes)
                return
            closed = asyncio.ensure_future(client.wait_closed())
            flagged = asyncio.ensure_future(self._lost.wait())
            try:
                await asyncio.wait({closed, flagged}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for task in (closed, flagged):
                    task.cancel()
                await asyncio.gather(closed, flagged, return_exceptions=True)
            if self._client is not client:
                continue
            if await _answers(client):
                await asyncio.sleep(MAX_POLL)  # it closed an idle connection but lives on
            else:
                self._mark_lost(client)

    async def recover(self) -> Mode:
        """After a loss: the daemon again as soon as one answers, else (after
        `fallback_after` seconds, and only with the lock) Kit in this process."""
        loop = asyncio.get_running_loop()
        started = loop.time()
        delay = 0.05
        while self._client is None:
            path = socket_path(self._settings.data_dir)
            probe = SocketClient(path, user=self._user)  # type: ignore[abstract]  # generated ops
            if await _answers(probe):
                self._use(probe)
            elif loop.time() - started >= self.fallback_after:
                lock = DataDirLock(self._settings.data_dir)
                if lock.try_acquire("standalone") is None:
                    llm, embedder, clock = self._fakes
                    engine = engine_here(
                        self._settings,
                        lock,
                        user=self._user,
                        background=self._background,
                        llm=llm,
                        embedder=embedder,
                        clock=clock,
                    )
                    self._use(await self._stack.enter_async_context(engine))
            if self._client is None:
                await asyncio.sleep(delay)
                delay = min(delay * 2, MAX_POLL)
        return self.mode

    def _use(self, client: KitClient) -> None:
        self._client = client
        self.mode = "daemon" if isinstance(client, SocketClient) else "standalone"
        self._lost.clear()

    def _mark_lost(self, client: KitClient) -> None:
        if self._client is client:
            self._client = None
            self.mode = "lost"
            self._lost.set()

    async def _call(self, op: Callable[[KitClient], Awaitable[T]]) -> T:
        client = self._client
        if client is None:
            raise DaemonUnavailable(self.lost_reason)
        try:
            return await op(client)
        except DaemonUnavailable:
            self._mark_lost(client)
            raise

    async def relay(self, op: Operation, arguments: dict[str, Any]) -> Any:
        """Every operation (generated from kit/surface.py) goes to the engine of the moment."""
        return await self._call(lambda client: getattr(client, op.name)(**arguments))


async def _answers(client: SocketClient) -> bool:
    """Whether a daemon answers on the socket now (its status, within CHECK_TIMEOUT)."""
    try:
        async with asyncio.timeout(CHECK_TIMEOUT):
            await client.status()
    except (DaemonUnavailable, TimeoutError):
        return False
    except Exception:  # shutting down, or a daemon this client cannot read: not usable
        return False
    return True
