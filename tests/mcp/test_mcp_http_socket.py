"""The socket `kit mcp --http` listens on (kit/mcp/http.py: `listening_socket`).

Its connections must have Nagle's algorithm off (TCP_NODELAY): with it on, the last small
write of every answer waited for the client's delayed ACK, about 40 ms a call. uvicorn is
handed this socket and accepts through `loop.create_server(sock=...)`, as here; asyncio turns
TCP_NODELAY on only for connections accepted from a socket made as TCP's (IPPROTO_TCP).
"""

from __future__ import annotations

import asyncio
import socket

import pytest

from kit.errors import ConfigError
from kit.mcp.http import Listen, listening_socket


class _Accepted(asyncio.Protocol):
    """Records the TCP_NODELAY of the one connection it accepts."""

    def __init__(self, nodelay: asyncio.Future[int]) -> None:
        self._nodelay = nodelay

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        sock = transport.get_extra_info("socket")
        self._nodelay.set_result(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
        transport.close()


async def _nodelay_of_a_connection(host: str) -> int:
    loop = asyncio.get_running_loop()
    nodelay: asyncio.Future[int] = loop.create_future()
    sock = listening_socket(Listen(host, 0))
    server = await loop.create_server(lambda: _Accepted(nodelay), sock=sock)
    try:
        port = sock.getsockname()[1]
        _, writer = await asyncio.open_connection(host, port)
        try:
            return await asyncio.wait_for(nodelay, timeout=30.0)
        finally:
            writer.close()
    finally:
        server.close()
        await server.wait_closed()


async def test_connections_it_accepts_send_at_once_without_nagle() -> None:
    assert await _nodelay_of_a_connection("127.0.0.1") != 0


async def test_over_ipv6_too() -> None:
    if not socket.has_ipv6:
        pytest.skip("this machine has no IPv6")
    try:
        socket.create_server(("::1", 0), family=socket.AF_INET6).close()
    except OSError:
        pytest.skip("this machine has no IPv6 loopback (::1)")
    assert await _nodelay_of_a_connection("::1") != 0


def test_a_port_in_use_is_one_clear_error() -> None:
    taken = listening_socket(Listen("127.0.0.1", 0))
    try:
        port = taken.getsockname()[1]
        with pytest.raises(ConfigError, match=rf"cannot listen on 127\.0\.0\.1:{port} .*--port"):
            listening_socket(Listen("127.0.0.1", port))
    finally:
        taken.close()
