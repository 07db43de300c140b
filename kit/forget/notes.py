"""What `kit forget` takes of notes (kit/forget/forgetter.py calls this inside its transaction).

A note is a document, not a conversation: its lines are never cut out (that would leave a
document the owner never wrote). What goes is whole versions:
  - a time range: every version of a note written on a day in the range;
  - a person: every version whose text, name or description names them (as a name, the way
    forget matches names: kit/forget/scope.py).
A version that goes loses its text, name and description (its history row stays: when, by
whom, how big). When the version in use goes, the note goes out of use with it; its earlier
versions stay only if they are not in scope themselves. So to keep a note and forget a
person it names, replace it first with a version that does not name them (`kit notes add
FILE --replace`), then forget: the old version goes, the new one stays. `kit forget --dry-run`
lists the notes it would take.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, tzinfo
from typing import Any, Protocol

from kit.clock import day_bounds, from_iso, local_date, to_iso
from kit.forget.scope import ForgetScope, Names
from kit.notes.store import blank_revisions, drop_notes, record
from kit.store.db import Transaction


class _Reads(Protocol):
    async def fetchall(self, sql: str, params: Any = ()) -> list[Any]: ...


@dataclass(frozen=True)
class NoteSample:
    """A note version a forget would take, for the owner's terminal only (never stored)."""

    id: int  # the version's history id
    day: date
    name: str
    in_use: bool
    description: str


@dataclass
class NotesInScope:
    revision_ids: list[int] = field(default_factory=list)  # history rows blanked
    versions: int = 0  # of them, versions whose text goes
    note_ids: list[int] = field(default_factory=list)  # notes whose version in use goes
    bytes: int = 0
    samples: list[NoteSample] = field(default_factory=list)


def _in_range(at: str, scope: ForgetScope, tz: tzinfo) -> bool:
    start = None if scope.after is None else to_iso(day_bounds(scope.after, tz)[1])
    end = None if scope.before is None else to_iso(day_bounds(scope.before, tz)[0])
    return (start is None or at >= start) and (end is None or at < end)


# Whether a note version goes (its history id, description and body), when the scope is not
# a time range or a name: a re-applied forget's (kit/forget/reapply.py).
Hit = Callable[[int, str, "str | None"], bool]


async def find_notes(
    db: _Reads,
    user_id: str,
    scope: ForgetScope,
    names: Names | None,
    tz: tzinfo,
    hit_by: Hit | None = None,
) -> NotesInScope:
    found = NotesInScope()
    in_use = {
        int(r[1]): int(r[0])
        for r in await db.fetchall(
            "SELECT id, revision_id FROM notes WHERE user_id = ?", (user_id,)
        )
    }
    rows = await db.fetchall(
        "SELECT id, name, at, description, body, bytes FROM note_history"
        " WHERE user_id = ? AND name != '' ORDER BY id",
        (user_id,),
    )
    taken: set[tuple[str, str]] = set()
    # Note names are lower case: the person's name is matched in them in any case.
    in_names = None if names is None else Names(scope.person.lower())
    for revision_id, name, at, description, body, size in rows:
        if hit_by is not None:
            hit = hit_by(revision_id, description, body)
        elif names is not None and in_names is not None:
            hit = names.in_text(description, body) or in_names.in_text(name)
        else:
            hit = _in_range(at, scope, tz)
        if not hit:
            continue
        found.revision_ids.append(revision_id)
        if body is None:  # a removal: it names the note and says what it was
            continue
        found.versions += 1
        found.bytes += int(size)
        taken.add((name, description))
        if revision_id in in_use:
            found.note_ids.append(in_use[revision_id])
        found.samples.append(
            NoteSample(
                revision_id,
                local_date(from_iso(at), tz),
                name,
                revision_id in in_use,
                description,
            )
        )
    # A later removal of a version that goes still names it and says what it was.
    found.revision_ids += [
        r[0]
        for r in rows
        if r[4] is None and (r[1], r[3]) in taken and r[0] not in found.revision_ids
    ]
    return found


async def erase_notes(tx: Transaction, user_id: str, found: NotesInScope, now: datetime) -> None:
    """Inside the forget's transaction: the versions in scope lose their text, the notes whose
    version in use went leave use, and one history row says how much went."""
    if not found.revision_ids:
        return
    await drop_notes(tx, found.note_ids)
    await blank_revisions(tx, found.revision_ids)
    await record(tx, user_id, "forget", to_iso(now), "owner", found.versions, found.bytes)
