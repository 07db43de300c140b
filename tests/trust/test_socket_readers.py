"""Control-socket clients that never read their answers: each is disconnected once it falls
behind, and what waits for it in the daemon's memory stays bounded, however many answers it
asks for and however many such clients connect. (An attack grew the daemon from 227 MB to
721 MB with clients that only wrote.)"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest

from kit.api import Kit
from kit.client import LocalClient
from kit.clock import FakeClock
from kit.daemon.socket_server import MAX_UNREAD, ControlServer
from kit.memory.messages import NewMessage

CLIENTS = 6
REQUESTS = 60  # each asks for ~0.9 MB: 54 MB per client if the daemon kept it all
HANG_BOUND = 120.0  # turns the old behaviour (served forever at 2 s a line) into a failure


class _Drops(logging.Handler):
    """Sets an event once the server has logged `n` disconnections of non-reading clients."""

    def __init__(self, n: int) -> None:
        super().__init__()
        self.n = n
        self.seen = 0
        self.all_dropped = asyncio.Event()

    def emit(self, record: logging.LogRecord) -> None:
        if "does not read its answers" in record.getMessage():
            self.seen += 1
            if self.seen >= self.n:
                self.all_dropped.set()


@pytest.fixture
async def server(kit: Kit, clock: FakeClock, tmp_path: Path) -> AsyncIterator[ControlServer]:
    started = clock.now() - timedelta(minutes=1)

    def client_for(user: str | None) -> LocalClient:
        return LocalClient(kit, started, user=user, mode="daemon")

    control = ControlServer(
        tmp_path / "kit.sock",
        client_for,
        log_file=tmp_path / "kit.log",
        send_timeout=0.2,  # any value: the test waits for the disconnections, not the clock
    )
    async with asyncio.TaskGroup() as group:
        task = group.create_task(control.run())
        await control.listening.wait()
        yield control
        task.cancel()


async def test_clients_that_never_read_are_disconnected_and_memory_stays_bounded(
    server: ControlServer, kit: Kit, clock: FakeClock
) -> None:
    # A conversation whose history answer is about 0.9 MB.
    conv = await kit.services.messages.conversation("owner", "terminal", "big")
    async with kit.services.db.transaction() as tx:
        await kit.services.messages.insert_many(
            tx, conv, [NewMessage("user", "x" * 9000, clock.now()) for _ in range(100)], "chat"
        )
    line = {"id": 1, "op": "chat_history", "conversation": "big", "limit": 100}
    request = json.dumps(line).encode() + b"\n"
    drops = _Drops(CLIENTS)
    logger = logging.getLogger("kit.daemon.socket_server")
    logger.addHandler(drops)
    writers: list[asyncio.StreamWriter] = []
    readers: list[asyncio.StreamReader] = []
    try:
        for _ in range(CLIENTS):
            reader, writer = await asyncio.open_unix_connection(server.path)
            writer.write(request * REQUESTS)  # asked for, never read
            await writer.drain()
            readers.append(reader)
            writers.append(writer)
        async with asyncio.timeout(HANG_BOUND):
            await drops.all_dropped.wait()
        assert server.dropped == CLIENTS
        assert server.largest_unread <= MAX_UNREAD
        for reader in readers:  # each connection was closed by the daemon: EOF (or reset)
            received = 0
            try:
                while chunk := await reader.read(1 << 16):
                    received += len(chunk)
            except ConnectionResetError:
                pass
            assert received < REQUESTS * 900_000  # far from every answer it asked for
        # The daemon serves the next client as before.
        reader, writer = await asyncio.open_unix_connection(server.path)
        writer.write(b'{"id": 9, "op": "status"}\n')
        await writer.drain()
        answer = json.loads(await reader.readline())
        writer.close()
        await writer.wait_closed()
        assert answer["id"] == 9 and answer["ok"] is True
    finally:
        logger.removeHandler(drops)
        for writer in writers:
            writer.close()
