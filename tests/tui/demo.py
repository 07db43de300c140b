"""A deterministic, in-memory `KitClient` for snapshot tests and the screenshots in
docs/screenshots/.

Pilot tests run the TUI against the real engine (`LocalClient` over an in-process Kit); the
snapshots need data that renders the same on every machine and in any event loop, which an
SQLite-backed Kit opened in the test's loop cannot offer to the snapshot's own loop.
"""

from __future__ import annotations

import dataclasses
from datetime import UTC, date, datetime, time, timedelta

from kit.access.tokens import Grant, NewToken, TokenInfo, TokenUse
from kit.chat_commands import command_name, unknown_command
from kit.context.plan import ContextItem, ContextReport, ContextSection
from kit.curator.questions import Question
from kit.curator.records import PassRecord
from kit.curator.reports import REM_STEPS, OwnerChange, RemProgress, RemReport, UndoResult
from kit.digest.model import Digest, DigestSent
from kit.errors import NotFound, Unauthorized
from kit.forget.findings import Verification
from kit.forget.receipts import ReceiptInfo
from kit.inbox.service import Answered
from kit.llm.base import TextSink, Usage
from kit.memory.days import Day
from kit.memory.fact_rows import Fact, HistoryEntry
from kit.memory.messages import ChatHistory
from kit.notes.store import Note, NoteInfo
from kit.reminders.store import Notice, Reminder
from kit.retrieval.hits import Hit
from kit.surface import SEARCH_K, ProgressSink, Status
from kit.tools import DayRecord
from kit.turn import TurnResult
from tests.tui.demo_data import (
    DAYS,
    DIGEST,
    EARLIER,
    FACTS,
    HISTORY,
    LAST_REM,
    NOTE_TEXTS,
    NOTES,
    NOW,
    PASSES,
    REMINDERS,
    make_fact,
)


class DemoClient:
    """Answers every `KitClient` call from the fixed data above."""

    def __init__(self, *, mode: str = "standalone", reply: str = "") -> None:
        self.mode = mode
        self.reply = reply or (
            "Ana prefers **oat-milk flat whites**. Near Rossio, try a café on Rua do Ouro."
        )
        self.facts_by_id = {f.id: f for f in FACTS}
        self.reminders_by_id = {r.id: r for r in REMINDERS}
        self.sent: list[str] = []
        self.undone: list[int] = []
        self.next_pass = 20  # the owner's changes are recorded as passes after the demo's

    async def send(
        self, text: str, *, conversation: str = "terminal", on_text: TextSink | None = None
    ) -> TurnResult:
        self.sent.append(text)
        if on_text is not None:
            for start in range(0, len(self.reply), 16):
                await on_text(self.reply[start : start + 16])
        return TurnResult(
            reply=self.reply,
            user_message_id=len(self.sent) * 2 - 1,
            reply_message_id=len(self.sent) * 2,
            conversation_id=1,
            fact_ids=(1, 3),
            days=(date(2026, 3, 1),),
            usage=Usage(900, 40),
        )

    async def chat_history(self, conversation: str = "terminal", *, limit: int = 20) -> ChatHistory:
        return EARLIER

    async def days(self) -> list[Day]:
        return list(DAYS)

    async def day(self, day: date) -> Day | None:
        return next((d for d in DAYS if d.day == day), None)

    async def facts(
        self, *, category: str | None = None, include_inactive: bool = False, text: str = ""
    ) -> list[Fact]:
        needle = text.casefold()
        return [
            f
            for f in self.facts_by_id.values()
            if (include_inactive or f.active)
            and (category is None or f.category == category)
            and needle in f"{f.subject}\n{f.content}".casefold()
        ]

    async def fact_history(self, fact_id: int) -> list[HistoryEntry]:
        if fact_id not in self.facts_by_id:
            raise NotFound(f"fact {fact_id} does not exist")
        return list(HISTORY.get(fact_id, ()))

    def _owner_change(self, operation: str, fact: Fact) -> OwnerChange:
        self.facts_by_id[fact.id] = fact
        self.next_pass += 1
        return OwnerChange(self.next_pass, operation, fact)

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
        fact = make_fact(max(self.facts_by_id) + 1, category, subject, content, 1.0, created=NOW)
        return self._owner_change("add", dataclasses.replace(fact, owner_written=True))

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
        old = self.facts_by_id[fact_id]
        fact = dataclasses.replace(
            old,
            content=old.content if content is None else content,
            subject=old.subject if subject is None else subject,
            owner_written=True,
        )
        return self._owner_change("edit", fact)

    async def pin_fact(self, fact_id: int) -> OwnerChange:
        fact = dataclasses.replace(self.facts_by_id[fact_id], pinned=True)
        return self._owner_change("pin", fact)

    async def unpin_fact(self, fact_id: int) -> OwnerChange:
        fact = dataclasses.replace(self.facts_by_id[fact_id], pinned=False)
        return self._owner_change("unpin", fact)

    async def deactivate_fact(self, fact_id: int, reason: str) -> OwnerChange:
        fact = dataclasses.replace(self.facts_by_id[fact_id], active=False)
        return self._owner_change("retire", fact)

    async def passes(self, *, limit: int = 20) -> list[PassRecord]:
        return list(PASSES)

    async def undo_pass(self, pass_id: int) -> UndoResult:
        self.undone.append(pass_id)
        return UndoResult(pass_id, (), ())

    async def inbox(self, *, everything: bool = False) -> list[Question]:
        return []  # the demo asks nothing: the snapshots show no inbox

    async def answer_question(self, question_id: int, answer: str) -> Answered:
        raise NotFound(f"inbox question {question_id} does not exist")

    async def rem(
        self,
        *,
        dry_run: bool = False,
        only_date: date | None = None,
        on_progress: ProgressSink | None = None,
    ) -> RemReport:
        if on_progress is not None:
            for step in REM_STEPS:
                await on_progress(RemProgress(step, "running"))
                await on_progress(RemProgress(step, "done"))
        return dataclasses.replace(LAST_REM, dry_run=dry_run)

    async def last_rem(self) -> RemReport | None:
        return LAST_REM

    async def notes(self) -> list[NoteInfo]:
        return list(NOTES)

    async def note(self, name: str) -> Note:
        info = next((n for n in NOTES if n.name == name), None)
        if info is None:
            raise NotFound(f"there is no note named {name!r}")
        return Note(info, NOTE_TEXTS[name][1])

    async def status(self) -> Status:
        return Status(
            mode="daemon" if self.mode == "daemon" else "standalone",
            user_id="owner",
            chat_model="claude-sonnet-4-5",
            small_model="claude-haiku-4-5",
            embedding_model="sentence-transformers/all-MiniLM-L6-v2",
            tokens_today=12_345,
            last_rem_at=LAST_REM.finished_at,
            uptime_seconds=3600.0,
        )

    async def reminders(self) -> list[Reminder]:
        active = [r for r in self.reminders_by_id.values() if r.status == "active"]
        return sorted(active, key=lambda r: (r.next_fire or NOW, r.id))

    async def cancel_reminder(self, reminder_id: int) -> Reminder:
        reminder = dataclasses.replace(
            self.reminders_by_id[reminder_id], status="cancelled", next_fire=None
        )
        self.reminders_by_id[reminder_id] = reminder
        return reminder

    async def reminder_notices(self, conversation: str | None = None) -> list[Notice]:
        return []

    async def context(self, text: str, *, conversation: str = "terminal") -> ContextReport:
        """The live facts as the core section (the demo has no ranking to show)."""
        items = tuple(
            ContextItem("fact", f.id, f.content, len(f.content) // 4, "core: always shown")
            for f in self.facts_by_id.values()
            if f.active
        )
        tokens = sum(item.tokens for item in items)
        core = ContextSection("core", "Core facts", True, tokens, items)
        return ContextReport(text, (), (core,), (), tokens, tokens, 4_000, 0)

    async def search(self, query: str, *, k: int = SEARCH_K) -> list[Hit]:
        """Active facts sharing a word with the query, those sharing most first."""
        words = set(query.casefold().split())
        scored = [
            (len(words & set(f"{f.subject} {f.content}".casefold().split())), f)
            for f in self.facts_by_id.values()
            if f.active
        ]
        ranked = sorted((pair for pair in scored if pair[0]), key=lambda p: (-p[0], p[1].id))
        return [
            Hit("fact", f.id, f.content, float(shared), f.updated_at, fact=f)
            for shared, f in ranked[:k]
        ]

    async def day_record(self, day: date) -> DayRecord:
        return DayRecord(day, next((d for d in DAYS if d.day == day), None))

    async def remember(self, fact: str, *, category: str = "person", subject: str = "") -> Fact:
        stored = make_fact(max(self.facts_by_id) + 1, category, subject, fact, 0.9, created=NOW)
        self.facts_by_id[stored.id] = stored
        return stored

    async def memory_index(self) -> str:
        categories = sorted({f.category for f in self.facts_by_id.values() if f.active})
        return "## Memory index\n" + "\n".join(f"- {c}" for c in categories)

    async def command(self, text: str, *, conversation: str = "terminal") -> str:
        """`/facts` lists the demo's live facts; any other command is not known here."""
        name = command_name(text) or ""
        if name != "facts":
            return unknown_command(name)
        live = [f for f in self.facts_by_id.values() if f.active]
        return "\n".join(f"#{f.id} ({f.category}) {f.content}" for f in live)

    async def digest(self, day: date | None = None) -> Digest:
        if day is None or day == DIGEST.day:
            return DIGEST
        since = datetime.combine(day - timedelta(days=1), time(21), tzinfo=UTC)
        return Digest("owner", day, since, since + timedelta(days=1))

    async def send_digest(self, day: date | None = None) -> DigestSent:
        return DigestSent("owner", day or DIGEST.day, "sent", 1, 1)

    async def forget_receipts(self) -> list[ReceiptInfo]:
        return []  # nothing was ever forgotten in the demo

    async def verify_forget(self, receipt: str) -> Verification:
        raise NotFound(f"no forget receipt {receipt} in the memory of 'owner'")  # none was made

    async def create_access_token(
        self, name: str, *, read_only: bool = False, expires_days: int | None = None
    ) -> NewToken:
        info = TokenInfo(name, read_only, NOW, None, None, None)
        return NewToken("kit_000000000000_" + "d" * 43, info)  # the demo serves no one

    async def access_tokens(self) -> list[TokenInfo]:
        return []

    async def revoke_access_token(self, name: str) -> TokenInfo:
        raise NotFound(f"no token named {name!r} to revoke in the memory of 'owner'")

    async def access_log(self, *, limit: int = 50) -> list[TokenUse]:
        return []

    async def authorize(self, token: str, *, call: str = "", peer: str = "") -> Grant:
        raise Unauthorized("the demo takes no remote calls")
