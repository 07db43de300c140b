"""Serving a Kit over MCP's HTTP transport in a test, and the official SDK's client for it."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from kit.api import Kit
from kit.client import LocalClient
from kit.mcp.http import Listen, McpHttp
from kit.mcp.wiring import serving
from kit.surface import KitClient


@asynccontextmanager
async def http_server(kit: Kit, *, host: str = "127.0.0.1", **tls: str) -> AsyncIterator[McpHttp]:
    """`kit mcp --http` on `kit`, on a free port of `host`, until the block ends."""
    started = kit.now()

    def client_for(user: str) -> KitClient:
        return LocalClient(kit, started, user=user or None)

    server = serving(Listen(host, 0, **tls), client_for, tz=kit.tz, clock=kit, grace=2.0)
    running = asyncio.create_task(server.run())
    ready = asyncio.create_task(server.listening.wait())
    try:
        await asyncio.wait({running, ready}, return_when=asyncio.FIRST_COMPLETED)
        if running.done():
            running.result()  # it could not start: its error, as it is
        yield server
    finally:
        ready.cancel()
        running.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await running


def url_of(server: McpHttp) -> str:
    return f"http://127.0.0.1:{server.port}/mcp"


@asynccontextmanager
async def mcp_client(server: McpHttp | str, token: str | None) -> AsyncIterator[Client]:
    """The SDK's own client over streamable HTTP, sending `token` as a bearer token (entered
    in the test itself: anyio's cancel scopes are left in the task that entered them)."""
    url = server if isinstance(server, str) else url_of(server)
    headers = {"Authorization": f"Bearer {token}"} if token is not None else {}
    async with (
        httpx2.AsyncClient(headers=headers, timeout=60.0) as http,
        Client(streamable_http_client(url, http_client=http)) as client,
    ):
        yield client
