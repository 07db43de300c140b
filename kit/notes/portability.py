"""Notes in `kit export` / `kit import` (export version 3): every note and every row of their
history, kept texts included; the search sections are derived and rebuilt on restore."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from datetime import tzinfo
from functools import partial
from typing import Any

from kit.clock import from_iso
from kit.memory.hashes import content_hash
from kit.notes.metadata import screened_text
from kit.notes.store import OPERATIONS, index_note
from kit.store.db import Database, Transaction


async def export_notes(db: Database, user_id: str) -> dict[str, list[dict[str, Any]]]:
    """The notes and their history. Descriptions and sources are screened again on the way
    out (metadata.py): rows written before Kit screened them may hold a secret."""
    history = [
        {
            "id": r[0],
            "name": r[1],
            "at": r[2],
            "actor": r[3],
            "operation": r[4],
            "source": screened_text(r[5]),
            "text": r[6],
            "description": screened_text(r[7]),
            "bytes": r[8],
            "lines": r[9],
            "withheld": r[10],
        }
        for r in await db.fetchall(
            "SELECT id, name, at, actor, operation, source, body, description, bytes, lines,"
            " withheld FROM note_history WHERE user_id = ? ORDER BY id",
            (user_id,),
        )
    ]
    notes = [
        {
            "name": r[0],
            "description": screened_text(r[1]),
            "revision_id": r[2],
            "lines": r[3],
            "bytes": r[4],
            "created_at": r[5],
            "updated_at": r[6],
        }
        for r in await db.fetchall(
            "SELECT name, description, revision_id, lines, bytes, created_at, updated_at"
            " FROM notes WHERE user_id = ? ORDER BY name",
            (user_id,),
        )
    ]
    return {"notes": notes, "note_history": history}


def check_notes(
    document: Mapping[str, Any],
    items: Callable[[Mapping[str, Any], str], list[Mapping[str, Any]]],
    field: Callable[[Mapping[str, Any], str, str, Callable[[Any], bool], str], Any],
    is_time: Callable[[Any], bool],
) -> None:
    """The notes part of an export, checked with export_check's helpers (each failure names
    its place, e.g. `note_history[3].operation`)."""

    def is_count(v: Any) -> bool:
        return isinstance(v, int) and not isinstance(v, bool) and v >= 0

    def is_str(v: Any) -> bool:
        return isinstance(v, str)

    texts: dict[int, str] = {}
    for i, h in enumerate(items(document, "note_history")):
        where = f"note_history[{i}]"
        revision = field(h, "id", where, is_count, "an integer")
        for key in ("name", "actor", "source", "description"):
            field(h, key, where, is_str, "a string")
        field(h, "at", where, is_time, "an ISO-8601 time")
        field(h, "operation", where, lambda v: v in OPERATIONS, f"one of {OPERATIONS}")
        text = field(h, "text", where, lambda v: v is None or is_str(v), "a string or null")
        for key in ("bytes", "lines", "withheld"):
            field(h, key, where, is_count, "a count")
        if text is not None:
            texts[revision] = h["name"]
    for i, n in enumerate(items(document, "notes")):
        where = f"notes[{i}]"
        name = field(n, "name", where, lambda v: is_str(v) and bool(v), "a note name")
        field(n, "description", where, is_str, "a string")
        field(
            n,
            "revision_id",
            where,
            partial(_names_version, texts, name),
            "the id of a kept version of this note in note_history",
        )
        for key in ("lines", "bytes"):
            field(n, key, where, is_count, "a count")
        for key in ("created_at", "updated_at"):
            field(n, key, where, is_time, "an ISO-8601 time")


def _names_version(texts: Mapping[int, str], name: str, revision_id: Any) -> bool:
    return texts.get(revision_id) == name


async def restore_notes(tx: Transaction, document: Mapping[str, Any], user_id: str) -> int:
    """Restore the notes part of a checked export, inside the restore's transaction: history
    rows as they were (ids renumbered), notes pointing at their versions, sections rebuilt."""
    revisions: dict[int, int] = {}
    texts: dict[int, str] = {}
    ids = [h["id"] for h in document["note_history"]]
    taken = ids and await tx.fetchone(
        "SELECT 1 FROM note_history WHERE id BETWEEN ? AND ?", (min(ids), max(ids))
    )
    for h in document["note_history"]:
        text = h["text"]
        # ids kept when free, as the rest of a restore
        keep = () if taken else (h["id"],)
        revisions[h["id"]] = await tx.insert(
            f"INSERT INTO note_history ({'' if taken else 'id, '}user_id, name, at, actor,"
            " operation, source, body, description, content_hash, bytes, lines, withheld)"
            f" VALUES ({'' if taken else '?, '}?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                *keep,
                user_id,
                h["name"],
                h["at"],
                h["actor"],
                h["operation"],
                h["source"],
                text,
                h["description"],
                "" if text is None else content_hash(text),
                h["bytes"],
                h["lines"],
                h["withheld"],
            ),
        )
        if text is not None:
            texts[h["id"]] = text
    for n in document["notes"]:
        note_id = await tx.insert(
            "INSERT INTO notes (user_id, name, description, revision_id, lines, bytes,"
            " created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                user_id,
                n["name"],
                n["description"],
                revisions[n["revision_id"]],
                n["lines"],
                n["bytes"],
                n["created_at"],
                n["updated_at"],
            ),
        )
        await index_note(tx, user_id, note_id, n["name"], texts[n["revision_id"]])
    return len(document["notes"])


def notes_markdown(
    document: Mapping[str, Any], tz: tzinfo, quote: Callable[[str], str]
) -> Iterator[str]:
    """The notes part of a Markdown export: each note's text, then the history."""
    if not document.get("notes") and not document.get("note_history"):
        return
    texts = {h["id"]: h["text"] for h in document["note_history"]}
    yield "## Notes\n\n"
    for n in document["notes"]:
        updated = from_iso(n["updated_at"]).astimezone(tz).strftime("%Y-%m-%d %H:%M")
        yield f"### {n['name']}: {n['description']}\n\n"
        yield f"{n['lines']:,} lines, updated {updated}.\n\n{quote(texts[n['revision_id']])}\n\n"
    yield "### Notes history\n\n"
    for h in document["note_history"]:
        at = from_iso(h["at"]).astimezone(tz).strftime("%Y-%m-%d %H:%M")
        name = h["name"] or "(erased)"
        source = f", {h['source']}" if h["source"] else ""
        yield f"- {at} **{h['operation']}** {name} by {h['actor']}{source}\n"
    yield "\n"
