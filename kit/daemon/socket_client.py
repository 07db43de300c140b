"""`SocketClient`: the `KitClient` that talks to a running daemon over its control socket.

One connection per call (Unix sockets are cheap), so calls from several workers (the TUI)
run concurrently and a daemon that went away fails exactly the calls that needed it.
The protocol is documented in kit/daemon/socket_server.py; its operations are declared in
kit/surface.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from kit.daemon.codec import ProtocolError, decode, encode, event_value
from kit.daemon.socket_server import LINE_LIMIT
from kit.errors import (
    ConfigError,
    InputError,
    KitError,
    LLMOutputError,
    LLMUnavailable,
    NotFound,
    RateLimited,
    StorageError,
    Unauthorized,
)
from kit.operations import Operation, Relay

# Errors keep their class across the socket, so callers can tell "not found" from "no model".
_ERRORS: dict[str, type[KitError]] = {
    cls.__name__: cls
    for cls in (
        ConfigError,
        InputError,
        NotFound,
        LLMUnavailable,
        LLMOutputError,
        StorageError,
        Unauthorized,
        RateLimited,
    )
}

EventSink = Callable[[dict[str, Any]], Awaitable[None]]


class DaemonUnavailable(KitError):
    """The daemon's control socket cannot be reached, or it hung up mid-answer."""


class SocketClient(Relay):
    """Each operation (generated from kit/surface.py) is one request on a connection of its own;
    its arguments go as the request's fields, its streams come back as events."""

    mode = "daemon"

    def __init__(self, path: Path, *, user: str | None = None) -> None:
        self.path = path
        self._user = user
        self._ids = itertools.count(1)

    async def relay(self, op: Operation, arguments: dict[str, Any]) -> Any:
        fields = {arg.wire: encode(arguments[arg.name]) for arg in op.fields}
        sinks = {
            event: (arg.payload, arguments[arg.name])
            for event, arg in op.streams.items()
            if arguments[arg.name] is not None
        }

        async def on_event(message: dict[str, Any]) -> None:
            target = sinks.get(str(message.get("event")))
            if target is not None:
                payload, sink = target
                await sink(event_value(payload, message))

        return decode(op.result, await self._call(op.name, on_event, **fields))

    async def wait_closed(self) -> None:
        """Hold an idle connection until the daemon closes it (it stopped, or died): how a
        front-end that stays open learns at once that the daemon went away, without polling.
        Returns at once when no connection can be made."""
        try:
            reader, writer = await asyncio.open_unix_connection(self.path, limit=LINE_LIMIT)
        except OSError:
            return
        try:
            while await reader.read(4096):
                pass  # nothing is asked on this connection, so nothing should come
        except ConnectionError:
            pass
        finally:
            writer.close()
            with contextlib.suppress(ConnectionError):
                await writer.wait_closed()

    async def _call(self, op: str, on_event: EventSink | None = None, **args: Any) -> Any:
        rid = next(self._ids)
        request = {"id": rid, "op": op, **args}
        if self._user is not None:
            request["user"] = self._user
        try:
            reader, writer = await asyncio.open_unix_connection(self.path, limit=LINE_LIMIT)
        except OSError as exc:
            raise DaemonUnavailable(
                f"cannot reach the Kit daemon at {self.path} ({exc.strerror or exc}); "
                "start it with `kit run`, or stop it to use Kit standalone"
            ) from exc
        try:
            writer.write(json.dumps(request, ensure_ascii=False).encode() + b"\n")
            await writer.drain()
            while True:
                line = await reader.readline()
                if not line:
                    raise DaemonUnavailable(
                        "the Kit daemon hung up before answering (did it stop?); anything "
                        "you sent before that is saved. `kit status` shows whether it runs"
                    )
                message = _parse(line)
                if message.get("id") != rid:
                    raise ProtocolError(f"the Kit daemon answered request {message.get('id')!r}")
                if "event" in message:
                    if on_event is not None:
                        await on_event(message)
                    continue
                if message.get("ok") is True:
                    return message.get("result")
                raise _ERRORS.get(str(message.get("kind")), KitError)(
                    str(message.get("error") or "the Kit daemon refused the request")
                )
        except (ConnectionError, ValueError) as exc:  # ValueError: a line over LINE_LIMIT
            raise DaemonUnavailable(
                f"the connection to the Kit daemon broke ({exc}); `kit status` shows whether "
                "it still runs"
            ) from exc
        finally:
            writer.close()
            with contextlib.suppress(ConnectionError):
                await writer.wait_closed()


def _parse(line: bytes) -> dict[str, Any]:
    try:
        message = json.loads(line)
    except ValueError as exc:
        raise ProtocolError(f"the Kit daemon sent a line that is not JSON ({exc})") from exc
    if not isinstance(message, dict):
        raise ProtocolError("the Kit daemon sent a JSON value that is not an object")
    return message
