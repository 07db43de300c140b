"""The door of `kit mcp --http`: every request's token checked before anything is served.

A plain ASGI app in front of the SDK's transport (kit/mcp/http.py), without the SDK:

- only `/mcp` is served (404 elsewhere);
- the request's body is read first, at most `MAX_BODY` bytes (413 past that), so the audit
  log can say what was asked ("tools/call search_memory");
- the token (`Authorization: Bearer kit_...`, and nowhere else: never a query string) goes to
  `authorize` (`KitClient.authorize`, kit/access/tokens.py), which compares it, applies its
  rate limit and writes the call to the audit log;
- a missing, wrong, expired or revoked token: 401 with `WWW-Authenticate: Bearer`, and
  nothing of memory is read; over the rate limit: 429 with `Retry-After`;
- an accepted one: the request, its body replayed, goes on to `serve` with the grant (whose
  memory, read-only or not).

The token is never logged, nor put in an answer; the grant carries its name only.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from kit.access.tokens import MAX_TOKEN_CHARS, Grant
from kit.daemon.socket_client import DaemonUnavailable
from kit.errors import KitError, RateLimited, Unauthorized

log = logging.getLogger(__name__)

PATH = "/mcp"
INVALID_REQUEST = -32600
MAX_BODY = 1024 * 1024  # far above any call Kit's tools take (a query, a fact: 2,000 chars)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
Authorize = Callable[[str, str, str], Awaitable[Grant]]  # (token, call, peer)
Serve = Callable[[Grant, Scope, Receive, Send], Awaitable[None]]


class TooLarge(Exception):
    pass


class Gate:
    def __init__(self, authorize: Authorize, serve: Serve) -> None:
        self._authorize = authorize
        self._serve = serve
        self._busy = 0  # calls in flight (an open stream, GET, is not one)
        self._idle = asyncio.Event()
        self._idle.set()

    async def wait_idle(self) -> None:
        await self._idle.wait()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return  # websockets: not served (and uvicorn runs without lifespan events)
        if scope["path"].rstrip("/") != PATH:
            await answer(send, 404, "Not found: Kit serves MCP at /mcp")
            return
        try:
            body = await _read_body(scope, receive)
        except TooLarge:
            await answer(send, 413, f"Request too large: at most {MAX_BODY:,} bytes")
            return
        call = describe(scope["method"], body)
        client = scope.get("client")
        peer = str(client[0]) if client else ""
        try:
            grant = await self._authorize(bearer(scope), call, peer)
        except RateLimited as exc:
            wait = str(max(1, math.ceil(exc.retry_after)))
            await answer(send, 429, str(exc), [(b"retry-after", wait.encode())])
            return
        except Unauthorized as exc:
            challenge = b'Bearer realm="kit", error="invalid_token"'
            await answer(send, 401, str(exc), [(b"www-authenticate", challenge)])
            return
        except DaemonUnavailable:
            log.warning("kit mcp --http: the daemon is not answering; refusing %s", call)
            await answer(send, 503, "Kit's daemon is not answering; try again once it is back")
            return
        except KitError as exc:
            log.warning("kit mcp --http: could not check a token: %s", exc)
            await answer(send, 503, "Kit could not check the token; see its log")
            return
        if scope["method"] == "GET":  # a stream the server may write to: open until closed
            await self._serve(grant, scope, _replay(body, receive), send)
            return
        self._busy += 1
        self._idle.clear()
        try:
            await self._serve(grant, scope, _replay(body, receive), send)
        finally:
            self._busy -= 1
            if not self._busy:
                self._idle.set()


def bearer(scope: Scope) -> str:
    """The token of an `Authorization: Bearer ...` header ("" without one), at most
    MAX_TOKEN_CHARS of it (a Kit token is far shorter: a longer one is refused either way)."""
    for name, value in scope.get("headers", ()):
        if bytes(name).lower() == b"authorization":
            scheme, _, token = bytes(value).decode("latin-1").strip().partition(" ")
            if scheme.lower() == "bearer":
                return token.strip()[:MAX_TOKEN_CHARS]
    return ""


def describe(method: str, body: bytes) -> str:
    """What a request asks, for the audit log: the JSON-RPC method and, for a tool call or a
    resource read, which one. Never the arguments (they are the owner's words)."""
    if method != "POST":
        return {"GET": "open stream", "DELETE": "end session"}.get(method, str(method))
    try:
        message = json.loads(body)
    except (ValueError, RecursionError):
        return "not JSON"
    if not isinstance(message, dict):
        return "not a JSON-RPC message"
    name = message.get("method")
    if not isinstance(name, str):
        return "response" if "result" in message or "error" in message else "no method"
    params = message.get("params")
    target: object = ""
    if isinstance(params, dict):
        target = params.get("name") if name == "tools/call" else params.get("uri", "")
    shown = f"{name} {target}" if isinstance(target, str) else name
    return shown[:120].strip()


async def _read_body(scope: Scope, receive: Receive) -> bytes:
    for name, value in scope.get("headers", ()):
        if name.lower() == b"content-length" and value.isdigit() and int(value) > MAX_BODY:
            raise TooLarge
    if scope["method"] != "POST":
        return b""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > MAX_BODY:
            raise TooLarge
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


def _replay(body: bytes, receive: Receive) -> Receive:
    """`receive` with the body already read given back first."""
    given = False

    async def again() -> Message:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return again


async def answer(
    send: Send, status: int, message: str, headers: list[tuple[bytes, bytes]] | None = None
) -> None:
    """A JSON-RPC error body (id null), as the SDK's transport answers its own refusals."""
    body = json.dumps(
        {"jsonrpc": "2.0", "id": None, "error": {"code": INVALID_REQUEST, "message": message}}
    ).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                *(headers or []),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
