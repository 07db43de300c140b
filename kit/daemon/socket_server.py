"""The control socket: `<data_dir>/kit.sock`, mode 0600 in a 0700 data directory.

Protocol (JSON lines, UTF-8, one object per line, both ways):

    request   {"id": 7, "op": "send", "text": "hi", "conversation": "terminal"}
    events    {"id": 7, "event": "text", "text": "Hel"}            (send: the reply as it streams)
              {"id": 7, "event": "progress", "step": "condense", "status": "running", "detail": ""}
    response  {"id": 7, "ok": true, "result": {...}}
              {"id": 7, "ok": false, "error": "fact 9 does not exist; ...", "kind": "NotFound"}

A request is a flat object: strings, 64-bit integers, finite numbers, true/false/null
(kit/daemon/wire.py); anything else, like a line that is not JSON, gets an error answer and
the connection stays open. Every request may carry "user" (default: owner.user_id).

The operations, their fields, results and events are declared once, in kit/surface.py;
`kit.operations.reference()` renders them as this protocol's reference. Results are the
dataclasses the declaration names, encoded by kit/daemon/codec.py. Requests on one connection
are answered in order; open more connections for concurrency (the client uses one per call).

Fields are checked strictly before anything runs (kit/daemon/arguments.py).

Every op is delegated to a `LocalClient`, so the socket and in-process front-ends behave alike.

A client must read its answers: one that has left more than `MAX_UNREAD` bytes unread, or has
not taken a line within `send_timeout`, is disconnected and its unsent bytes dropped (work it
started, like a turn, still finishes and is stored). Without that, a client that never reads
kept every answer in the daemon's memory (227 MB grew to 721 MB in an attack).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from kit.daemon.arguments import read_arguments, read_user
from kit.daemon.codec import encode, event_fields
from kit.daemon.wire import answer_line, parse_request, request_id, shown
from kit.errors import InputError, KitError, StorageError
from kit.operations import Operation, operations
from kit.surface import KitClient

log = logging.getLogger(__name__)

LINE_LIMIT = 32 * 1024 * 1024  # a 100k-character message, JSON-escaped, fits many times over
SEND_TIMEOUT = 2.0  # a client that stops reading does not hold up shutdown, nor memory
MAX_UNREAD = 8 * 1024 * 1024  # bytes of earlier answers a client may leave unread

ClientFor = Callable[[str | None], KitClient]  # a LocalClient for the request's user


class _Connection:
    """One client's connection: the way back, while the client keeps reading (see the module
    docstring); `gone` once it hung up or was disconnected."""

    def __init__(self, writer: asyncio.StreamWriter, server: ControlServer) -> None:
        self._writer = writer
        self._server = server
        self.gone = False

    async def write(self, line: bytes) -> None:
        if self.gone:
            return
        unread = self._writer.transport.get_write_buffer_size()
        if unread and unread + len(line) > MAX_UNREAD:
            self.drop(f"{unread:,} bytes of earlier answers unread")
            return
        try:
            self._writer.write(line)
            self._server.note_unread(self._writer.transport.get_write_buffer_size())
            async with asyncio.timeout(self._server.send_timeout):
                await self._writer.drain()
        except ConnectionError:
            self.gone = True
        except TimeoutError:
            self.drop(f"nothing read for {self._server.send_timeout:g} s")

    def drop(self, why: str) -> None:
        """Disconnect a client that does not read; what it left unread is freed at once."""
        self.gone = True
        log.warning(
            "control socket: disconnected a client that does not read its answers (%s)", why
        )
        self._server.dropped += 1
        self._writer.transport.abort()


class _Request:
    """One request's arguments and its way back to the caller."""

    def __init__(
        self, rid: int | str | None, body: dict[str, Any], connection: _Connection
    ) -> None:
        self.id = rid
        self.body = body
        self._connection = connection

    async def send(self, message: dict[str, Any]) -> None:
        """Write one line. ValueError if `message` cannot be JSON (written: nothing). A client
        that hung up or stopped reading gets nothing more; the work goes on (the reply is
        stored)."""
        line = answer_line(message)
        await self._connection.write(line)

    async def event(self, kind: str, **fields: Any) -> None:
        await self.send({"id": self.id, "event": kind, **fields})

    def feeder(self, event: str) -> Callable[[Any], Awaitable[None]]:
        """A callback whose every value goes back to the caller as an `event` line."""

        async def feed(value: Any) -> None:
            await self.event(event, **event_fields(event, value))

        return feed


_INTERNAL = "the Kit daemon hit an internal error; see {log}"


class ControlServer:
    def __init__(
        self,
        path: Path,
        client_for: ClientFor,
        *,
        log_file: Path,
        send_timeout: float = SEND_TIMEOUT,
    ) -> None:
        self.path = path
        self.send_timeout = send_timeout
        self.dropped = 0  # clients disconnected for not reading their answers
        self.largest_unread = 0  # the most bytes ever waiting for one client to read
        self._client_for = client_for
        self._log_file = log_file
        self.listening = asyncio.Event()
        self._stopping = False
        self._busy = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self._ops = {op.name: op for op in operations()}

    async def run(self) -> None:
        """Serve until cancelled. Connections are tasks of this task's own TaskGroup."""
        self.path.unlink(missing_ok=True)  # a socket left by a killed daemon (we hold the lock)
        async with asyncio.TaskGroup() as connections:

            def accept(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
                connections.create_task(self._connection(reader, writer))

            try:
                listener = await asyncio.start_unix_server(accept, self.path, limit=LINE_LIMIT)
            except OSError as exc:
                raise StorageError(
                    f"{self.path}: cannot open the control socket ({exc.strerror or exc}); "
                    "check that the data directory is yours and writable"
                ) from exc
            try:
                os.chmod(self.path, 0o600)
                self.listening.set()
                await asyncio.Event().wait()  # until cancelled; connections run meanwhile
            finally:
                listener.close()
                self.path.unlink(missing_ok=True)

    def stop_accepting(self) -> None:
        """New requests are refused from now on (with "shutting down"); those in flight carry
        on. The listener itself stays open until `run()` ends: closing it while a connection
        is half-accepted leaves that client hanging (asyncio drops it without closing it)."""
        self._stopping = True

    def note_unread(self, size: int) -> None:
        self.largest_unread = max(self.largest_unread, size)

    @property
    def busy(self) -> int:
        """Requests in flight."""
        return self._busy

    async def wait_idle(self) -> None:
        await self._idle.wait()

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Serve one connection until the client hangs up. Whatever goes wrong here ends this
        connection (with an error line if it can still be written), never the daemon: the
        TaskGroup holding the connections must not see an exception."""
        connection = _Connection(writer, self)
        try:
            while not connection.gone and (line := await _read_line(reader)):
                await self._handle(line, connection)
        except ConnectionError:
            pass
        except Exception:
            log.exception("control socket: serving a connection failed; closing it")
            error = {"id": None, "ok": False, "error": _INTERNAL.format(log=self._log_file)}
            with contextlib.suppress(Exception):
                await _Request(None, {}, connection).send(error)
        finally:
            writer.close()
            with contextlib.suppress(ConnectionError, TimeoutError):
                async with asyncio.timeout(SEND_TIMEOUT):
                    await writer.wait_closed()

    async def _handle(self, line: bytes, connection: _Connection) -> None:
        try:
            body = parse_request(line)
            request = _Request(request_id(body), body, connection)
        except InputError as exc:
            await self._fail(_Request(None, {}, connection), exc)
            return
        op = body.get("op")
        operation = self._ops.get(op) if isinstance(op, str) else None
        if operation is None:
            known = ", ".join(self._ops)
            unknown = InputError(f"control socket: unknown op {shown(op)}; known ops: {known}")
            await self._fail(request, unknown)
            return
        if self._stopping:
            await self._fail(request, KitError("Kit is shutting down; try again once it is back"))
            return
        self._busy += 1
        self._idle.clear()
        try:
            result = await self._run(operation, request)
            # Encoded before anything is written: a result that cannot be sent is an error
            # answer, not half a line.
            await request.send({"id": request.id, "ok": True, "result": encode(result)})
        except KitError as exc:
            await self._fail(request, exc)
        except asyncio.CancelledError:
            await self._fail(
                request,
                KitError(
                    "Kit shut down before it finished this request; anything you sent is "
                    "saved, ask again once Kit is back"
                ),
            )
            raise
        except Exception:
            log.exception("control socket: op %s failed", op)
            await self._fail(request, KitError(_INTERNAL.format(log=self._log_file)))
        finally:
            self._busy -= 1
            if self._busy == 0:
                self._idle.set()

    async def _fail(self, request: _Request, exc: KitError) -> None:
        kind = type(exc).__name__
        await request.send({"id": request.id, "ok": False, "error": str(exc), "kind": kind})

    async def _run(self, op: Operation, request: _Request) -> Any:
        """`op` on the requesting user's client, its fields checked first; what it streams
        goes back as events."""
        client = self._client_for(read_user(request.body))
        arguments = read_arguments(op, request.body)
        for event, stream in op.streams.items():
            arguments[stream.name] = request.feeder(event)
        return await getattr(client, op.name)(**arguments)


async def _read_line(reader: asyncio.StreamReader) -> bytes:
    """The next request line; b"" at the end, or when a line passes LINE_LIMIT (the stream
    cannot be resynchronised after that, so the connection ends)."""
    try:
        return await reader.readline()
    except ValueError:
        log.warning("control socket: a request line was too long; closing that connection")
        return b""
