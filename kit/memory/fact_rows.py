"""What a fact is, as data: the `Fact` and its `HistoryEntry`, their columns and how a row reads,
and the checks every route applies to a fact's fields. kit/memory/fact_writer.py writes them,
kit/memory/facts.py reads them.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

from kit.clock import from_iso, to_iso
from kit.config import CATEGORIES
from kit.errors import InputError
from kit.memory.frozen import made

# A fact whose confidence is below this is no longer shown to the model (core facts, retrieval,
# search); a pinned fact always is. The curator stores nothing below 0.6, so only a deliberate
# cut takes a fact here, and the curation guard counts that cut as taking the fact out of use.
MIN_SHOWN_CONFIDENCE = 0.2

# The longest a fact's content may be, by any route: the curator's operations, `remember`, the
# owner's own edits (one sentence, not a document; a note holds a document).
MAX_CONTENT_CHARS = 2000


@dataclass(frozen=True)
class Fact:
    id: int
    user_id: str
    category: str
    subject: str
    content: str
    confidence: float
    expires_at: datetime | None
    active: bool
    pinned: bool
    created_at: datetime
    updated_at: datetime
    access_count: int
    last_accessed_at: datetime | None
    replaced_by: int | None
    # The owner wrote its current content (`kit facts add` / `edit`); see `owner_held`.
    owner_written: bool = False
    # Since when it holds in the world and, once closed (superseded, retired, expired), until
    # when: taken from the messages it was learned from, not from when Kit wrote it down
    # (m025; kit/memory/fact_times.py answers "what held on that day" from them).
    valid_from: datetime | None = None
    valid_until: datetime | None = None

    @property
    def holds_since(self) -> datetime:
        """When it started to hold (a fact from before m025 without one: when it was written)."""
        return self.valid_from or self.created_at

    @property
    def owner_held(self) -> bool:
        """The owner's: pinned, or its current content written by the owner. The curator and
        REM never change such a fact on their own (an operation on one asks the owner first,
        kit/inbox/)."""
        return self.pinned or self.owner_written

    def is_live(self, now: datetime) -> bool:
        """Active, not expired and confident enough: the only facts ever shown to the model."""
        return (
            self.active
            and (self.expires_at is None or self.expires_at > now)
            and (self.pinned or self.confidence >= MIN_SHOWN_CONFIDENCE)
        )

    def snapshot(self) -> dict[str, Any]:
        """The fields history records (what a fact said, not its access stats)."""
        return {
            "category": self.category,
            "subject": self.subject,
            "content": self.content,
            "confidence": self.confidence,
            "expires_at": None if self.expires_at is None else to_iso(self.expires_at),
            "active": self.active,
            "pinned": self.pinned,
            "replaced_by": self.replaced_by,
            "owner_written": self.owner_written,
            "valid_from": None if self.valid_from is None else to_iso(self.valid_from),
            "valid_until": None if self.valid_until is None else to_iso(self.valid_until),
        }


@dataclass(frozen=True)
class HistoryEntry:
    id: int
    fact_id: int
    at: datetime
    actor: str
    operation: str
    pass_id: int | None
    reason: str
    before: dict[str, Any] | None
    after: dict[str, Any] | None
    source_message_ids: tuple[int, ...]
    # True for curation history written before m007: the ids are the whole batch the change
    # was learned in, not the messages it was learned from.
    sources_are_batch: bool = False


FACT_COLUMNS = (
    "id, user_id, category, subject, content, confidence, expires_at, active, pinned,"
    " created_at, updated_at, access_count, last_accessed_at, replaced_by, owner_written,"
    " valid_from, valid_until"
)


def fact_from_row(row: Sequence[Any]) -> Fact:
    """A row of `FACT_COLUMNS` as a Fact (kit/memory/frozen.py: without `__init__`)."""
    return made(
        Fact,
        {
            "id": row[0],
            "user_id": row[1],
            "category": row[2],
            "subject": row[3],
            "content": row[4],
            "confidence": float(row[5]),
            "expires_at": None if row[6] is None else from_iso(row[6]),
            "active": bool(row[7]),
            "pinned": bool(row[8]),
            "created_at": from_iso(row[9]),
            "updated_at": from_iso(row[10]),
            "access_count": int(row[11]),
            "last_accessed_at": None if row[12] is None else from_iso(row[12]),
            "replaced_by": row[13],
            "owner_written": bool(row[14]),
            "valid_from": None if row[15] is None else from_iso(row[15]),
            "valid_until": None if row[16] is None else from_iso(row[16]),
        },
    )


def check_category(category: str) -> None:
    if category not in CATEGORIES:
        raise InputError(f"unknown fact category {category!r}; use one of: {', '.join(CATEGORIES)}")


def validate_fact_fields(category: str, content: str, confidence: float) -> None:
    check_category(category)
    if not content.strip():
        raise InputError("a fact needs some content; it was empty")
    if not 0.0 <= confidence <= 1.0:
        raise InputError(f"confidence must be between 0 and 1 (got {confidence})")


HISTORY_COLUMNS = (
    "id, fact_id, at, actor, operation, pass_id, reason, before_json, after_json,"
    " source_message_ids, sources_are_batch"
)


def history_entry(r: Sequence[Any]) -> HistoryEntry:
    """A fact_history row (its HISTORY_COLUMNS) as an entry."""
    return HistoryEntry(
        id=r[0],
        fact_id=r[1],
        at=from_iso(r[2]),
        actor=r[3],
        operation=r[4],
        pass_id=r[5],
        reason=r[6],
        before=None if r[7] is None else json.loads(r[7]),
        after=None if r[8] is None else json.loads(r[8]),
        source_message_ids=tuple(json.loads(r[9])),
        sources_are_batch=bool(r[10]),
    )


def fact_dict(fact: Fact) -> dict[str, Any]:
    """JSON-ready form for `--json` output and the control socket."""
    data = asdict(fact)
    for key in (
        "expires_at",
        "created_at",
        "updated_at",
        "last_accessed_at",
        "valid_from",
        "valid_until",
    ):
        if data[key] is not None:
            data[key] = to_iso(data[key])
    return data
