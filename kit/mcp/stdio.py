"""`kit mcp`'s stdin and stdout: JSON-RPC lines, read and written here, in front of the SDK.

The SDK's own stdio transport left three things to the client's luck: a line that is not
JSON, or not a JSON-RPC message, got no answer at all (JSON-RPC says -32700 parse error and
-32600 invalid request); a call holding a lone surrogate (`"\\ud800"`, valid JSON, not valid
Unicode) was never answered; and when the client closed stdin, calls still running were cut
off with "Connection closed". So each line is read here:

- not JSON (or not UTF-8): a -32700 answer (id null);
- JSON, but not a JSON-RPC message the SDK accepts: a -32600 answer, with the request's id
  when it has a usable one;
- every string in it has lone surrogates made U+FFFD before the SDK sees it, so the call is
  served like any other;
- at the end of stdin, every request already passed on is answered before the server is
  told the input ended (bounded by `FINISH_SECONDS`).

While serving, file descriptors 0 and 1 point at /dev/null and stderr (the wire is on private
duplicates), so nothing else in the process can read the client's lines or write into the
protocol. The SDK's objects stay in kit/mcp/server.py: this module sees plain JSON values and
the `Codec` that server.py gives it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, BinaryIO, Generic, Protocol, TypeVar

log = logging.getLogger(__name__)

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
FINISH_SECONDS = 120.0  # the longest a call may still run after the client closed stdin
LINE_LIMIT = 32 * 1024 * 1024  # like the control socket's: far above any real call

M = TypeVar("M")
M_in = TypeVar("M_in", contravariant=True)
Id = str | int
_SURROGATE = re.compile(r"[\ud800-\udfff]")


class Codec(Protocol[M]):
    """The SDK's messages, to and from JSON values (kit/mcp/server.py)."""

    def decode(self, value: dict[str, Any]) -> M:
        """The message, or ValueError if it is not one the server accepts."""
        ...

    def encode(self, message: M) -> tuple[str, Id | None]:
        """The JSON line (without its newline), and the request id it answers, if any."""
        ...


class Inbox(Protocol[M_in]):
    async def send(self, message: M_in) -> None: ...

    async def aclose(self) -> None: ...


@contextlib.asynccontextmanager
async def wire() -> AsyncIterator[tuple[BinaryIO, BinaryIO]]:
    """The client's stdin and stdout as private binary files; meanwhile fd 0 reads /dev/null
    and fd 1 writes to stderr. Both are put back on the way out."""
    wire_in, wire_out = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDONLY)
    try:
        os.dup2(null, 0)
        os.dup2(2, 1)
    finally:
        os.close(null)
    try:
        with (
            os.fdopen(wire_in, "rb", buffering=0, closefd=False) as stdin,
            os.fdopen(wire_out, "wb", closefd=False) as stdout,
        ):
            yield stdin, stdout
    finally:
        os.dup2(wire_in, 0)
        os.dup2(wire_out, 1)
        os.close(wire_in)
        os.close(wire_out)


def error_line(rid: Id | None, code: int, message: str) -> str:
    return json.dumps(
        {"jsonrpc": "2.0", "id": rid, "error": {"code": code, "message": message}},
        ensure_ascii=False,
        separators=(",", ":"),
    )


def clean(value: Any) -> Any:
    """`value` with every lone surrogate in its strings (keys too) made U+FFFD."""
    if isinstance(value, str):
        return _SURROGATE.sub("\ufffd", value)
    if isinstance(value, list):
        return [clean(v) for v in value]
    if isinstance(value, dict):
        return {clean(k): clean(v) for k, v in value.items()}
    return value


def request_id(value: dict[str, Any]) -> Id | None:
    """The id a JSON-RPC answer must carry: a string or an integer (not true, not 1.5)."""
    rid = value.get("id")
    if isinstance(rid, str) or (isinstance(rid, int) and not isinstance(rid, bool)):
        return rid
    return None


class LineServer(Generic[M]):
    """Reads the client's lines, answers the malformed ones itself, passes the rest to the
    SDK's server through `inbox`, and writes whatever the server sends back."""

    def __init__(self, codec: Codec[M], stdin: BinaryIO, stdout: BinaryIO) -> None:
        self._codec = codec
        self._stdin = stdin
        self._stdout = stdout
        self._out: asyncio.Queue[str | None] = asyncio.Queue()
        self._pending: set[Id] = set()
        self._answered = asyncio.Event()
        self.malformed = 0

    async def serve(
        self,
        inbox: Inbox[M],
        outbox: AsyncIterator[M],
        run_server: Callable[[], Awaitable[None]],
    ) -> None:
        """Until stdin ends and every request read has its answer (or the server stops)."""
        async with asyncio.TaskGroup() as group:
            writer = group.create_task(self._write())
            group.create_task(self._read(inbox))
            relay = group.create_task(self._relay(outbox))
            await run_server()
            await relay  # the server closed its side: every answer it sent is queued
            await self._out.put(None)  # then written, and the writer stops
            await writer

    async def _read(self, inbox: Inbox[M]) -> None:
        try:
            while line := await asyncio.to_thread(self._stdin.readline, LINE_LIMIT):
                if line.strip():
                    await self._take(line, inbox)
            await self._finish()
        finally:
            await inbox.aclose()  # the server sees the end of its input and returns

    async def _take(self, line: bytes, inbox: Inbox[M]) -> None:
        try:
            value = json.loads(line.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            self.malformed += 1
            await self._out.put(error_line(None, PARSE_ERROR, "Parse error: not a JSON line"))
            return
        value = clean(value)
        rid = request_id(value) if isinstance(value, dict) else None
        try:
            if not isinstance(value, dict):
                raise ValueError("a JSON-RPC message is an object")
            message = self._codec.decode(value)
        except ValueError:
            self.malformed += 1
            why = "Invalid Request: not a JSON-RPC 2.0 message this server takes"
            await self._out.put(error_line(rid, INVALID_REQUEST, why))
            return
        if rid is not None and "method" in value:
            self._pending.add(rid)
            self._answered.clear()
        await inbox.send(message)

    async def _finish(self) -> None:
        """Stdin ended: wait for the answers to the requests still running (bounded)."""
        if not self._pending:
            return
        try:
            async with asyncio.timeout(FINISH_SECONDS):
                await self._answered.wait()
        except TimeoutError:
            log.warning(
                "kit mcp: the client left; %d call(s) still running after %.0f s are dropped",
                len(self._pending),
                FINISH_SECONDS,
            )

    async def _relay(self, outbox: AsyncIterator[M]) -> None:
        async for message in outbox:
            try:
                line, answers = self._codec.encode(message)
            except (ValueError, UnicodeError):
                log.exception("kit mcp: an answer could not be written as JSON")
                continue
            await self._out.put(line)
            if answers is not None:
                self._pending.discard(answers)
                if not self._pending:
                    self._answered.set()

    async def _write(self) -> None:
        while (line := await self._out.get()) is not None:
            data = (line + "\n").encode("utf-8", "replace")
            await asyncio.to_thread(self._send, data)

    def _send(self, data: bytes) -> None:
        self._stdout.write(data)
        self._stdout.flush()
