"""A TCP proxy in front of the test PostgreSQL server that a test can cut: the server "goes
away" (every connection drops, new ones are refused) and comes back, without stopping the
server the rest of the session shares. And the store's reconnect pauses as the test's to hold
(`FakePauses`), so an outage lasts as long as the test says, whatever the load."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from pathlib import Path


class Proxy:
    def __init__(self, target: Path | tuple[str, int]) -> None:
        self._target = target  # the server's unix socket, or its host and port
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self.up = True
        self.refused = 0
        self.refusal = asyncio.Event()  # set when a connection was refused while cut
        self.port = 0

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]

    def url(self, database: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def cut(self) -> None:
        """The server goes away: open connections drop, new ones are refused."""
        self.up = False
        self.refusal.clear()
        for writer in list(self._writers):
            writer.transport.abort()
        self._writers.clear()

    def restore(self) -> None:
        self.up = True

    async def close(self) -> None:
        self.cut()
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, OSError):
                await task

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if not self.up:
            self.refused += 1
            self.refusal.set()
            writer.transport.abort()
            return
        if isinstance(self._target, Path):
            up_reader, up_writer = await asyncio.open_unix_connection(str(self._target))
        else:
            up_reader, up_writer = await asyncio.open_connection(*self._target)
        self._writers |= {writer, up_writer}
        for source, sink in ((reader, up_writer), (up_reader, writer)):
            task = asyncio.create_task(self._pipe(source, sink))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _pipe(self, source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
        try:
            while data := await source.read(65536):
                sink.write(data)
                await sink.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            sink.transport.abort()
            self._writers.discard(sink)


class FakePauses:
    """The PostgreSQL store's reconnect pauses (kit/store/postgres/backoff.py `Pauses`): each
    one asked for is recorded, and its time passes on this clock only (so no load uses up the
    reconnect window). Not held, a pause ends at once; after `hold()`, it lasts until the test
    calls `release()` (the pauses asked so far end) or `let_go()` (these and all later ones)."""

    def __init__(self) -> None:
        self.asked: list[float] = []  # the seconds of each pause, in the order asked
        self.now = 0.0
        self._held = False
        self._waiting: list[asyncio.Future[None]] = []
        self._changed = asyncio.Condition()

    def time(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.asked.append(seconds)
        async with self._changed:
            self._changed.notify_all()
        if self._held:
            waiting = asyncio.get_running_loop().create_future()
            self._waiting.append(waiting)
            await waiting
        self.now += seconds
        await asyncio.sleep(0)

    async def until(self, condition: Callable[[list[float]], bool]) -> None:
        """Once `condition(asked)` holds."""
        async with self._changed:
            await self._changed.wait_for(lambda: condition(self.asked))

    def hold(self) -> None:
        self._held = True

    def release(self) -> None:
        for waiting in self._waiting:
            if not waiting.done():
                waiting.set_result(None)
        self._waiting.clear()

    def let_go(self) -> None:
        self._held = False
        self.release()
