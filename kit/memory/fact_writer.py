"""Changing facts: every change writes a history row, inside a caller's transaction, so a
curation pass (many operations) lands whole or not at all (`FactWriter`), and who made each
change and from which messages (`Provenance`). kit/memory/facts.py reads facts and offers
single-change conveniences that open their own transaction.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from kit.clock import from_iso, to_iso
from kit.errors import NotFound
from kit.memory.fact_rows import (
    FACT_COLUMNS,
    MIN_SHOWN_CONFIDENCE,
    Fact,
    fact_from_row,
    validate_fact_fields,
)
from kit.memory.hashes import content_hash
from kit.store.db import Transaction

# `Fact.is_live` in SQL; parameters: now (ISO), MIN_SHOWN_CONFIDENCE.
LIVE_SQL = (
    "active = 1 AND (expires_at IS NULL OR expires_at > ?) AND (pinned = 1 OR confidence >= ?)"
)


FORGOTTEN = "[forgotten at the owner's request]"


def _forgotten(snapshot_json: str | None) -> str | None:
    """A history snapshot with what the fact said erased (its shape and flags kept)."""
    if snapshot_json is None:
        return None
    snapshot = json.loads(snapshot_json)
    snapshot.update(subject="", content=FORGOTTEN)
    return json.dumps(snapshot)


@dataclass(frozen=True)
class Provenance:
    """Who changed a fact, and why, and from which messages: exactly the messages this change
    was learned from (the curator's citations, the turn of a `remember`), none for changes that
    learn nothing new (REM review, undo, the owner's own edits)."""

    actor: str  # owner | remember | curator | rem | api
    reason: str = ""
    pass_id: int | None = None
    source_message_ids: tuple[int, ...] = ()


class FactWriter:
    """Fact changes inside one transaction, each with its history row."""

    def __init__(self, tx: Transaction, user_id: str, now: datetime) -> None:
        self._tx = tx
        self._user_id = user_id
        self._now = now

    async def get(self, fact_id: int) -> Fact:
        row = await self._tx.fetchone(
            f"SELECT {FACT_COLUMNS} FROM facts WHERE id = ? AND user_id = ?",
            (fact_id, self._user_id),
        )
        if row is None:
            raise NotFound(f"fact {fact_id} does not exist; `kit facts` lists the ids")
        return fact_from_row(row)

    async def sources(self, fact_ids: Sequence[int]) -> tuple[int, ...]:
        """Every message these facts were learned from, over their whole history (what a
        merge of them inherits). Pre-m007 batch-wide ids are not sources and are left out."""
        if not fact_ids:
            return ()
        rows = await self._tx.fetchall(
            "SELECT source_message_ids FROM fact_history WHERE user_id = ?"
            f" AND sources_are_batch = 0 AND fact_id IN ({','.join('?' * len(fact_ids))})",
            (self._user_id, *fact_ids),
        )
        return tuple(sorted({i for (ids,) in rows for i in json.loads(ids)}))

    async def active_in(self, category: str) -> list[Fact]:
        rows = await self._tx.fetchall(
            f"SELECT {FACT_COLUMNS} FROM facts WHERE user_id = ? AND category = ? AND active = 1"
            " ORDER BY id",
            (self._user_id, category),
        )
        return [fact_from_row(r) for r in rows]

    async def live(self, containing: Collection[str] | None = None) -> list[Fact]:
        """The owner's live facts (`Fact.is_live`), of any category, oldest first; with
        `containing`, only those whose lower-cased text holds one of its words (the engine
        reads the rest, not Python)."""
        sql = f"SELECT {FACT_COLUMNS} FROM facts WHERE user_id = ? AND {LIVE_SQL}"
        params: list[Any] = [self._user_id, to_iso(self._now), MIN_SHOWN_CONFIDENCE]
        if containing is not None:
            if not containing:
                return []
            sql += " AND (" + " OR ".join("lower(content) LIKE ?" for _ in containing) + ")"
            params.extend(f"%{word}%" for word in sorted(containing))
        rows = await self._tx.fetchall(sql + " ORDER BY id", params)
        return [fact_from_row(r) for r in rows]

    async def insert(
        self,
        *,
        category: str,
        content: str,
        subject: str = "",
        confidence: float = 0.8,
        expires_at: datetime | None = None,
        pinned: bool = False,
        owner_written: bool = False,
        provenance: Provenance,
        valid_from: datetime | None = None,
        valid_until: datetime | None = None,
        replaced_by: int | None = None,
        created_at: datetime | None = None,
        operation: str = "insert",
    ) -> Fact:
        """A new fact, holding since `valid_from` (default: now). With `valid_until` it is
        recorded closed: it held then and no longer does (inactive from the start)."""
        validate_fact_fields(category, content, confidence)
        now = to_iso(self._now)
        since = valid_from or self._now
        until = None if valid_until is None else max(valid_until, since)
        fact_id = await self._tx.insert(
            "INSERT INTO facts (user_id, category, subject, content, confidence, expires_at,"
            " active, pinned, owner_written, created_at, updated_at, content_hash, valid_from,"
            " valid_until, replaced_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                self._user_id,
                category,
                subject.strip(),
                content.strip(),
                confidence,
                None if expires_at is None else to_iso(expires_at),
                int(until is None),
                int(pinned),
                int(owner_written),
                now if created_at is None else to_iso(created_at),
                now,
                content_hash(subject.strip(), content.strip()),
                to_iso(since),
                None if until is None else to_iso(until),
                replaced_by,
            ),
        )
        fact = await self.get(fact_id)
        await self._history(fact_id, operation, provenance, None, fact)
        return fact

    async def update(
        self,
        fact_id: int,
        *,
        provenance: Provenance,
        content: str | None = None,
        subject: str | None = None,
        confidence: float | None = None,
        expires_at: datetime | None = None,
        clear_expiry: bool = False,
        pinned: bool | None = None,
        owner_written: bool | None = None,
        valid_from: datetime | None = None,
        operation: str = "update",
    ) -> Fact:
        """Change a fact in place (what it says is corrected, not replaced in the world: for
        that, `supersede`). `valid_from` moves when it is said to hold from."""
        before = await self.get(fact_id)
        after = replace(
            before,
            content=before.content if content is None else content.strip(),
            subject=before.subject if subject is None else subject.strip(),
            confidence=before.confidence if confidence is None else confidence,
            expires_at=None if clear_expiry else (expires_at or before.expires_at),
            pinned=before.pinned if pinned is None else pinned,
            owner_written=before.owner_written if owner_written is None else owner_written,
            valid_from=before.valid_from if valid_from is None else valid_from,
        )
        validate_fact_fields(after.category, after.content, after.confidence)
        await self._write(after)
        await self._history(fact_id, operation, provenance, before, after)
        return after

    async def deactivate(
        self,
        fact_id: int,
        *,
        provenance: Provenance,
        replaced_by: int | None = None,
        operation: str = "deactivate",
        at: datetime | None = None,
    ) -> Fact:
        """Take a fact out of use; it held until `at` (default: now), never before it began."""
        before = await self.get(fact_id)
        after = replace(
            before,
            active=False,
            replaced_by=replaced_by or before.replaced_by,
            valid_until=_not_before(at or self._now, before.holds_since),
        )
        await self._write(after)
        await self._history(fact_id, operation, provenance, before, after)
        return after

    async def note(self, fact_id: int, *, operation: str, provenance: Provenance) -> Fact:
        """A history row that changes nothing: a decision about the fact (the owner kept it
        over a proposed change, kit/inbox/), recorded where its life is told."""
        fact = await self.get(fact_id)
        await self._history(fact_id, operation, provenance, fact, fact)
        return fact

    async def restore(self, fact_id: int, snapshot: dict[str, Any], provenance: Provenance) -> Fact:
        """Put a fact back exactly as a history snapshot recorded it (used by undo)."""
        before = await self.get(fact_id)
        expiry = snapshot.get("expires_at")
        after = replace(
            before,
            category=snapshot["category"],
            subject=snapshot["subject"],
            content=snapshot["content"],
            confidence=float(snapshot["confidence"]),
            expires_at=None if expiry is None else from_iso(expiry),
            active=bool(snapshot["active"]),
            pinned=bool(snapshot["pinned"]),
            replaced_by=snapshot.get("replaced_by"),
            # Snapshots from before m019 lack it: the owner could not write facts then.
            owner_written=bool(snapshot.get("owner_written", False)),
            # Those from before m025 lack the interval: an active fact is open, a retired one
            # keeps the end it has (or ends now).
            valid_from=_time(snapshot["valid_from"])
            if "valid_from" in snapshot
            else before.valid_from,
            valid_until=_time(snapshot["valid_until"])
            if "valid_until" in snapshot
            else None
            if snapshot["active"]
            else before.valid_until or self._now,
        )
        await self._write(after)
        await self._history(fact_id, "undo", provenance, before, after)
        return after

    async def forget(self, fact_id: int, *, provenance: Provenance) -> int:
        """Erase what a fact said, at the owner's explicit request (`kit forget`): the one place
        fact content is destroyed on purpose. The fact is deactivated; its subject, content and
        every history snapshot and reason of it are overwritten with FORGOTTEN, and so are the
        reasons of other facts' merges into it (a merge reason may describe it); a last history
        row records that (not what) it was forgotten. Returns the history rows rewritten."""
        before = await self.get(fact_id)
        rows = await self._tx.fetchall(
            "SELECT id, before_json, after_json FROM fact_history"
            " WHERE fact_id = ? AND user_id = ?",
            (fact_id, self._user_id),
        )
        for row_id, before_json, after_json in rows:
            await self._tx.execute(
                "UPDATE fact_history SET before_json = ?, after_json = ?, reason = ? WHERE id = ?",
                (_forgotten(before_json), _forgotten(after_json), FORGOTTEN, row_id),
            )
        await self._tx.execute(  # merges happen in a pass: look only at the passes it was in
            "UPDATE fact_history SET reason = ? WHERE fact_id != ? AND pass_id IN"
            " (SELECT pass_id FROM fact_history WHERE fact_id = ? AND pass_id IS NOT NULL)"
            " AND CAST(json_extract(after_json, '$.replaced_by') AS BIGINT) = ?",
            (FORGOTTEN, fact_id, fact_id, fact_id),
        )
        blank = replace(before, subject="", content=FORGOTTEN)
        await self._write(replace(blank, active=False))
        await self._history(fact_id, "forget", provenance, blank, replace(blank, active=False))
        return len(rows)

    async def unmerge(self, fact_id: int, *, provenance: Provenance) -> Fact:
        """Bring back a fact that was merged into one `kit forget` erased: what it said was
        not forgotten, so it is active again, on its own."""
        before = await self.get(fact_id)
        after = replace(before, active=True, replaced_by=None, valid_until=None)
        await self._write(after)
        await self._history(fact_id, "unmerge", provenance, before, after)
        return after

    async def _write(self, fact: Fact) -> None:
        await self._tx.execute(
            "UPDATE facts SET category = ?, subject = ?, content = ?, confidence = ?,"
            " expires_at = ?, active = ?, pinned = ?, replaced_by = ?, owner_written = ?,"
            " updated_at = ?, content_hash = ?, valid_from = ?, valid_until = ?"
            " WHERE id = ? AND user_id = ?",
            (
                fact.category,
                fact.subject,
                fact.content,
                fact.confidence,
                None if fact.expires_at is None else to_iso(fact.expires_at),
                int(fact.active),
                int(fact.pinned),
                fact.replaced_by,
                int(fact.owner_written),
                to_iso(self._now),
                content_hash(fact.subject, fact.content),
                None if fact.valid_from is None else to_iso(fact.valid_from),
                None if fact.valid_until is None else to_iso(fact.valid_until),
                fact.id,
                self._user_id,
            ),
        )

    async def _history(
        self,
        fact_id: int,
        operation: str,
        provenance: Provenance,
        before: Fact | None,
        after: Fact | None,
    ) -> None:
        await self._tx.execute(
            "INSERT INTO fact_history (fact_id, user_id, at, actor, operation, pass_id, reason,"
            " before_json, after_json, source_message_ids) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                fact_id,
                self._user_id,
                to_iso(self._now),
                provenance.actor,
                operation,
                provenance.pass_id,
                provenance.reason,
                None if before is None else json.dumps(before.snapshot()),
                None if after is None else json.dumps(after.snapshot()),
                json.dumps(list(provenance.source_message_ids)),
            ),
        )


def _not_before(when: datetime, start: datetime) -> datetime:
    """An interval never ends before it begins (an end at its start: it never held)."""
    return max(when, start)


def _time(value: str | None) -> datetime | None:
    return None if value is None else from_iso(value)
