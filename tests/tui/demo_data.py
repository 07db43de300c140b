"""The demo's fixed data (tests/tui/demo.py answers from it): facts with their history, days,
the conversation as it was left, passes, the last REM, reminders and notes, around one `NOW`."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from kit.curator.records import PassRecord
from kit.curator.reports import REM_STEPS, RemProgress, RemReport
from kit.digest.model import Digest, DigestLine, DigestPass, DigestQuestion
from kit.memory.days import Day
from kit.memory.fact_rows import Fact, HistoryEntry
from kit.memory.messages import ChatHistory, Message
from kit.notes.store import NoteInfo
from kit.reminders.store import Reminder

NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def _at(days_ago: float, hour: int = 9) -> datetime:
    return (NOW - timedelta(days=days_ago)).replace(hour=hour, minute=0)


def make_fact(
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
    make_fact(
        1,
        "person",
        "Ana",
        "Lives in Lisbon and works as a landscape architect",
        0.95,
        used=12,
        last_used=_at(1),
    ),
    make_fact(
        2, "people", "Rui", "Ana's brother; birthday on 3 May", 0.9, used=3, last_used=_at(6)
    ),
    make_fact(
        3,
        "preferences",
        "coffee",
        "Prefers oat-milk flat whites, no sugar",
        0.85,
        used=5,
        last_used=_at(2),
    ),
    make_fact(
        4,
        "projects",
        "garden app",
        "Building a planting-calendar app in Kotlin",
        0.8,
        used=7,
        last_used=_at(1),
    ),
    make_fact(5, "technical", "laptop", "Uses a 2021 ThinkPad X1 running Fedora 41", 0.75),
    make_fact(
        6,
        "workflows",
        "planning",
        "Plans the week on Sunday evenings in a paper notebook",
        0.7,
        expires_at=_at(-30),
        used=1,
        last_used=_at(8),
    ),
    make_fact(
        7, "entities", "Tasca do Zé", "Favourite restaurant, Rua da Rosa 12", 0.6, active=False
    ),
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
    questions=(
        DigestQuestion(4, "person", "Kit would rewrite #1",
                       "[Ana] Lives in Lisbon and works as a landscape architect",
                       "[Ana] Lives in Porto and works as a landscape architect", _at(0, 14),
                       _at(-14, 14), ("keep-old", "take-new", "keep-both")),
    ),
    older_questions=1,
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
