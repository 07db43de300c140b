"""`SocketClient`: the `KitClient` that talks to a running daemon over its control socket.

One connection per call (Unix sockets are cheap), so calls from several workers (the TUI)
run concurrently and a daemon that went away fails exactly the calls that needed it.
The protocol is documented in kit/daemon/socket_server.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
from collections.abc import Awaitable, Callable
from datetime import date
from pathlib import Path
from typing import Any

from kit.client import SEARCH_K, ProgressSink, Status
from kit.curator.records import PassRecord
from kit.curator.reports import OwnerChange, RemProgress, RemReport, UndoResult
from kit.daemon.codec import ProtocolError, decode, decode_as
from kit.daemon.socket_server import LINE_LIMIT
from kit.digest.model import Digest, DigestSent
from kit.errors import (
    ConfigError,
    InputError,
    KitError,
    LLMOutputError,
    LLMUnavailable,
    NotFound,
    StorageError,
)
from kit.inbox.service import Answered
from kit.inbox.store import Question
from kit.llm.base import TextSink
from kit.memory.days import Day
from kit.memory.facts import Fact, HistoryEntry
from kit.memory.forget_findings import Verification
from kit.memory.forget_receipts import ReceiptInfo
from kit.memory.messages import ChatHistory
from kit.memory.plan import ContextReport
from kit.memory.search import Hit
from kit.notes.store import Note, NoteInfo
from kit.reminders.store import Notice, Reminder
from kit.tools import DayRecord
from kit.turn import TurnResult

# Errors keep their class across the socket, so callers can tell "not found" from "no model".
_ERRORS: dict[str, type[KitError]] = {
    cls.__name__: cls
    for cls in (ConfigError, InputError, NotFound, LLMUnavailable, LLMOutputError, StorageError)
}

EventSink = Callable[[dict[str, Any]], Awaitable[None]]


class DaemonUnavailable(KitError):
    """The daemon's control socket cannot be reached, or it hung up mid-answer."""


class SocketClient:
    mode = "daemon"

    def __init__(self, path: Path, *, user: str | None = None) -> None:
        self.path = path
        self._user = user
        self._ids = itertools.count(1)

    async def send(
        self, text: str, *, conversation: str = "terminal", on_text: TextSink | None = None
    ) -> TurnResult:
        async def text_event(event: dict[str, Any]) -> None:
            if event.get("event") == "text" and on_text is not None:
                await on_text(str(event.get("text", "")))

        result = await self._call("send", text_event, text=text, conversation=conversation)
        return decode_as(TurnResult, result)

    async def chat_history(self, conversation: str = "terminal", *, limit: int = 20) -> ChatHistory:
        raw = await self._call("chat_history", conversation=conversation, limit=limit)
        return decode_as(ChatHistory, raw)

    async def days(self) -> list[Day]:
        result: list[Day] = decode(list[Day], await self._call("days"))
        return result

    async def day(self, day: date) -> Day | None:
        result: Day | None = decode(Day | None, await self._call("day", day=day.isoformat()))
        return result

    async def facts(
        self, *, category: str | None = None, include_inactive: bool = False, text: str = ""
    ) -> list[Fact]:
        raw = await self._call(
            "facts", category=category, include_inactive=include_inactive, text=text
        )
        result: list[Fact] = decode(list[Fact], raw)
        return result

    async def fact_history(self, fact_id: int) -> list[HistoryEntry]:
        raw = await self._call("fact_history", fact_id=fact_id)
        result: list[HistoryEntry] = decode(list[HistoryEntry], raw)
        return result

    async def add_fact(
        self,
        content: str,
        *,
        category: str = "person",
        subject: str = "",
        pinned: bool = False,
        expires: date | None = None,
        since: date | None = None,
        until: date | None = None,
    ) -> OwnerChange:
        raw = await self._call(
            "add_fact",
            content=content,
            category=category,
            subject=subject,
            pinned=pinned,
            expires=_day(expires),
            since=_day(since),
            until=_day(until),
        )
        return decode_as(OwnerChange, raw)

    async def edit_fact(
        self,
        fact_id: int,
        content: str | None = None,
        *,
        subject: str | None = None,
        expires: date | None = None,
        clear_expiry: bool = False,
        since: date | None = None,
        until: date | None = None,
    ) -> OwnerChange:
        raw = await self._call(
            "edit_fact",
            fact_id=fact_id,
            content=content,
            subject=subject,
            expires=_day(expires),
            clear_expiry=clear_expiry,
            since=_day(since),
            until=_day(until),
        )
        return decode_as(OwnerChange, raw)

    async def inbox(self, *, everything: bool = False) -> list[Question]:
        result: list[Question] = decode(
            list[Question], await self._call("inbox", everything=everything)
        )
        return result

    async def answer_question(self, question_id: int, answer: str) -> Answered:
        raw = await self._call("answer_question", question_id=question_id, answer=answer)
        return decode_as(Answered, raw)

    async def pin_fact(self, fact_id: int) -> OwnerChange:
        return decode_as(OwnerChange, await self._call("pin_fact", fact_id=fact_id))

    async def unpin_fact(self, fact_id: int) -> OwnerChange:
        return decode_as(OwnerChange, await self._call("unpin_fact", fact_id=fact_id))

    async def deactivate_fact(self, fact_id: int, reason: str) -> OwnerChange:
        raw = await self._call("deactivate_fact", fact_id=fact_id, reason=reason)
        return decode_as(OwnerChange, raw)

    async def passes(self, *, limit: int = 20) -> list[PassRecord]:
        result: list[PassRecord] = decode(list[PassRecord], await self._call("passes", limit=limit))
        return result

    async def undo_pass(self, pass_id: int) -> UndoResult:
        return decode_as(UndoResult, await self._call("undo_pass", pass_id=pass_id))

    async def rem(
        self,
        *,
        dry_run: bool = False,
        only_date: date | None = None,
        on_progress: ProgressSink | None = None,
    ) -> RemReport:
        async def progress_event(event: dict[str, Any]) -> None:
            if event.get("event") == "progress" and on_progress is not None:
                fields = {k: v for k, v in event.items() if k not in ("id", "event")}
                await on_progress(decode_as(RemProgress, fields))

        day = None if only_date is None else only_date.isoformat()
        result = await self._call("rem", progress_event, dry_run=dry_run, date=day)
        return decode_as(RemReport, result)

    async def last_rem(self) -> RemReport | None:
        result: RemReport | None = decode(RemReport | None, await self._call("last_rem"))
        return result

    async def status(self) -> Status:
        return decode_as(Status, await self._call("status"))

    async def context(self, text: str, *, conversation: str = "terminal") -> ContextReport:
        raw = await self._call("context", text=text, conversation=conversation)
        return decode_as(ContextReport, raw)

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

    async def reminders(self) -> list[Reminder]:
        result: list[Reminder] = decode(list[Reminder], await self._call("reminders"))
        return result

    async def cancel_reminder(self, reminder_id: int) -> Reminder:
        return decode_as(Reminder, await self._call("cancel_reminder", reminder_id=reminder_id))

    async def reminder_notices(self, conversation: str | None = None) -> list[Notice]:
        raw = await self._call("reminder_notices", conversation=conversation)
        result: list[Notice] = decode(list[Notice], raw)
        return result

    async def notes(self) -> list[NoteInfo]:
        result: list[NoteInfo] = decode(list[NoteInfo], await self._call("notes"))
        return result

    async def note(self, name: str) -> Note:
        return decode_as(Note, await self._call("note", name=name))

    async def search(self, query: str, *, k: int = SEARCH_K) -> list[Hit]:
        result: list[Hit] = decode(list[Hit], await self._call("search", query=query, k=k))
        return result

    async def day_record(self, day: date) -> DayRecord:
        return decode_as(DayRecord, await self._call("day_record", day=day.isoformat()))

    async def remember(self, fact: str, *, category: str = "person", subject: str = "") -> Fact:
        raw = await self._call("remember", fact=fact, category=category, subject=subject)
        return decode_as(Fact, raw)

    async def memory_index(self) -> str:
        return str(decode(str, await self._call("memory_index")))

    async def command(self, text: str, *, conversation: str = "terminal") -> str:
        return str(decode(str, await self._call("command", text=text, conversation=conversation)))

    async def digest(self, day: date | None = None) -> Digest:
        raw = await self._call("digest", day=None if day is None else day.isoformat())
        return decode_as(Digest, raw)

    async def send_digest(self, day: date | None = None) -> DigestSent:
        raw = await self._call("send_digest", day=None if day is None else day.isoformat())
        return decode_as(DigestSent, raw)

    async def forget_receipts(self) -> list[ReceiptInfo]:
        result: list[ReceiptInfo] = decode(list[ReceiptInfo], await self._call("forget_receipts"))
        return result

    async def verify_forget(self, receipt: str) -> Verification:
        return decode_as(Verification, await self._call("verify_forget", receipt=receipt))

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


def _day(day: date | None) -> str | None:
    return None if day is None else day.isoformat()
