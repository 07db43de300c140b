"""`Follower`: the engine of a front-end that stays open for hours (the TUI), across the daemon
stopping and coming back.

It starts as `connect_to` does: the daemon over its socket when one holds the data directory,
else Kit in this process. When the daemon goes away (seen at once, because the daemon closes an
idle connection held open for that; or by a call that fails), the follower is *lost*: calls
fail at once with one clear reason, and `recover()`

- reconnects as soon as a daemon answers again (a restart by systemd, or by hand);
- when none has answered for `fallback_after` seconds, runs Kit in this process, but only after
  taking the data directory's lock: never a second writer beside a daemon;
- while another Kit holds the lock (a daemon still loading its model, another `kit tui`),
  keeps waiting for it.

Kit running here holds the lock until the front-end closes, so a daemon started meanwhile is
refused with this process's pid: close the front-end first (it then uses the daemon again
when reopened).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from datetime import date
from typing import Literal, TypeVar

from kit.client import SEARCH_K, KitClient, ProgressSink, Status
from kit.clock import Clock
from kit.config import Settings
from kit.curator.records import PassRecord
from kit.curator.reports import OwnerChange, RemReport, UndoResult
from kit.daemon.connect import READY_TIMEOUT, connect_to, engine_here
from kit.daemon.lock import DataDirLock
from kit.daemon.paths import socket_path
from kit.daemon.socket_client import DaemonUnavailable, SocketClient
from kit.digest.model import Digest, DigestSent
from kit.embed.base import Embedder
from kit.inbox.service import Answered
from kit.inbox.store import Question
from kit.llm.base import LLM, TextSink
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

T = TypeVar("T")
Mode = Literal["daemon", "standalone", "lost"]

# Long enough for systemd's restart (RestartSec=5 in contrib/kit.service) and a daemon's start,
# so a crash does not end with this front-end holding the data directory the daemon wants.
FALLBACK_AFTER = 15.0
MAX_POLL = 2.0  # seconds between looks for a daemon while lost, at most
CHECK_TIMEOUT = 5.0  # a daemon that takes longer than this to say its status is not answering


class Follower:
    """A `KitClient` that follows the data directory's engine. Open with `Follower.open`."""

    def __init__(
        self,
        settings: Settings,
        stack: AsyncExitStack,
        *,
        user: str | None,
        background: bool,
        fallback_after: float,
        llm: LLM | None,
        embedder: Embedder | None,
        clock: Clock | None,
    ) -> None:
        self._settings = settings
        self._stack = stack  # engines run here close with the follower
        self._user = user
        self._background = background
        self.fallback_after = fallback_after
        self._fakes = (llm, embedder, clock)
        self._client: KitClient | None = None
        self._lost = asyncio.Event()
        self.mode: Mode = "lost"

    @classmethod
    @asynccontextmanager
    async def open(
        cls,
        settings: Settings,
        *,
        user: str | None = None,
        background: bool = True,
        fallback_after: float = FALLBACK_AFTER,
        ready_timeout: float = READY_TIMEOUT,
        llm: LLM | None = None,
        embedder: Embedder | None = None,
        clock: Clock | None = None,
    ) -> AsyncIterator[Follower]:
        """Connect as `connect_to` does (and fail as it does); close what was opened here."""
        async with AsyncExitStack() as stack:
            follower = cls(
                settings,
                stack,
                user=user,
                background=background,
                fallback_after=fallback_after,
                llm=llm,
                embedder=embedder,
                clock=clock,
            )
            first = connect_to(
                settings,
                user=user,
                background=background,
                ready_timeout=ready_timeout,
                llm=llm,
                embedder=embedder,
                clock=clock,
            )
            follower._use(await stack.enter_async_context(first))
            yield follower

    @property
    def lost_reason(self) -> str:
        return (
            "the Kit daemon stopped; waiting for it to come back (Kit runs in this process "
            f"if it has not within {self.fallback_after:.0f}s)"
        )

    # -- following the engine -----------------------------------------------------------------

    async def wait_lost(self) -> None:
        """Return once the engine is gone. Kit in this process goes only when we do."""
        while (client := self._client) is not None:
            if not isinstance(client, SocketClient):
                await asyncio.Event().wait()  # until cancelled (the front-end closes)
                return
            closed = asyncio.ensure_future(client.wait_closed())
            flagged = asyncio.ensure_future(self._lost.wait())
            try:
                await asyncio.wait({closed, flagged}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for task in (closed, flagged):
                    task.cancel()
                await asyncio.gather(closed, flagged, return_exceptions=True)
            if self._client is not client:
                continue
            if await _answers(client):
                await asyncio.sleep(MAX_POLL)  # it closed an idle connection but lives on
            else:
                self._mark_lost(client)

    async def recover(self) -> Mode:
        """After a loss: the daemon again as soon as one answers, else (after
        `fallback_after` seconds, and only with the lock) Kit in this process."""
        loop = asyncio.get_running_loop()
        started = loop.time()
        delay = 0.05
        while self._client is None:
            probe = SocketClient(socket_path(self._settings.data_dir), user=self._user)
            if await _answers(probe):
                self._use(probe)
            elif loop.time() - started >= self.fallback_after:
                lock = DataDirLock(self._settings.data_dir)
                if lock.try_acquire("standalone") is None:
                    llm, embedder, clock = self._fakes
                    engine = engine_here(
                        self._settings,
                        lock,
                        user=self._user,
                        background=self._background,
                        llm=llm,
                        embedder=embedder,
                        clock=clock,
                    )
                    self._use(await self._stack.enter_async_context(engine))
            if self._client is None:
                await asyncio.sleep(delay)
                delay = min(delay * 2, MAX_POLL)
        return self.mode

    def _use(self, client: KitClient) -> None:
        self._client = client
        self.mode = "daemon" if isinstance(client, SocketClient) else "standalone"
        self._lost.clear()

    def _mark_lost(self, client: KitClient) -> None:
        if self._client is client:
            self._client = None
            self.mode = "lost"
            self._lost.set()

    async def _call(self, op: Callable[[KitClient], Awaitable[T]]) -> T:
        client = self._client
        if client is None:
            raise DaemonUnavailable(self.lost_reason)
        try:
            return await op(client)
        except DaemonUnavailable:
            self._mark_lost(client)
            raise

    # -- KitClient ----------------------------------------------------------------------------

    async def send(
        self, text: str, *, conversation: str = "terminal", on_text: TextSink | None = None
    ) -> TurnResult:
        return await self._call(lambda c: c.send(text, conversation=conversation, on_text=on_text))

    async def chat_history(self, conversation: str = "terminal", *, limit: int = 20) -> ChatHistory:
        return await self._call(lambda c: c.chat_history(conversation, limit=limit))

    async def days(self) -> list[Day]:
        return await self._call(lambda c: c.days())

    async def day(self, day: date) -> Day | None:
        return await self._call(lambda c: c.day(day))

    async def facts(
        self, *, category: str | None = None, include_inactive: bool = False, text: str = ""
    ) -> list[Fact]:
        return await self._call(
            lambda c: c.facts(category=category, include_inactive=include_inactive, text=text)
        )

    async def fact_history(self, fact_id: int) -> list[HistoryEntry]:
        return await self._call(lambda c: c.fact_history(fact_id))

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
        return await self._call(
            lambda c: c.add_fact(
                content,
                category=category,
                subject=subject,
                pinned=pinned,
                expires=expires,
                since=since,
                until=until,
            )
        )

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
        return await self._call(
            lambda c: c.edit_fact(
                fact_id,
                content,
                subject=subject,
                expires=expires,
                clear_expiry=clear_expiry,
                since=since,
                until=until,
            )
        )

    async def inbox(self, *, everything: bool = False) -> list[Question]:
        return await self._call(lambda c: c.inbox(everything=everything))

    async def answer_question(self, question_id: int, answer: str) -> Answered:
        return await self._call(lambda c: c.answer_question(question_id, answer))

    async def pin_fact(self, fact_id: int) -> OwnerChange:
        return await self._call(lambda c: c.pin_fact(fact_id))

    async def unpin_fact(self, fact_id: int) -> OwnerChange:
        return await self._call(lambda c: c.unpin_fact(fact_id))

    async def deactivate_fact(self, fact_id: int, reason: str) -> OwnerChange:
        return await self._call(lambda c: c.deactivate_fact(fact_id, reason))

    async def passes(self, *, limit: int = 20) -> list[PassRecord]:
        return await self._call(lambda c: c.passes(limit=limit))

    async def undo_pass(self, pass_id: int) -> UndoResult:
        return await self._call(lambda c: c.undo_pass(pass_id))

    async def rem(
        self,
        *,
        dry_run: bool = False,
        only_date: date | None = None,
        on_progress: ProgressSink | None = None,
    ) -> RemReport:
        return await self._call(
            lambda c: c.rem(dry_run=dry_run, only_date=only_date, on_progress=on_progress)
        )

    async def last_rem(self) -> RemReport | None:
        return await self._call(lambda c: c.last_rem())

    async def status(self) -> Status:
        return await self._call(lambda c: c.status())

    async def context(self, text: str, *, conversation: str = "terminal") -> ContextReport:
        return await self._call(lambda c: c.context(text, conversation=conversation))

    async def reminders(self) -> list[Reminder]:
        return await self._call(lambda c: c.reminders())

    async def cancel_reminder(self, reminder_id: int) -> Reminder:
        return await self._call(lambda c: c.cancel_reminder(reminder_id))

    async def reminder_notices(self, conversation: str | None = None) -> list[Notice]:
        return await self._call(lambda c: c.reminder_notices(conversation))

    async def notes(self) -> list[NoteInfo]:
        return await self._call(lambda c: c.notes())

    async def note(self, name: str) -> Note:
        return await self._call(lambda c: c.note(name))

    async def search(self, query: str, *, k: int = SEARCH_K) -> list[Hit]:
        return await self._call(lambda c: c.search(query, k=k))

    async def day_record(self, day: date) -> DayRecord:
        return await self._call(lambda c: c.day_record(day))

    async def remember(self, fact: str, *, category: str = "person", subject: str = "") -> Fact:
        return await self._call(lambda c: c.remember(fact, category=category, subject=subject))

    async def memory_index(self) -> str:
        return await self._call(lambda c: c.memory_index())

    async def command(self, text: str, *, conversation: str = "terminal") -> str:
        return await self._call(lambda c: c.command(text, conversation=conversation))

    async def digest(self, day: date | None = None) -> Digest:
        return await self._call(lambda c: c.digest(day))

    async def send_digest(self, day: date | None = None) -> DigestSent:
        return await self._call(lambda c: c.send_digest(day))

    async def forget_receipts(self) -> list[ReceiptInfo]:
        return await self._call(lambda c: c.forget_receipts())

    async def verify_forget(self, receipt: str) -> Verification:
        return await self._call(lambda c: c.verify_forget(receipt))


async def _answers(client: SocketClient) -> bool:
    """Whether a daemon answers on the socket now (its status, within CHECK_TIMEOUT)."""
    try:
        async with asyncio.timeout(CHECK_TIMEOUT):
            await client.status()
    except (DaemonUnavailable, TimeoutError):
        return False
    except Exception:  # shutting down, or a daemon this client cannot read: not usable
        return False
    return True
