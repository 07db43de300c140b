"""A deterministic, in-memory `KitClient` for snapshot tests and README screenshots.

Pilot tests run the TUI against the real engine (`LocalClient` over an in-process Kit); the
snapshots need data that renders the same on every machine and in any event loop, which an
SQLite-backed Kit opened in the test's loop cannot offer to the snapshot's own loop.
"""

from __future__ import annotations

import dataclasses
from datetime import UTC, date, datetime, time, timedelta

from kit.client import ProgressSink, Status
from kit.curator.records import PassRecord
from kit.curator.reports import REM_STEPS, OwnerChange, RemProgress, RemReport, UndoResult
from kit.digest.model import Digest, DigestLine, DigestPass, DigestSent
from kit.errors import NotFound
from kit.inbox.service import Answered
from kit.inbox.store import Question
from kit.llm.base import TextSink, Usage
from kit.memory.days import Day
from kit.memory.facts import Fact, HistoryEntry
from kit.memory.messages import ChatHistory, Message
from kit.notes.store import Note, NoteInfo
from kit.reminders.store import Notice, Reminder
from kit.turn import TurnResult

NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def _at(days_ago: float, hour: int = 9) -> datetime:
    return (NOW - timedelta(days=days_ago)).replace(hour=hour, minute=0)


def _fact(
    fact_id: int,
    category: str,
    subject: str,
    content: str,
    confidence: float,
    *,
    expires_at: datetime | None = None,
    active: bool = True,
    used: int = 0,
    last_used: datetime | None = None,
    created: datetime | None = None,
) -> Fact:
    created = created or _at(20)
    return Fact(
        id=fact_id,
        user_id="owner",
        category=category,
        subject=subject,
        content=content,
        confidence=confidence,
        expires_at=expires_at,
        active=active,
        pinned=False,
        created_at=created,
        updated_at=created,
        access_count=used,
        last_accessed_at=last_used,
        replaced_by=None,
    )


FACTS = (
    _fact(
        1,
        "person",
        "Ana",
        "Lives in Lisbon and works as a landscape architect",
        0.95,
        used=12,
        last_used=_at(1),
    ),
    _fact(2, "people", "Rui", "Ana's brother; birthday on 3 May", 0.9, used=3, last_used=_at(6)),
    _fact(
        3,
        "preferences",
        "coffee",
        "Prefers oat-milk flat whites, no sugar",
        0.85,
        used=5,
        last_used=_at(2),
    ),
    _fact(
        4,
        "projects",
        "garden app",
        "Building a planting-calendar app in Kotlin",
        0.8,
        used=7,
        last_used=_at(1),
    ),
    _fact(5, "technical", "laptop", "Uses a 2021 ThinkPad X1 running Fedora 41", 0.75),
    _fact(
        6,
        "workflows",
        "planning",
        "Plans the week on Sunday evenings in a paper notebook",
        0.7,
        expires_at=_at(-30),
        used=1,
        last_used=_at(8),
    ),
    _fact(7, "entities", "Tasca do Zé", "Favourite restaurant, Rua da Rosa 12", 0.6, active=False),
)

HISTORY = {
    1: (
        HistoryEntry(
            1,
            1,
            _at(20),
            "curator",
            "insert",
            3,
            "stated in conversation",
            None,
            {"content": FACTS[0].content},
            (11, 12),
        ),
        HistoryEntry(
            9,
            1,
            _at(5),
            "curator",
            "update",
            8,
            "confidence raised: confirmed again",
            {"confidence": 0.8},
            {"confidence": 0.95},
            (40,),
        ),
    ),
    7: (
        HistoryEntry(
            2,
            7,
            _at(20),
            "curator",
            "insert",
            3,
            "mentioned twice",
            None,
            {"content": FACTS[6].content},
            (13,),
        ),
        HistoryEntry(
            10,
            7,
            _at(4),
            "owner",
            "deactivate",
            None,
            "closed down last month",
            {"active": True},
            {"active": False},
            (),
        ),
    ),
}

DAYS = (
    Day(
        3,
        "owner",
        date(2026, 3, 1),
        "- Planned the week: garden app beta on Friday\n"
        "- Ana asked for a flat-white place near Rossio\n- Reviewed Kotlin coroutine notes",
        "",
        41,
        _at(1, 23),
        _at(1, 23),
        None,
    ),
    Day(
        2,
        "owner",
        date(2026, 2, 28),
        "- Fixed the planting-calendar sync bug\n- Called Rui about the May birthday dinner",
        "- Calendar sync fixed\n- Rui: birthday dinner plans",
        23,
        _at(2, 23),
        _at(1, 3),
        _at(1, 3),
    ),
    Day(
        1,
        "owner",
        date(2026, 2, 26),
        "- Long walk in Monsanto; ideas for the app's onboarding",
        "- Walk; onboarding ideas",
        9,
        _at(4, 23),
        _at(3, 3),
        _at(3, 3),
    ),
)


def _message(message_id: int, role: str, text: str, minutes: int) -> Message:
    at = _at(1, 18) + timedelta(minutes=minutes)
    return Message(message_id, "owner", 1, role, "", text, at, at.date(), None, "terminal")  # type: ignore[arg-type]


# Where the conversation stood when the TUI was last closed.
EARLIER = ChatHistory(
    messages=(
        _message(61, "user", "Remind me what Rui wanted for his birthday?", 0),
        _message(62, "assistant", "A **dinner in May**, somewhere with live fado.", 1),
    ),
    earlier=60,
    summary="- Planned the garden app beta for Friday\n- Ana is looking for a café near Rossio",
)

PASSES = (
    PassRecord(8, "owner", "curate", "person", _at(5), _at(5), "applied", "", {"operations": [{}]}),
    PassRecord(
        3, "owner", "curate", "people", _at(20), _at(20), "applied", "", {"operations": [{}, {}]}
    ),
)


def _line(kind: str, fact: Fact, detail: str, source: str, live: bool = True) -> DigestLine:
    text = f"[{fact.subject}] {fact.content}"
    return DigestLine(kind, fact.id, text, detail, source, _at(0, 14), live)  # type: ignore[arg-type]


DIGEST = Digest(
    "owner",
    NOW.date(),
    _at(1, 21),
    _at(0, 21),
    passes=(
        DigestPass(
            8,
            "curate",
            "preferences",
            _at(0, 14).replace(minute=35),
            "applied",
            (
                _line("learned", FACTS[2], "", "from your message at 14:02"),
                _line("changed", FACTS[3], "was: A garden app", "from your message at 14:05"),
            ),
        ),
    ),
    expired=(_line("expired", FACTS[6], "past its expiry", "", live=False),),
    refused=(
        DigestPass(9, "rem_review", "person", _at(0, 3), "rejected",
                   reason="operation 1 (update): fact #1 was written by the owner"),
    ),
)  # fmt: skip

LAST_REM = RemReport(
    started_at=_at(1, 3),
    finished_at=_at(1, 3) + timedelta(minutes=2),
    dry_run=False,
    condensed_days=(date(2026, 2, 28),),
    reviewed_facts=4,
    changes=("condensed 2026-02-28 (2 → 2 bullets)", "fact #6 expiry set to 2026-04-01"),
    expired_fact_ids=(),
    input_tokens=5120,
    output_tokens=640,
    steps=tuple(RemProgress(step, "done") for step in REM_STEPS),
)


REMINDERS = (
    Reminder(
        1,
        "owner",
        "telegram",
        "42",
        "reminder",
        "Call Ana about the cabin",
        "none",
        None,
        None,
        "active",
        NOW + timedelta(hours=8),
        NOW,
    ),
    Reminder(
        2,
        "owner",
        "terminal",
        "terminal",
        "task",
        "Give me the week's open items from memory",
        "weekly",
        "08:00",
        0,
        "active",
        NOW + timedelta(days=6, hours=23),
        NOW,
    ),
    Reminder(
        3,
        "owner",
        "telegram",
        "42",
        "reminder",
        "Take the pills",
        "daily",
        "21:00",
        None,
        "active",
        NOW + timedelta(hours=12),
        NOW,
    ),
)
NOTE_TEXTS = {
    "lisbon-packing": (
        "Packing list for the Lisbon weekend",
        "# Packing list for the Lisbon weekend\n\n## Clothes\n- linen shirts (2)\n"
        "- swimsuit\n- light jacket for the evenings\n\n## Other\n- passport\n"
        "- sunscreen\n- charger and adapter\n- book for the train",
    ),
    "pao-de-queijo": (
        "Pão de queijo (Ana's recipe)",
        "# Pão de queijo (Ana's recipe)\n\n- 500 g polvilho azedo\n- 250 ml milk\n"
        "- 120 ml oil\n- 2 eggs\n- 200 g grated cheese\n\nBake 25 minutes at 180 °C.",
    ),
}
NOTES = tuple(
    NoteInfo(
        id=i,
        user_id="owner",
        name=name,
        description=description,
        lines=text.count("\n") + 1,
        bytes=len(text.encode()),
        created_at=_at(10 - i),
        updated_at=_at(3 - i),
        revision_id=i,
    )
    for i, (name, (description, text)) in enumerate(sorted(NOTE_TEXTS.items()), 1)
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
        fact = _fact(max(self.facts_by_id) + 1, category, subject, content, 1.0, created=NOW)
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
        self, *, dry_run: bool = False, on_progress: ProgressSink | None = None
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

    async def digest(self, day: date | None = None) -> Digest:
        if day is None or day == DIGEST.day:
            return DIGEST
        since = datetime.combine(day - timedelta(days=1), time(21), tzinfo=UTC)
        return Digest("owner", day, since, since + timedelta(days=1))

    async def send_digest(self, day: date | None = None) -> DigestSent:
        return DigestSent("owner", day or DIGEST.day, "sent", 1, 1)
