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
Ops and their arguments:
send(text, conversation="terminal") -> TurnResult; days() -> [Day]; day(day: "YYYY-MM-DD") ->
Day | null; facts(category=null, include_inactive=false, text="") -> [Fact];
fact_history(fact_id) -> [HistoryEntry]; add_fact(content, category="person", subject="",
pinned=false, expires=null, since=null, until=null) -> OwnerChange; edit_fact(fact_id,
content=null, subject=null, expires=null, clear_expiry=false, since=null, until=null) ->
OwnerChange; inbox(everything=false) -> [Question]; answer_question(question_id, answer:
"keep-old" | "take-new" | "keep-both") -> Answered; pin_fact(fact_id) -> OwnerChange;
unpin_fact(fact_id) -> OwnerChange; deactivate_fact(fact_id, reason) -> OwnerChange;
undo_pass(pass_id) -> UndoResult; rem(dry_run=false, date=null) -> RemReport (with progress events);
last_rem() -> RemReport | null; status() -> Status; context(text, conversation="terminal") ->
ContextReport (what a turn would send the model for `text`; reads only);
chat_history(conversation="terminal", limit=20) -> ChatHistory; passes(limit=20) ->
[PassRecord]; reminders() -> [Reminder]; cancel_reminder(reminder_id) -> Reminder;
reminder_notices(conversation=null) -> [Notice] (delivered terminal reminders not shown yet,
each handed out once); notes() -> [NoteInfo]; note(name) -> Note; search(query, k=10) ->
[Hit] (k from 1 to 50, a query of at most 2,000 characters; reads only); day_record(day:
"YYYY-MM-DD") -> DayRecord (the summary, else the day's latest messages); remember(fact,
category="person", subject="") -> Fact (screened like the chat's remember); memory_index() ->
string; command(text, conversation="terminal") -> string (a chat's slash command, e.g.
"/facts people", as kit/channels/chat_commands.py answers it); digest(day=null) -> Digest (the
memory digest of a digest day, the open one without a day; kit/digest/); send_digest(day=null)
-> DigestSent (sent now on the daemon's live channels); forget_receipts() -> [ReceiptInfo];
verify_forget(receipt: an id) -> Verification (reads only). Results are the dataclasses of
kit/client.py, kit/tools.py, kit/memory/, kit/reminders/ and kit/notes/store.py encoded by
kit/daemon/codec.py. Requests on one connection are answered in order; open more connections
for concurrency (the client uses one per call).

Arguments are checked strictly before anything runs: ids are positive integers (not true, not
-1), texts are strings within the length a fact, subject or reason may have, dates are
YYYY-MM-DD (whether an expiry is in range is checked where every front-end's is).

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
from datetime import date
from pathlib import Path
from typing import Any

from kit.client import SEARCH_K, LocalClient
from kit.clock import EARLIEST, LATEST
from kit.curator.ops import MAX_CONTENT_CHARS, MAX_REASON_CHARS, MAX_ROW_ID, MAX_SUBJECT_CHARS
from kit.curator.reports import RemProgress
from kit.daemon.codec import encode
from kit.daemon.wire import answer_line, parse_request, request_id, shown
from kit.errors import InputError, KitError, StorageError
from kit.memory.forget_receipt import looks_like_id
from kit.untrusted.clean import clean_text

log = logging.getLogger(__name__)

LINE_LIMIT = 32 * 1024 * 1024  # a 100k-character message, JSON-escaped, fits many times over
SEND_TIMEOUT = 2.0  # a client that stops reading does not hold up shutdown, nor memory
MAX_UNREAD = 8 * 1024 * 1024  # bytes of earlier answers a client may leave unread
MAX_LIMIT = 500  # chat_history and passes: more than a screen shows, and bounded
MAX_COMMAND_CHARS = 2_000  # a slash command and its argument (a /search query, an id)
MAX_RECEIPT_CHARS = 100

ClientFor = Callable[[str | None], LocalClient]
Handler = Callable[["_Request"], Awaitable[Any]]


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

    def arg(self, name: str, kind: type, default: Any = ...) -> Any:
        if name not in self.body or self.body[name] is None:
            if default is ...:
                raise InputError(f"control socket: request needs {name!r}")
            return default
        value = self.body[name]
        if kind is int and isinstance(value, bool):
            value = None  # JSON true is not a fact id
        if not isinstance(value, kind):
            raise InputError(f"control socket: {name!r} must be {_KINDS[kind]}")
        if isinstance(value, str):
            return clean_text(value)  # no lone surrogates or control characters go further
        return value

    def row_id(self, name: str) -> int:
        """A fact or pass id: a positive integer within SQLite's range."""
        value: int = self.arg(name, int)
        if not 1 <= value <= MAX_ROW_ID:
            raise InputError(f"control socket: {name!r} must be a positive integer id")
        return value

    def text(self, name: str, limit: int, default: Any = ...) -> Any:
        """A string of at most `limit` characters (or `default` when absent)."""
        value = self.arg(name, str, default)
        if isinstance(value, str) and len(value) > limit:
            raise InputError(
                f"control socket: {name!r} has {len(value):,} characters, more than {limit:,}"
            )
        return value


_KINDS = {int: "an integer", str: "a string", bool: "true or false"}
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
        self._ops: dict[str, Handler] = {
            "send": self._send,
            "days": lambda r: self._client(r).days(),
            "day": self._day,
            "facts": self._facts,
            "fact_history": lambda r: self._client(r).fact_history(r.row_id("fact_id")),
            "add_fact": self._add_fact,
            "edit_fact": self._edit_fact,
            "inbox": lambda r: self._client(r).inbox(everything=r.arg("everything", bool, False)),
            "answer_question": lambda r: self._client(r).answer_question(
                r.row_id("question_id"), r.text("answer", 20)
            ),
            "pin_fact": lambda r: self._client(r).pin_fact(r.row_id("fact_id")),
            "unpin_fact": lambda r: self._client(r).unpin_fact(r.row_id("fact_id")),
            "deactivate_fact": lambda r: self._client(r).deactivate_fact(
                r.row_id("fact_id"), r.text("reason", MAX_REASON_CHARS)
            ),
            "undo_pass": lambda r: self._client(r).undo_pass(r.row_id("pass_id")),
            "rem": self._rem,
            "last_rem": lambda r: self._client(r).last_rem(),
            "status": lambda r: self._client(r).status(),
            "context": lambda r: self._client(r).context(
                r.arg("text", str), conversation=r.arg("conversation", str, "terminal")
            ),
            "chat_history": lambda r: self._client(r).chat_history(
                r.arg("conversation", str, "terminal"), limit=_limit(r)
            ),
            "passes": lambda r: self._client(r).passes(limit=_limit(r)),
            "reminders": lambda r: self._client(r).reminders(),
            "cancel_reminder": lambda r: self._client(r).cancel_reminder(r.arg("reminder_id", int)),
            "reminder_notices": lambda r: self._client(r).reminder_notices(
                r.arg("conversation", str, None)
            ),
            "notes": lambda r: self._client(r).notes(),
            "note": lambda r: self._client(r).note(r.arg("name", str)),
            "search": lambda r: self._client(r).search(
                r.arg("query", str), k=r.arg("k", int, SEARCH_K)
            ),
            "day_record": lambda r: self._client(r).day_record(_date(r.arg("day", str), "day")),
            "remember": lambda r: self._client(r).remember(
                r.arg("fact", str),
                category=r.arg("category", str, "person"),
                subject=r.arg("subject", str, ""),
            ),
            "memory_index": lambda r: self._client(r).memory_index(),
            "command": lambda r: self._client(r).command(
                r.text("text", MAX_COMMAND_CHARS),
                conversation=r.arg("conversation", str, "terminal"),
            ),
            "digest": lambda r: self._client(r).digest(
                _date_or_none(r.arg("day", str, None), "day")
            ),
            "send_digest": lambda r: self._client(r).send_digest(
                _date_or_none(r.arg("day", str, None), "day")
            ),
            "forget_receipts": lambda r: self._client(r).forget_receipts(),
            "verify_forget": self._verify_forget,
        }

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
        handler = self._ops.get(op) if isinstance(op, str) else None
        if handler is None:
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
            result = await handler(request)
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

    def _client(self, request: _Request) -> LocalClient:
        return self._client_for(request.arg("user", str, None))

    async def _send(self, request: _Request) -> Any:
        async def stream(text: str) -> None:
            await request.event("text", text=text)

        return await self._client(request).send(
            request.arg("text", str),
            conversation=request.arg("conversation", str, "terminal"),
            on_text=stream,
        )

    async def _day(self, request: _Request) -> Any:
        return await self._client(request).day(_date(request.arg("day", str), "day"))

    async def _facts(self, request: _Request) -> Any:
        return await self._client(request).facts(
            category=request.arg("category", str, None),
            include_inactive=request.arg("include_inactive", bool, False),
            text=request.arg("text", str, ""),
        )

    async def _add_fact(self, request: _Request) -> Any:
        return await self._client(request).add_fact(
            request.text("content", MAX_CONTENT_CHARS),
            category=request.text("category", MAX_SUBJECT_CHARS, "person"),
            subject=request.text("subject", MAX_SUBJECT_CHARS, ""),
            pinned=request.arg("pinned", bool, False),
            expires=_date_or_none(request.arg("expires", str, None), "expires"),
            since=_date_or_none(request.arg("since", str, None), "since"),
            until=_date_or_none(request.arg("until", str, None), "until"),
        )

    async def _edit_fact(self, request: _Request) -> Any:
        return await self._client(request).edit_fact(
            request.row_id("fact_id"),
            request.text("content", MAX_CONTENT_CHARS, None),
            subject=request.text("subject", MAX_SUBJECT_CHARS, None),
            expires=_date_or_none(request.arg("expires", str, None), "expires"),
            clear_expiry=request.arg("clear_expiry", bool, False),
            since=_date_or_none(request.arg("since", str, None), "since"),
            until=_date_or_none(request.arg("until", str, None), "until"),
        )

    async def _verify_forget(self, request: _Request) -> Any:
        receipt = request.text("receipt", MAX_RECEIPT_CHARS).strip().lower()
        if not looks_like_id(receipt):  # never a path: the daemon reads no file a client names
            raise InputError(
                f"{receipt[:40]!r} is not a forget receipt id (like fr-k3m9q2xa7b); over the "
                "control socket a receipt is named by its id (`kit forget --receipts`)"
            )
        return await self._client(request).verify_forget(receipt)

    async def _rem(self, request: _Request) -> Any:
        async def progress(event: RemProgress) -> None:
            await request.event("progress", **encode(event))

        return await self._client(request).rem(
            dry_run=request.arg("dry_run", bool, False),
            only_date=_date_or_none(request.arg("date", str, None), "date"),
            on_progress=progress,
        )


async def _read_line(reader: asyncio.StreamReader) -> bytes:
    """The next request line; b"" at the end, or when a line passes LINE_LIMIT (the stream
    cannot be resynchronised after that, so the connection ends)."""
    try:
        return await reader.readline()
    except ValueError:
        log.warning("control socket: a request line was too long; closing that connection")
        return b""


def _limit(request: _Request) -> int:
    limit: int = request.arg("limit", int, 20)
    if not 1 <= limit <= MAX_LIMIT:
        raise InputError(f"control socket: limit must be 1 to {MAX_LIMIT}")
    return limit


def _date(text: str, name: str) -> date:
    try:
        day = date.fromisoformat(text)
    except ValueError:
        day = None
    if day is None or not EARLIEST.date() <= day < LATEST.date():
        raise InputError(
            f"control socket: {name} must be YYYY-MM-DD between {EARLIEST.year} and "
            f"{LATEST.year - 1} (got {shown(text)})"
        )
    return day


def _date_or_none(text: str | None, name: str) -> date | None:
    return None if text is None else _date(text, name)
