"""The interface front-ends (the TUI, `kit chat`, `kit rem`) use, whether Kit runs in this
process or in a daemon reached over the control socket. Front-ends never know which.

Implementations: `LocalClient` (in-process, wraps a `Kit`) lives here; the socket client
lives with the daemon (kit/daemon/).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import date, datetime
from typing import Literal, Protocol

from kit.api import Kit
from kit.clock import day_bounds, local_date
from kit.curator.records import PassRecord
from kit.curator.reports import OwnerChange, RemProgress, RemReport, UndoResult
from kit.digest.model import Digest, DigestSent
from kit.errors import InputError
from kit.inbox.service import Answered
from kit.inbox.store import Question
from kit.llm.base import TextSink
from kit.memory.budget import BudgetState
from kit.memory.days import Day
from kit.memory.facts import Fact, HistoryEntry, Provenance, check_category
from kit.memory.forget_findings import Verification
from kit.memory.forget_receipts import ReceiptInfo
from kit.memory.messages import ChatHistory
from kit.memory.plan import ContextReport
from kit.memory.search import Hit
from kit.memory.vectors import KINDS, NOTES
from kit.model_settings import model_role
from kit.notes.store import Note, NoteInfo
from kit.reminders.store import Notice, Reminder
from kit.tools import (
    MAX_QUERY_CHARS,
    REMEMBERED_CONFIDENCE,
    DayRecord,
    read_day,
    screen_fact,
)
from kit.turn import TurnResult
from kit.untrusted.clean import clean_text

ProgressSink = Callable[[RemProgress], Awaitable[None]]

# The channel of the local owner's conversations (terminal, TUI, control socket): one
# conversation whichever front-end, daemon or not, carries it.
LOCAL_CHANNEL = "terminal"

# `search`: how many hits a caller may ask for, and how long a query may be (a question or a
# few names; a pasted document is not a query).
SEARCH_K = 10
MAX_SEARCH_K = 50


@dataclass(frozen=True)
class Status:
    mode: Literal["daemon", "standalone"]
    user_id: str
    chat_model: str
    small_model: str
    embedding_model: str | None  # None: lexical search only
    tokens_today: int
    last_rem_at: datetime | None
    uptime_seconds: float
    background: BudgetState | None = None  # today's background token budget


class KitClient(Protocol):
    async def send(
        self, text: str, *, conversation: str = "terminal", on_text: TextSink | None = None
    ) -> TurnResult: ...

    async def chat_history(self, conversation: str = "terminal", *, limit: int = 20) -> ChatHistory:
        """The conversation's latest messages and rolling summary (for reopening it)."""
        ...

    async def days(self) -> list[Day]: ...

    async def day(self, day: date) -> Day | None: ...

    async def facts(
        self, *, category: str | None = None, include_inactive: bool = False, text: str = ""
    ) -> list[Fact]: ...

    async def fact_history(self, fact_id: int) -> list[HistoryEntry]: ...

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
    ) -> OwnerChange: ...

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
    ) -> OwnerChange: ...

    async def inbox(self, *, everything: bool = False) -> list[Question]:
        """Questions passes set aside for the owner (kit/inbox/): waiting ones, oldest first,
        or with `everything` answered, expired and withdrawn ones too, newest first."""
        ...

    async def answer_question(self, question_id: int, answer: str) -> Answered:
        """keep-old | take-new | keep-both: one owner pass (undoable)."""
        ...

    async def pin_fact(self, fact_id: int) -> OwnerChange: ...

    async def unpin_fact(self, fact_id: int) -> OwnerChange: ...

    async def deactivate_fact(self, fact_id: int, reason: str) -> OwnerChange: ...

    async def passes(self, *, limit: int = 20) -> list[PassRecord]:
        """Recent passes that changed something, newest first (to choose one to undo)."""
        ...

    async def undo_pass(self, pass_id: int) -> UndoResult: ...

    async def rem(
        self,
        *,
        dry_run: bool = False,
        only_date: date | None = None,
        on_progress: ProgressSink | None = None,
    ) -> RemReport: ...

    async def last_rem(self) -> RemReport | None: ...

    async def status(self) -> Status: ...

    async def context(self, text: str, *, conversation: str = "terminal") -> ContextReport: ...
    async def notes(self) -> list[NoteInfo]: ...

    async def note(self, name: str) -> Note: ...

    async def reminders(self) -> list[Reminder]: ...

    async def cancel_reminder(self, reminder_id: int) -> Reminder: ...

    async def reminder_notices(self, conversation: str | None = None) -> list[Notice]:
        """Reminders delivered to this front-end's conversations and not shown yet (each is
        handed out once)."""
        ...

    async def search(self, query: str, *, k: int = SEARCH_K) -> list[Hit]: ...

    async def day_record(self, day: date) -> DayRecord: ...

    async def remember(self, fact: str, *, category: str = "person", subject: str = "") -> Fact: ...

    async def memory_index(self) -> str: ...

    async def command(self, text: str, *, conversation: str = "terminal") -> str:
        """A chat's slash command (kit/channels/chat_commands.py), e.g. "/facts people": its
        reply as text. Nothing is stored and no model is asked (except /rem's)."""
        ...

    async def digest(self, day: date | None = None) -> Digest:
        """A digest day's memory digest (kit/digest/); the open day's without `day`."""
        ...

    async def send_digest(self, day: date | None = None) -> DigestSent:
        """Send a digest now (the open day's without `day`) on the channels live in the
        engine: the daemon's Telegram. Standalone, there is none: a KitError says so."""

    async def forget_receipts(self) -> list[ReceiptInfo]:
        """The receipts of past `kit forget`s, oldest first (counts and hashes, no content)."""
        ...

    async def verify_forget(self, receipt: str) -> Verification:
        """Whether anything a forget erased is back or left (`kit forget --verify`). Reads
        only. `receipt`: its id (a saved receipt file only in-process)."""
        ...


class LocalClient:
    """`KitClient` on an in-process `Kit`: what `kit chat`, `kit rem` and the TUI use when no
    daemon runs, and what the daemon's control socket delegates to when one does."""

    def __init__(
        self,
        kit: Kit,
        started_at: datetime,
        *,
        user: str | None = None,
        mode: Literal["daemon", "standalone"] = "standalone",
    ) -> None:
        self.kit = kit
        self._services = kit.services
        self._started_at = started_at
        self._user = user or kit.settings.owner.user_id
        self._mode = mode

    @property
    def user_id(self) -> str:
        return self._user

    async def send(
        self, text: str, *, conversation: str = "terminal", on_text: TextSink | None = None
    ) -> TurnResult:
        return await self.kit.send(
            text, user=self._user, channel=LOCAL_CHANNEL, conversation=conversation, on_text=on_text
        )

    async def chat_history(self, conversation: str = "terminal", *, limit: int = 20) -> ChatHistory:
        return await self.kit.chat_history(
            conversation, user=self._user, channel=LOCAL_CHANNEL, limit=limit
        )

    async def days(self) -> list[Day]:
        return await self.kit.days(user=self._user)

    async def day(self, day: date) -> Day | None:
        return await self.kit.day(day, user=self._user)

    async def facts(
        self, *, category: str | None = None, include_inactive: bool = False, text: str = ""
    ) -> list[Fact]:
        facts = await self.kit.facts(
            user=self._user, category=category, include_inactive=include_inactive
        )
        needle = text.strip().casefold()
        if not needle:
            return facts
        return [f for f in facts if needle in f"{f.subject}\n{f.content}".casefold()]

    async def fact_history(self, fact_id: int) -> list[HistoryEntry]:
        return await self.kit.fact_history(fact_id, user=self._user)

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
        return await self.kit.add_fact(
            content,
            category=category,
            subject=subject,
            pinned=pinned,
            expires=expires,
            since=since,
            until=until,
            user=self._user,
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
        return await self.kit.edit_fact(
            fact_id,
            content,
            subject=subject,
            expires=expires,
            clear_expiry=clear_expiry,
            since=since,
            until=until,
            user=self._user,
        )

    async def inbox(self, *, everything: bool = False) -> list[Question]:
        return await self.kit.inbox(user=self._user, everything=everything)

    async def answer_question(self, question_id: int, answer: str) -> Answered:
        return await self.kit.answer_question(question_id, answer, user=self._user)

    async def pin_fact(self, fact_id: int) -> OwnerChange:
        return await self.kit.pin_fact(fact_id, user=self._user)

    async def unpin_fact(self, fact_id: int) -> OwnerChange:
        return await self.kit.unpin_fact(fact_id, user=self._user)

    async def deactivate_fact(self, fact_id: int, reason: str) -> OwnerChange:
        return await self.kit.forget_fact(fact_id, reason=reason, user=self._user)

    async def passes(self, *, limit: int = 20) -> list[PassRecord]:
        return await self.kit.passes(user=self._user, limit=limit)

    async def undo_pass(self, pass_id: int) -> UndoResult:
        return await self._services.curator.undo(self._user, pass_id)

    async def rem(
        self,
        *,
        dry_run: bool = False,
        only_date: date | None = None,
        on_progress: ProgressSink | None = None,
    ) -> RemReport:
        return await self._services.rem.run(
            self._user, dry_run=dry_run, only_date=only_date, on_progress=on_progress
        )

    async def last_rem(self) -> RemReport | None:
        return await self._services.rem.last_report(self._user)

    async def context(self, text: str, *, conversation: str = "terminal") -> ContextReport:
        plan = await self.kit.context(
            text, user=self._user, channel=LOCAL_CHANNEL, conversation=conversation
        )
        return plan.report()

    async def reminders(self) -> list[Reminder]:
        return await self._services.reminders.active(self._user)

    async def cancel_reminder(self, reminder_id: int) -> Reminder:
        return await self._services.reminders.cancel(self._user, reminder_id)

    async def reminder_notices(self, conversation: str | None = None) -> list[Notice]:
        reminders = self._services.reminders
        if self._mode == "standalone":
            # No daemon fires them: local reminders that fell due come out at the next open.
            await reminders.dispatcher.run_due()
        return await reminders.take_notices(self._user, conversation)

    async def notes(self) -> list[NoteInfo]:
        return await self.kit.notes(user=self._user)

    async def note(self, name: str) -> Note:
        return await self.kit.note(name, user=self._user)

    async def search(self, query: str, *, k: int = SEARCH_K) -> list[Hit]:
        """The best `k` hits across facts, day summaries, messages and notes. Reads only (no
        access counts move: whoever asked is not a turn of Kit's)."""
        query = check_search(query, k)
        hits = await self.kit.search(query, user=self._user, k=k, kinds=(*KINDS, NOTES))
        return hits[:k]

    async def day_record(self, day: date) -> DayRecord:
        s = self._services
        return await read_day(s.days, s.messages, self._user, day)

    async def remember(self, fact: str, *, category: str = "person", subject: str = "") -> Fact:
        """Store a fact the owner asked to keep, screened like the chat's `remember` (one
        sentence, no secrets); the same text as an active fact returns that fact."""
        content, subject = clean_text(fact).strip(), clean_text(subject).strip()
        if not content:
            raise InputError("Not stored: the fact is empty; say it in one sentence")
        screen_fact(content, subject)
        check_category(category)
        s = self._services
        stored, added = await s.facts.add_unless_known(
            self._user,
            category=category,
            content=content,
            subject=subject,
            confidence=REMEMBERED_CONFIDENCE,
            provenance=Provenance(
                actor="remember", reason="the owner asked to remember it, through a Kit client"
            ),
        )
        if added:
            s.background.notify()  # embed it: searchable by meaning, not only by its words
        return stored

    async def memory_index(self) -> str:
        return await self.kit.memory_index(user=self._user)

    async def command(self, text: str, *, conversation: str = "terminal") -> str:
        from kit.channels.chat_commands import ChatCommands

        commands = ChatCommands(self.kit.services, channel=conversation)
        return await commands.dispatch(self._user, clean_text(text))

    async def digest(self, day: date | None = None) -> Digest:
        return await self._services.digest.read(self._user, day)

    async def send_digest(self, day: date | None = None) -> DigestSent:
        return await self._services.digest.send_now(self._user, day)

    async def forget_receipts(self) -> list[ReceiptInfo]:
        return await self.kit.forget_receipts(user=self._user)

    async def verify_forget(self, receipt: str) -> Verification:
        return await self.kit.verify_forget(receipt, user=self._user)

    async def status(self) -> Status:
        s = self._services
        now = s.clock.now()
        midnight, _ = day_bounds(local_date(now, s.tz), s.tz)
        usage = await s.usage.totals_since(midnight)
        embedder = s.vectors.embedder
        last = await self.last_rem()
        return Status(
            mode=self._mode,
            user_id=self._user,
            chat_model=model_role(s.settings.llm, "chat").model,
            small_model=model_role(s.settings.llm, "background").model,
            embedding_model=None if embedder is None else embedder.model_id,
            tokens_today=usage.input_tokens + usage.output_tokens,
            last_rem_at=None if last is None else last.finished_at,
            uptime_seconds=max(0.0, (now - self._started_at).total_seconds()),
            background=await s.budget.state(self._user),
        )


def check_search(query: str, k: int) -> str:
    """The query, cleaned; InputError for an empty or overlong one or a `k` out of range."""
    cleaned = clean_text(query).strip()
    if not cleaned:
        raise InputError("the search query is empty; ask for names, topics or dates")
    if len(cleaned) > MAX_QUERY_CHARS:
        raise InputError(
            f"the search query is too long ({len(cleaned):,} characters; the limit is "
            f"{MAX_QUERY_CHARS:,}); search for the few words that matter"
        )
    if isinstance(k, bool) or not 1 <= k <= MAX_SEARCH_K:
        raise InputError(f"k must be a whole number from 1 to {MAX_SEARCH_K} (got {k!r})")
    return cleaned
