"""What a forget's receipt records, read inside the forget's transaction just before the
erasing (kit/forget/forgetter.py): the ids it will delete or rewrite and salted hashes of the
text it will erase (traces.py), plus how many vectors and search-index entries go.

Which pieces of a text are hashed depends on why it goes. A person's forget cuts the lines
and sentences naming them out of summaries: those pieces are about the person, and each is
hashed, so verification finds any one of them back. A time range drops whole summaries: only
the whole text is hashed, because a generic line of a dropped day ("Worked on the garden
plan") may well be written again about another day, and that is no leftover.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from kit.forget.plan import ForgetPlan
from kit.forget.receipt import ErasedIds
from kit.forget.traces import Hasher, lengths, units, units_of
from kit.memory.fact_writer import FORGOTTEN
from kit.store.db import Transaction

_BATCH = 500


@dataclass
class Collected:
    messages: set[str] = field(default_factory=set)  # hashes of message fingerprints
    near: set[str] = field(default_factory=set)  # the same messages as `Hasher.near`
    texts: set[str] = field(default_factory=set)  # hashes of text pieces
    lengths: tuple[int, ...] = ()  # word counts of the quotable pieces
    ids: ErasedIds = field(default_factory=ErasedIds)
    vectors: int = 0  # embeddings the forget deletes
    index_entries: int = 0  # search-index entries it removes or rewrites


async def collect(tx: Transaction, plan: ForgetPlan, hasher: Hasher) -> Collected:
    found = Collected()
    pieces = plan.scope.kind == "person"  # see the module docstring
    conversations: set[int] = set()
    for chunk in _chunks(plan.message_ids):
        for _, conversation_id, at, role, speaker, text in await tx.fetchall(
            "SELECT id, conversation_id, at, role, speaker, text FROM messages"
            f" WHERE id IN ({_marks(chunk)})",
            chunk,
        ):
            found.messages.add(hasher.message(str(at), str(role), str(speaker), str(text)))
            found.near.add(hasher.near(str(at), str(role), str(speaker), str(text)))
            conversations.add(int(conversation_id))
    texts: set[str] = set()
    texts |= await _fact_texts(tx, plan.fact_ids)
    deleted = plan.day_deletes
    for chunk in _chunks(deleted):
        for detailed, condensed in await tx.fetchall(
            f"SELECT detailed, condensed FROM days WHERE id IN ({_marks(chunk)})", chunk
        ):
            texts |= units_of((detailed, condensed), pieces=pieces)
    for day_id, detailed, condensed in plan.day_rewrites:
        row = await tx.fetchone("SELECT detailed, condensed FROM days WHERE id = ?", (day_id,))
        if row is not None:
            texts |= _removed(str(row[0]), detailed) | _removed(str(row[1]), condensed)
    for conversation_id, summary in plan.summary_rewrites:
        row = await tx.fetchone(
            "SELECT window_summary FROM conversations WHERE id = ?", (conversation_id,)
        )
        if row is not None:
            old = str(row[0])
            texts |= _removed(old, summary) if pieces else units(old, pieces=False)
        conversations.add(conversation_id)
    notes = plan.notes
    for chunk in _chunks(notes.revision_ids):
        for body, description in await tx.fetchall(
            f"SELECT body, description FROM note_history WHERE id IN ({_marks(chunk)})", chunk
        ):
            texts |= units_of((body, description), pieces=False)
    sections: list[int] = []
    for chunk in _chunks(notes.note_ids):
        for section_id, text in await tx.fetchall(
            f"SELECT id, text FROM note_chunks WHERE note_id IN ({_marks(chunk)})", chunk
        ):
            sections.append(int(section_id))
            texts |= units(str(text), pieces=False)
    for chunk in _chunks(plan.reminder_ids):
        for (text,) in await tx.fetchall(
            f"SELECT text FROM reminders WHERE id IN ({_marks(chunk)})", chunk
        ):
            texts |= units(str(text), pieces=False)
    found.texts = hasher.texts(texts)
    found.lengths = lengths(texts)
    days = sorted({*deleted, *(r[0] for r in plan.day_rewrites)})
    found.ids = ErasedIds(
        messages=tuple(plan.message_ids),
        conversations=tuple(sorted(conversations)),
        facts=tuple(plan.fact_ids),
        days=tuple(days),
        note_revisions=tuple(sorted(notes.revision_ids)),
        notes=tuple(sorted(notes.note_ids)),
        note_sections=tuple(sorted(sections)),
        reminders=tuple(sorted(plan.reminder_ids)),
    )
    found.vectors = await _vectors(
        tx,
        plan.user_id,
        {"message": plan.message_ids, "fact": plan.fact_ids, "day": days, "note": sections},
    )
    found.index_entries = len(plan.message_ids) + len(plan.fact_ids) + len(days) + len(sections)
    return found


def _removed(old: str, new: str) -> set[str]:
    """The pieces of `old` that a rewrite to `new` took out."""
    return units(old) - units(new)


async def _fact_texts(tx: Transaction, fact_ids: Sequence[int]) -> set[str]:
    """Every subject and content the facts ever had, from their rows and history snapshots."""
    texts: set[str] = set()
    for chunk in _chunks(fact_ids):
        marks = _marks(chunk)
        for subject, content in await tx.fetchall(
            f"SELECT subject, content FROM facts WHERE id IN ({marks})", chunk
        ):
            texts |= units_of((subject, content))
        for snapshots in await tx.fetchall(
            f"SELECT before_json, after_json FROM fact_history WHERE fact_id IN ({marks})", chunk
        ):
            for snapshot in snapshots:
                data: Any = json.loads(snapshot) if snapshot else None
                if isinstance(data, dict):
                    texts |= units_of((str(data.get("subject") or ""), str(data.get("content"))))
    return {t for t in texts if t != FORGOTTEN}


async def _vectors(tx: Transaction, user_id: str, ids: dict[str, Sequence[int]]) -> int:
    count = 0
    for kind, item_ids in ids.items():
        for chunk in _chunks(item_ids):
            row = await tx.fetchone(
                "SELECT COUNT(*) FROM embeddings WHERE user_id = ? AND kind = ?"
                f" AND item_id IN ({_marks(chunk)})",
                (user_id, kind, *chunk),
            )
            count += int(row[0]) if row is not None else 0
    return count


def _chunks(ids: Sequence[int]) -> list[list[int]]:
    items = list(ids)
    return [items[i : i + _BATCH] for i in range(0, len(items), _BATCH)]


def _marks(ids: Sequence[int]) -> str:
    return ",".join("?" * len(ids))
