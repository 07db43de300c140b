"""A TCP proxy in front of the test PostgreSQL server that a test can cut: the server "goes
away" (every connection drops, new ones are refused) and comes back, without stopping the
server the rest of the session shares."""

from __future__ import annotations

import asyncio
import contextlib
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
