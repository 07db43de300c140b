"""`LocalClient`: the operations front-ends use (declared once, as `KitClient`, in
kit/surface.py) carried out on an in-process `Kit`. The socket client and the TUI's follower
live with the daemon (kit/daemon/) and pass their calls on to one of these.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Literal

from kit.access.tokens import Grant, NewToken, TokenInfo, TokenUse
from kit.api import Kit
from kit.context.plan import ContextReport
from kit.curator.questions import Question
from kit.curator.records import PassRecord
from kit.curator.reports import OwnerChange, RemReport, UndoResult
from kit.digest.model import Digest, DigestSent
from kit.errors import InputError
from kit.forget.findings import Verification
from kit.forget.receipts import ReceiptInfo
from kit.inbox.service import Answered
from kit.llm.base import TextSink
from kit.memory.days import Day
from kit.memory.fact_rows import Fact, HistoryEntry
from kit.memory.messages import ChatHistory
from kit.model_settings import model_role
from kit.notes.store import Note, NoteInfo
from kit.reminders.store import Notice, Reminder
from kit.retrieval.hits import Hit
from kit.retrieval.kinds import KINDS, NOTES
from kit.surface import (
    LOCAL_CHANNEL,
    MAX_SEARCH_K,
    SEARCH_K,
    KitClient,
    ProgressSink,
    Status,
)
from kit.tools import (
    MAX_QUERY_CHARS,
    DayRecord,
)
from kit.turn import TurnResult
from kit.untrusted.clean import clean_text

# Declared in kit/surface.py; importable from here too, as before it existed.
__all__ = ["LOCAL_CHANNEL", "SEARCH_K", "KitClient", "LocalClient", "ProgressSink", "Status"]


class LocalClient(KitClient):
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
        return await self.kit.undo_pass(pass_id, user=self._user)

    async def rem(
        self,
        *,
        dry_run: bool = False,
        only_date: date | None = None,
        on_progress: ProgressSink | None = None,
    ) -> RemReport:
        return await self.kit.rem(
            user=self._user, dry_run=dry_run, only_date=only_date, on_progress=on_progress
        )

    async def last_rem(self) -> RemReport | None:
        return await self.kit.last_rem(user=self._user)

    async def context(self, text: str, *, conversation: str = "terminal") -> ContextReport:
        plan = await self.kit.context(
            text, user=self._user, channel=LOCAL_CHANNEL, conversation=conversation
        )
        return plan.report()

    async def reminders(self) -> list[Reminder]:
        return await self.kit.reminders(user=self._user)

    async def cancel_reminder(self, reminder_id: int) -> Reminder:
        return await self.kit.cancel_reminder(reminder_id, user=self._user)

    async def reminder_notices(self, conversation: str | None = None) -> list[Notice]:
        if self._mode == "standalone":
            # No daemon fires them: local reminders that fell due come out at the next open.
            await self.kit.deliver_due_reminders()
        return await self.kit.reminder_notices(conversation, user=self._user)

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
        return await self.kit.day_record(day, user=self._user)

    async def remember(self, fact: str, *, category: str = "person", subject: str = "") -> Fact:
        return await self.kit.ask_to_remember(
            fact, category=category, subject=subject, user=self._user
        )

    async def memory_index(self) -> str:
        return await self.kit.memory_index(user=self._user)

    async def command(self, text: str, *, conversation: str = "terminal") -> str:
        from kit.chat_commands import ChatCommands

        commands = ChatCommands(self.kit, channel=conversation)
        return await commands.dispatch(self._user, clean_text(text))

    async def digest(self, day: date | None = None) -> Digest:
        return await self.kit.digest(day, user=self._user)

    async def send_digest(self, day: date | None = None) -> DigestSent:
        return await self.kit.send_digest(day, user=self._user)

    async def forget_receipts(self) -> list[ReceiptInfo]:
        return await self.kit.forget_receipts(user=self._user)

    async def verify_forget(self, receipt: str) -> Verification:
        # In-process a saved receipt file's path is taken too; the control socket lets only
        # ids through (kit/surface.py's ReceiptId)
        return await self.kit.verify_forget(receipt, user=self._user)

    async def create_access_token(
        self, name: str, *, read_only: bool = False, expires_days: int | None = None
    ) -> NewToken:
        return await self.kit.create_access_token(
            name, read_only=read_only, expires_days=expires_days, user=self._user
        )

    async def access_tokens(self) -> list[TokenInfo]:
        return await self.kit.access_tokens(user=self._user)

    async def revoke_access_token(self, name: str) -> TokenInfo:
        return await self.kit.revoke_access_token(name, user=self._user)

    async def access_log(self, *, limit: int = 50) -> list[TokenUse]:
        return await self.kit.access_log(limit=limit, user=self._user)

    async def authorize(self, token: str, *, call: str = "", peer: str = "") -> Grant:
        return await self.kit.authorize(token, call=call, peer=peer)

    async def status(self) -> Status:
        kit, llm = self.kit, self.kit.settings.llm
        last = await self.last_rem()
        return Status(
            mode=self._mode,
            user_id=self._user,
            chat_model=model_role(llm, "chat").model,
            small_model=model_role(llm, "background").model,
            embedding_model=kit.embedding_model,
            tokens_today=await kit.tokens_today(),
            last_rem_at=None if last is None else last.finished_at,
            uptime_seconds=max(0.0, (kit.now() - self._started_at).total_seconds()),
            background=await kit.background_budget(user=self._user),
            reindex=await kit.reindex_progress(),
            vector_search=kit.vector_search,
            vector_search_after=self._serving_after(),
        )

    def _serving_after(self) -> float | None:
        since = self.kit.vector_search_since
        return None if since is None else max(0.0, (since - self._started_at).total_seconds())


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
