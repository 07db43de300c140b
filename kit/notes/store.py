"""Notes and their history: the one module that writes `notes`, `note_history` and
`note_chunks` (m017_notes).

Every write is one transaction and one `note_history` row saying who, when, from where
(a file name, a Telegram message) and what (content hash, size, lines, secrets withheld):
  - add / replace: the row holds the text written; a replaced version stays in the history;
  - remove: the note leaves use (no more in the index, the tools or search); its versions
    stay in the history, like a deactivated fact;
  - erase: every kept version of a name loses its text, name and description, and one row
    records that an erase happened and how much went, never what (like `kit forget`);
  - forget: what `kit forget` took (kit/forget/notes.py), recorded the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from kit.clock import Clock, from_iso, to_iso
from kit.errors import InputError, NotFound
from kit.memory.hashes import content_hash
from kit.notes.intake import Accepted, Withheld, accept
from kit.notes.metadata import check_name, name_source, screened_file_name, screened_text
from kit.notes.text import describe, name_from_file, note_name, sections
from kit.store.db import Database, Transaction

Operation = Literal["add", "replace", "remove", "erase", "forget"]
OPERATIONS: tuple[Operation, ...] = ("add", "replace", "remove", "erase", "forget")


@dataclass(frozen=True)
class NoteInfo:
    """A note as lists show it (its text is read on demand)."""

    id: int
    user_id: str
    name: str
    description: str
    lines: int
    bytes: int
    created_at: datetime
    updated_at: datetime
    revision_id: int


@dataclass(frozen=True)
class Note:
    info: NoteInfo
    text: str


@dataclass(frozen=True)
class NoteRevision:
    """One row of the notes' history."""

    id: int
    name: str  # "" once erased
    at: datetime
    actor: str
    operation: str
    source: str
    description: str
    content_hash: str
    bytes: int
    lines: int
    withheld: int  # secret values withheld from the text when it was written
    kept: bool  # its text is still stored (an add or replace not erased since)


@dataclass(frozen=True)
class NoteChunk:
    """Lines `start_line`..`end_line` of a note: what search finds and shows."""

    id: int
    note_id: int
    name: str
    start_line: int
    end_line: int
    heading: str
    text: str
    updated_at: datetime


@dataclass(frozen=True)
class NoteWrite:
    note: NoteInfo
    operation: Literal["add", "replace", "unchanged"]
    wrapped: int  # lines longer than the limit, wrapped
    withheld: tuple[Withheld, ...]


@dataclass(frozen=True)
class Erased:
    versions: int  # kept versions whose text went
    bytes: int
    removed: bool  # the note itself was in use and is gone


class NoteExists(InputError):
    """A note of that name exists and the write did not say to replace it."""


_INFO = (
    "n.id, n.user_id, n.name, n.description, n.lines, n.bytes, n.created_at, n.updated_at,"
    " n.revision_id"
)
_REVISION = (
    "id, name, at, actor, operation, source, description, content_hash, bytes, lines,"
    " withheld, body IS NOT NULL"
)


def _info(row: Sequence[Any]) -> NoteInfo:
    return NoteInfo(
        id=row[0],
        user_id=row[1],
        name=row[2],
        description=row[3],
        lines=row[4],
        bytes=row[5],
        created_at=from_iso(row[6]),
        updated_at=from_iso(row[7]),
        revision_id=row[8],
    )


def _revision(row: Sequence[Any]) -> NoteRevision:
    return NoteRevision(
        id=row[0],
        name=row[1],
        at=from_iso(row[2]),
        actor=row[3],
        operation=row[4],
        source=row[5],
        description=row[6],
        content_hash=row[7],
        bytes=row[8],
        lines=row[9],
        withheld=row[10],
        kept=bool(row[11]),
    )


def _missing(name: str, names: Sequence[str]) -> NotFound:
    known = ", ".join(names[:20]) + (", …" if len(names) > 20 else "")
    listing = f"the notes are: {known}" if names else "there are no notes yet"
    return NotFound(f"there is no note named {name!r}; {listing}")


class Notes:
    def __init__(self, db: Database, clock: Clock) -> None:
        self._db = db
        self._clock = clock

    # ---- reading --------------------------------------------------------------------------
    async def listing(self, user_id: str) -> list[NoteInfo]:
        """Every note in use, by name."""
        rows = await self._db.fetchall(
            f"SELECT {_INFO} FROM notes n WHERE n.user_id = ? ORDER BY n.name", (user_id,)
        )
        return [_info(r) for r in rows]

    async def index(self, user_id: str) -> list[tuple[str, str]]:
        """(name, description) of every note in use, sorted by name: what the memory index
        lists. Derived from the rows alone, so its bytes change only when a note does."""
        rows = await self._db.fetchall(
            "SELECT name, description FROM notes WHERE user_id = ? ORDER BY name", (user_id,)
        )
        return [(str(r[0]), str(r[1])) for r in rows]

    async def get(self, user_id: str, name: str) -> Note:
        name = note_name(name)
        row = await self._db.fetchone(
            f"SELECT {_INFO}, h.body FROM notes n JOIN note_history h ON h.id = n.revision_id"
            " WHERE n.user_id = ? AND n.name = ?",
            (user_id, name),
        )
        if row is None:
            raise _missing(name, [n.name for n in await self.listing(user_id)])
        return Note(_info(row), str(row[9]))

    async def texts(self, user_id: str, name: str | None = None) -> list[tuple[str, str]]:
        """(name, text) of every note in use (or of the one named), by name."""
        if name is not None:
            return [(name, (await self.get(user_id, name)).text)]
        rows = await self._db.fetchall(
            "SELECT n.name, h.body FROM notes n JOIN note_history h ON h.id = n.revision_id"
            " WHERE n.user_id = ? ORDER BY n.name",
            (user_id,),
        )
        return [(str(r[0]), str(r[1])) for r in rows]

    async def history(self, user_id: str, name: str | None = None) -> list[NoteRevision]:
        """The history of one name (oldest first), or of every note."""
        if name is None:
            rows = await self._db.fetchall(
                f"SELECT {_REVISION} FROM note_history WHERE user_id = ? ORDER BY id", (user_id,)
            )
        else:
            name = note_name(name)
            rows = await self._db.fetchall(
                f"SELECT {_REVISION} FROM note_history WHERE user_id = ? AND name = ? ORDER BY id",
                (user_id, name),
            )
            if not rows:
                raise _missing(name, [n.name for n in await self.listing(user_id)])
        return [_revision(r) for r in rows]

    async def revision_text(self, user_id: str, revision_id: int) -> tuple[NoteRevision, str]:
        """A kept version's text (`kit notes show NAME --revision ID`)."""
        row = await self._db.fetchone(
            f"SELECT {_REVISION}, body FROM note_history WHERE user_id = ? AND id = ?",
            (user_id, revision_id),
        )
        if row is None or row[12] is None:
            raise NotFound(
                f"no kept version {revision_id}; `kit notes history NAME` lists a note's "
                "versions (erased ones have no text)"
            )
        return _revision(row), str(row[12])

    async def chunks(self, user_id: str, ids: Sequence[int]) -> list[NoteChunk]:
        """Sections by id (search candidates), of notes in use."""
        if not ids:
            return []
        rows = await self._db.fetchall(
            "SELECT c.id, c.note_id, c.name, c.start_line, c.end_line, c.heading, c.text,"
            " n.updated_at FROM note_chunks c JOIN notes n ON n.id = c.note_id"
            f" WHERE c.user_id = ? AND c.id IN ({','.join('?' * len(ids))})",
            (user_id, *ids),
        )
        return [NoteChunk(r[0], r[1], r[2], r[3], r[4], r[5], r[6], from_iso(r[7])) for r in rows]

    # ---- writing --------------------------------------------------------------------------
    async def add(
        self,
        user_id: str,
        data: bytes | str,
        *,
        name: str | None = None,
        file_name: str = "",
        description: str | None = None,
        replace: bool = False,
        actor: str = "owner",
        source: str = "",
    ) -> NoteWrite:
        """A document as a note: checked as text, secrets withheld (intake.py), stored.
        Its name is `name`, else made from `file_name`; errors name the file when there is one.
        The file name, the description and the source are screened like the text (metadata.py)."""
        screened = screened_file_name(file_name)
        source, file_name = source.replace(file_name, screened) if file_name else source, screened
        if name is not None:
            resolved = note_name(name)
            check_name(resolved)
        else:
            resolved = note_name(name_from_file(name_source(file_name)))
        accepted = await accept(data, file_name or resolved)
        return await self.write(
            user_id,
            resolved,
            accepted,
            description=description,
            replace=replace,
            actor=actor,
            source=source,
        )

    async def write(
        self,
        user_id: str,
        name: str,
        accepted: Accepted,
        *,
        description: str | None = None,
        replace: bool = False,
        actor: str = "owner",
        source: str = "",
    ) -> NoteWrite:
        """Add the note `name`, or with `replace` put a new version in place of the current
        one (which stays in the history). Writing what the note already says changes nothing."""
        text = accepted.text
        about = describe(text, None if description is None else screened_text(description))
        source = screened_text(source)
        digest = content_hash(text)
        size = len(text.encode("utf-8"))
        lines = accepted.document.lines
        now = to_iso(self._clock.now())
        async with self._db.transaction() as tx:
            current = await tx.fetchone(
                f"SELECT {_INFO}, h.content_hash FROM notes n"
                " JOIN note_history h ON h.id = n.revision_id WHERE n.user_id = ? AND n.name = ?",
                (user_id, name),
            )
            if current is not None and not replace:
                raise NoteExists(
                    f"there is already a note named {name!r} (added "
                    f"{current[6][:10]}); replace it with `kit notes add FILE --name {name} "
                    "--replace` (the current version stays in its history), or choose another "
                    "name with --name"
                )
            if current is not None and current[9] == digest and current[3] == about:
                return NoteWrite(_info(current), "unchanged", accepted.document.wrapped, ())
            operation: Literal["add", "replace"] = "add" if current is None else "replace"
            revision = await tx.insert(
                "INSERT INTO note_history (user_id, name, at, actor, operation, source, body,"
                " description, content_hash, bytes, lines, withheld)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    user_id,
                    name,
                    now,
                    actor,
                    operation,
                    source,
                    text,
                    about,
                    digest,
                    size,
                    lines,
                    len(accepted.withheld),
                ),
            )
            if current is None:
                note_id = await tx.insert(
                    "INSERT INTO notes (user_id, name, description, revision_id, lines, bytes,"
                    " created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (user_id, name, about, revision, lines, size, now, now),
                )
            else:
                note_id = int(current[0])
                await tx.execute(
                    "UPDATE notes SET description = ?, revision_id = ?, lines = ?, bytes = ?,"
                    " updated_at = ? WHERE id = ?",
                    (about, revision, lines, size, now, note_id),
                )
                await tx.execute("DELETE FROM note_chunks WHERE note_id = ?", (note_id,))
            await index_note(tx, user_id, note_id, name, text)
            row = await tx.fetchone(f"SELECT {_INFO} FROM notes n WHERE n.id = ?", (note_id,))
        assert row is not None
        return NoteWrite(_info(row), operation, accepted.document.wrapped, accepted.withheld)

    async def remove(self, user_id: str, name: str, *, actor: str = "owner") -> NoteInfo:
        """Take a note out of use; its versions stay in the history (`erase` takes them)."""
        name = note_name(name)
        async with self._db.transaction() as tx:
            info = await _current(tx, user_id, name)
            if info is None:
                names = [str(r[0]) for r in await tx.fetchall(_NAMES, (user_id,))]
                raise _missing(name, names)
            await _drop(tx, info.id)
            await tx.execute(
                "INSERT INTO note_history (user_id, name, at, actor, operation, description,"
                " bytes, lines) VALUES (?, ?, ?, ?, 'remove', ?, ?, ?)",
                (
                    user_id,
                    name,
                    to_iso(self._clock.now()),
                    actor,
                    info.description,
                    info.bytes,
                    info.lines,
                ),
            )
        return info

    async def erase(self, user_id: str, name: str, *, actor: str = "owner") -> Erased:
        """Erase every kept version of `name` (the note too, if in use). A record keeps when,
        by whom and how much went; never the name or the text."""
        name = note_name(name)
        # erasing: the text is erased physically too, not only unlinked (kit/store/db.py)
        async with self._db.transaction(erasing=True) as tx:
            info = await _current(tx, user_id, name)
            rows = await tx.fetchall(
                "SELECT id, bytes FROM note_history WHERE user_id = ? AND name = ?",
                (user_id, name),
            )
            if info is None and not rows:
                names = [str(r[0]) for r in await tx.fetchall(_NAMES, (user_id,))]
                raise _missing(name, names)
            if info is not None:
                await _drop(tx, info.id)
            kept = await blank_revisions(tx, [int(r[0]) for r in rows])
            size = sum(int(r[1]) for r in rows if int(r[0]) in kept)
            await record(tx, user_id, "erase", to_iso(self._clock.now()), actor, len(kept), size)
        return Erased(len(kept), size, info is not None)


_NAMES = "SELECT name FROM notes WHERE user_id = ? ORDER BY name"


async def _current(tx: Transaction, user_id: str, name: str) -> NoteInfo | None:
    row = await tx.fetchone(
        f"SELECT {_INFO} FROM notes n WHERE n.user_id = ? AND n.name = ?", (user_id, name)
    )
    return None if row is None else _info(row)


async def index_note(tx: Transaction, user_id: str, note_id: int, name: str, text: str) -> None:
    """The note's sections, for FTS (triggers) and vectors (background backfill)."""
    await tx.executemany(
        "INSERT INTO note_chunks (note_id, user_id, name, start_line, end_line, heading, text,"
        " content_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                note_id,
                user_id,
                name,
                s.start,
                s.end,
                s.heading,
                s.text,
                content_hash(name, s.heading, s.text),
            )
            for s in sections(text)
        ],
    )


async def _drop(tx: Transaction, note_id: int) -> None:
    """The note out of use: its sections (with their FTS entries and vectors) and its row."""
    await tx.execute("DELETE FROM note_chunks WHERE note_id = ?", (note_id,))
    await tx.execute("DELETE FROM notes WHERE id = ?", (note_id,))


async def drop_notes(tx: Transaction, note_ids: Sequence[int]) -> None:
    for note_id in note_ids:
        await _drop(tx, note_id)


async def blank_revisions(tx: Transaction, revision_ids: Sequence[int]) -> set[int]:
    """Erase what history rows say (text, name, description, source, hash); their operation,
    time, actor and sizes stay. Returns the ids that still held a text."""
    if not revision_ids:
        return set()
    marks = ",".join("?" * len(revision_ids))
    kept = {
        int(r[0])
        for r in await tx.fetchall(
            f"SELECT id FROM note_history WHERE id IN ({marks}) AND body IS NOT NULL",
            list(revision_ids),
        )
    }
    await tx.execute(
        "UPDATE note_history SET body = NULL, name = '', description = '', source = '',"
        f" content_hash = '' WHERE id IN ({marks})",
        list(revision_ids),
    )
    return kept


async def record(
    tx: Transaction,
    user_id: str,
    operation: Operation,
    at: str,
    actor: str,
    versions: int,
    size: int,
) -> None:
    """A history row for an erase or a forget: how much went, never what."""
    noun = "version" if versions == 1 else "versions"
    await tx.execute(
        "INSERT INTO note_history (user_id, name, at, actor, operation, source, bytes)"
        " VALUES (?, '', ?, ?, ?, ?, ?)",
        (user_id, at, actor, operation, f"{versions} {noun} erased", size),
    )
