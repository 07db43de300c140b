"""Facts with time: since when a fact holds and, once closed, until when (m025).

Two clocks, kept apart:
- valid time (`valid_from` / `valid_until` on the row): when the fact held in the owner's
  world, taken from the messages it was learned from (their own times, not the time of the
  pass that read them), or given by the owner (`kit facts add/edit --since/--until`). A change
  closes the interval of what it replaces: REPLACE ends the merged facts where the new one
  begins, an UPDATE of what a fact says keeps the old version as a closed fact of its own
  (`supersede`), a DEACTIVATE or an expiry ends it, an undo puts the interval back exactly
  (and a fact the undone pass wrote ends where it began: it never held);
- record time (`fact_history.at`): when Kit wrote it down.

`held_at` answers "what held on that day" from the intervals (the facts of the past, those
since superseded included); `recorded_by` answers "what had Kit recorded by then" from the
history, each fact as it read at that moment. The context always shows what holds now.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import date, datetime, tzinfo
from typing import Any

from kit.clock import EARLIEST, LATEST, day_bounds, from_iso, to_iso
from kit.errors import InputError
from kit.memory.fact_rows import (
    FACT_COLUMNS,
    MIN_SHOWN_CONFIDENCE,
    Fact,
    check_category,
    fact_from_row,
)
from kit.memory.fact_writer import FORGOTTEN, FactWriter, Provenance
from kit.store.db import NO_INDEX, Database

# The history operation of the row that keeps a rewritten fact's earlier version (undo
# retracts it without naming it: the fact it belongs to is what is restored).
SUPERSEDED = "supersede"

# A fact held at a moment (parameters: `held_params`): begun by then, not closed by then, not
# past its expiry then, not erased by `kit forget`, and sure enough to be shown.
HELD_AT = (
    "valid_from <= ? AND (valid_until IS NULL OR valid_until > ?)"
    " AND (expires_at IS NULL OR expires_at > ?) AND content != ?"
    " AND (pinned = 1 OR confidence >= ?)"
)


def held_params(at: datetime) -> tuple[str, str, str, str, float]:
    when = to_iso(at)
    return (when, when, when, FORGOTTEN, MIN_SHOWN_CONFIDENCE)


def end_of_day(day: date, tz: tzinfo) -> datetime:
    """ "As of a day" means as it stood when that day (the owner's zone) was over: whatever
    changed that day has changed."""
    return day_bounds(day, tz)[1]


def as_of_time(value: date | datetime, tz: tzinfo) -> datetime:
    """A moment to look back at: a day means the end of it (`end_of_day`); a time must be
    aware."""
    if isinstance(value, datetime):
        if value.tzinfo is None:
            raise InputError("as_of needs a time with a zone (or a date)")
        return value
    return end_of_day(value, tz)


def parse_day(text: str, what: str = "--as-of") -> date:
    """A YYYY-MM-DD from outside, or one line saying what is wrong (never the whole input)."""
    try:
        day = date.fromisoformat(text.strip())
    except ValueError:
        shown = repr(text) if len(text) <= 20 else "that"
        raise InputError(f"{what} {shown} is not a date; use YYYY-MM-DD, e.g. 2026-03-15") from None
    if not EARLIEST.date() <= day < LATEST.date():
        raise InputError(
            f"{what} {day.isoformat()} is outside the years {EARLIEST.year}-{LATEST.year - 1} "
            "that Kit keeps times for; use a date within them"
        )
    return day


def earliest(times: Mapping[int, datetime], ids: Sequence[int]) -> datetime | None:
    """When the first of `ids` was said (None: none of them is known)."""
    found = [times[i] for i in ids if i in times]
    return min(found) if found else None


async def supersede(
    writer: FactWriter,
    fact_id: int,
    *,
    at: datetime,
    provenance: Provenance,
    content: str | None = None,
    subject: str | None = None,
    confidence: float | None = None,
    expires_at: datetime | None = None,
    clear_expiry: bool = False,
    owner_written: bool | None = None,
    operation: str = "update",
) -> Fact:
    """What the fact says changes in the world at `at`: the version it held until then is kept
    as a closed fact of its own (inactive, `replaced_by` this one, citing the messages it came
    from, so `kit forget` finds it, and an erased successor brings it back), and this fact says
    the new thing from `at` on. Its id stays with what holds now. Two history rows."""
    before = await writer.get(fact_id)
    since = max(at, before.holds_since)
    await writer.insert(
        category=before.category,
        content=before.content,
        subject=before.subject,
        confidence=before.confidence,
        expires_at=before.expires_at,
        owner_written=before.owner_written,
        provenance=replace(
            provenance,
            reason=f"what #{fact_id} said until it changed",
            source_message_ids=await writer.sources([fact_id]),
        ),
        valid_from=before.holds_since,
        valid_until=since,
        replaced_by=fact_id,
        created_at=before.created_at,
        operation=SUPERSEDED,
    )
    return await writer.update(
        fact_id,
        provenance=provenance,
        content=content,
        subject=subject,
        confidence=confidence,
        expires_at=expires_at,
        clear_expiry=clear_expiry,
        owner_written=owner_written,
        valid_from=since,
        operation=operation,
    )


class FactTimes:
    """The facts of a moment in the past, by either clock (see the module docstring)."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def held_at(
        self,
        user_id: str,
        at: datetime,
        *,
        category: str | None = None,
        ids: Sequence[int] | None = None,
    ) -> list[Fact]:
        """Facts that held at `at` (valid time), whether or not they still do; optionally
        only those of a category, or among `ids`."""
        if category is not None:
            check_category(category)
        sql = f"SELECT {FACT_COLUMNS} FROM facts WHERE user_id = ? AND {HELD_AT}"
        params: list[Any] = [user_id, *held_params(at)]
        if category is not None:
            sql += " AND category = ?"
            params.append(category)
        if ids is not None:
            if not ids:
                return []
            sql = sql.replace("WHERE user_id", f"WHERE {NO_INDEX.format('user_id')}", 1)
            sql += f" AND id IN ({','.join('?' * len(ids))})"
            params.extend(ids)
        rows = await self._db.fetchall(sql + " ORDER BY category, id", params)
        return [fact_from_row(r) for r in rows]

    async def held_ids(self, user_id: str, at: datetime) -> frozenset[int]:
        """The ids of `held_at` (what a search as of `at` may rank)."""
        rows = await self._db.fetchall(
            f"SELECT id FROM facts WHERE user_id = ? AND {HELD_AT}", (user_id, *held_params(at))
        )
        return frozenset(int(r[0]) for r in rows)

    async def recorded_by(
        self, user_id: str, at: datetime, *, category: str | None = None
    ) -> list[Fact]:
        """Facts as Kit had them recorded at `at` (record time): each fact's state after its
        last change up to then, if it was in use (active, not past its expiry) then. What it
        said then, not what it says now; erased facts stay erased."""
        if category is not None:
            check_category(category)
        when = to_iso(at)
        rows = await self._db.fetchall(
            f"SELECT {FACT_COLUMNS} FROM facts WHERE user_id = ? AND created_at <= ?"
            " ORDER BY category, id",
            (user_id, when),
        )
        facts = {r[0]: fact_from_row(r) for r in rows}
        states = await self._db.fetchall(
            "SELECT fact_id, after_json FROM fact_history WHERE id IN"
            " (SELECT MAX(id) FROM fact_history WHERE user_id = ? AND at <= ? GROUP BY fact_id)",
            (user_id, when),
        )
        found: list[Fact] = []
        for fact_id, after_json in states:
            fact = facts.get(fact_id)
            if fact is None or after_json is None:
                continue
            then = _as_recorded(fact, json.loads(after_json))
            if category is not None and then.category != category:
                continue
            if then.active and (then.expires_at is None or then.expires_at > at):
                if then.content != FORGOTTEN:
                    found.append(then)
        return sorted(found, key=lambda f: (f.category, f.id))


def _as_recorded(fact: Fact, snapshot: Mapping[str, Any]) -> Fact:
    """`fact` as a history snapshot recorded it (its flags and text then)."""
    expiry = snapshot.get("expires_at")
    since = snapshot.get("valid_from")
    until = snapshot.get("valid_until")
    return replace(
        fact,
        category=snapshot.get("category", fact.category),
        subject=snapshot.get("subject", fact.subject),
        content=snapshot.get("content", fact.content),
        confidence=float(snapshot.get("confidence", fact.confidence)),
        expires_at=None if expiry is None else from_iso(expiry),
        active=bool(snapshot.get("active", fact.active)),
        pinned=bool(snapshot.get("pinned", fact.pinned)),
        replaced_by=snapshot.get("replaced_by"),
        owner_written=bool(snapshot.get("owner_written", False)),
        valid_from=fact.valid_from if since is None else from_iso(since),
        valid_until=None if until is None else from_iso(until),
    )
