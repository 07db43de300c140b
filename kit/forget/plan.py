"""What a `kit forget` would take, found by reading only (a dry run is this and nothing more).

Messages: in the range, or naming the person (as a name, see scope.py) or spoken by them.

Facts go when what they were learned from goes:
  - a message it was learned from is forgotten: the messages the curator cited for it (or the
    turn of a `remember`), in any version, including those of facts merged into it. A fact
    learned partly from forgotten messages and partly from others is erased whole: taking the
    forgotten part out needs the model to rewrite it, and a forget must work offline, in one
    transaction; keeping it would keep what was forgotten;
  - for a person, its subject or content names them, now or in any earlier version;
  - for a time range, it was created in the range and no message it came from is recorded
    (typed by the owner, or curated before Kit recorded sources);
  - facts curated before Kit recorded cited sources (m007) only know their whole batch: a time
    range takes them when any message of the batch is in it (as before), a person when every
    message of the batch is theirs or names them (one passing mention no longer takes a fact);
  - a fact merged from an erased fact goes too (it holds what that one said). The facts merged
    into an erased fact that are not erased themselves come back, active, on their own.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, fields
from datetime import date, tzinfo
from typing import Any, Protocol

from kit.clock import day_bounds, from_iso, local_date, to_iso
from kit.forget.notes import NotesInScope, find_notes
from kit.forget.receipt import Receipt
from kit.forget.scope import Finder, ForgetScope, scrub_text
from kit.memory.fact_writer import FORGOTTEN
from kit.reminders.store import forget_candidates

SAMPLE = 10  # messages and facts a preview lists
_BATCH = 5000


class Reads(Protocol):
    """What planning needs: the open transaction of a forget, or the database for a preview."""

    async def fetchall(self, sql: str, params: Any = ()) -> list[Any]: ...


@dataclass(frozen=True)
class Sample:
    """One message or fact a forget would take, for the owner's terminal only (never stored)."""

    id: int
    day: date
    label: str  # the speaker, or the fact's category and subject
    text: str


@dataclass(frozen=True)
class ForgetReport:
    scope: str
    messages_removed: int = 0
    facts_forgotten: int = 0
    facts_unmerged: int = 0  # merged into an erased fact, not forgotten themselves: back
    history_rows_erased: int = 0
    days_removed: int = 0
    days_rewritten: int = 0
    conversation_summaries_rewritten: int = 0
    records_scrubbed: int = 0  # curation pass records and REM reports quoting erased text
    reminders_removed: int = 0  # asked for in the range, or naming the person
    notes_removed: int = 0  # notes whose version in use went (kit/forget/notes.py)
    note_versions_erased: int = 0
    vectors_erased: int = 0  # embeddings of what went (known once it went: not in a preview)
    index_entries_erased: int = 0  # search-index entries removed or rewritten (likewise)
    dry_run: bool = False
    messages: tuple[Sample, ...] = ()  # the first SAMPLE of them
    facts: tuple[Sample, ...] = ()
    notes: tuple[Sample, ...] = ()
    receipt: Receipt | None = None  # what the forget erased, without it (receipt.py)

    def counts(self) -> dict[str, int]:
        """What the forget log keeps: numbers only."""
        values = ((f.name, getattr(self, f.name)) for f in fields(self))
        return {k: v for k, v in values if type(v) is int}

    @property
    def total(self) -> int:
        return sum(self.counts().values())


class ForgetPlan:
    """Everything in scope, found by `find`; `Forgetter` then changes it."""

    def __init__(self, user_id: str, scope: ForgetScope, tz: tzinfo) -> None:
        self.user_id = user_id
        self.scope = scope
        self.tz = tz
        self.names: Finder | None = scope.names() if scope.kind == "person" else None
        self.lost: dict[int, int] = {}  # forgotten message id -> its conversation
        self.early_conversations: set[int] = set()  # lost messages already folded in a summary
        self.fact_ids: list[int] = []
        self.unmerged: list[int] = []
        self.day_deletes: list[int] = []
        self.day_rewrites: list[tuple[int, str, str]] = []
        self.summary_rewrites: list[tuple[int, str]] = []
        self.reminder_ids: list[int] = []
        self.notes = NotesInScope()

    @property
    def message_ids(self) -> list[int]:
        return sorted(self.lost)

    async def find(self, db: Reads) -> ForgetReport:
        await self._messages(db)
        await self._facts(db)
        await self._days(db)
        await self._summaries(db)
        await self._reminders(db)
        self.notes = await self._notes(db)
        return ForgetReport(
            scope=self.scope.kind,
            messages_removed=len(self.lost),
            facts_forgotten=len(self.fact_ids),
            facts_unmerged=len(self.unmerged),
            days_removed=len(self.day_deletes),
            days_rewritten=len(self.day_rewrites),
            conversation_summaries_rewritten=len(self.summary_rewrites),
            reminders_removed=len(self.reminder_ids),
            notes_removed=len(self.notes.note_ids),
            note_versions_erased=self.notes.versions,
            messages=await self._message_samples(db),
            facts=await self._fact_samples(db),
            notes=tuple(
                Sample(
                    n.id,
                    n.day,
                    f"note {n.name}" + ("" if n.in_use else " (kept version)"),
                    n.description,
                )
                for n in self.notes.samples[:SAMPLE]
            ),
        )

    async def _notes(self, db: Reads) -> NotesInScope:
        names = self.scope.names() if self.scope.kind == "person" else None
        return await find_notes(db, self.user_id, self.scope, names, self.tz)

    def _also_facts(self) -> set[int]:
        """Facts taken whatever they say (a re-applied forget's own: kit/forget/reapply.py)."""
        return set()

    async def _messages(self, db: Reads) -> None:
        s = self.scope
        if self.names is None:
            sql = "SELECT m.id, m.conversation_id, c.window_start_id FROM messages m"
            sql += " JOIN conversations c ON c.id = m.conversation_id WHERE m.user_id = ?"
            params: list[Any] = [self.user_id]
            if s.after is not None:
                sql += " AND m.day > ?"
                params.append(s.after.isoformat())
            if s.before is not None:
                sql += " AND m.day < ?"
                params.append(s.before.isoformat())
            for message_id, conversation_id, window_start in await db.fetchall(sql, params):
                self.lost[message_id] = conversation_id
                if message_id < window_start:
                    self.early_conversations.add(conversation_id)
            return
        after = 0
        while True:  # in batches: an archive can be large
            rows = await db.fetchall(
                "SELECT id, conversation_id, speaker, COALESCE(forwarded_from, ''), text"
                " FROM messages WHERE user_id = ? AND id > ? ORDER BY id LIMIT ?",
                (self.user_id, after, _BATCH),
            )
            if not rows:
                return
            for message_id, conversation_id, speaker, origin, text in rows:
                # Words forwarded from the person are theirs, as much as words they spoke.
                said = self.names.in_speaker(speaker) or self.names.in_speaker(origin)
                if said or self.names.in_text(text):
                    self.lost[message_id] = conversation_id
            after = rows[-1][0]

    async def _facts(self, db: Reads) -> None:
        rows = await db.fetchall(
            "SELECT id, subject, content, created_at, active, replaced_by FROM facts"
            " WHERE user_id = ? AND content != ?",  # already forgotten: not counted twice
            (self.user_id, FORGOTTEN),
        )
        active = {r[0]: bool(r[4]) for r in rows}
        merged_into = {r[0]: r[5] for r in rows if r[5] in active}
        chosen, cited = await self._by_history(db)
        chosen |= self._also_facts()
        start, end = self._utc_bounds()
        for fact_id, subject, content, created_at, _, _ in rows:
            if self.names is not None:
                if self.names.in_text(subject, content):
                    chosen.add(fact_id)
            elif fact_id not in cited and (start is None or created_at >= start):
                if end is None or created_at < end:
                    chosen.add(fact_id)
        # A merge holds what was merged into it: it goes with any of its parts.
        chosen = _grow(
            chosen & active.keys(), lambda have: {merged_into[i] for i in have if i in merged_into}
        )
        self.fact_ids = sorted(chosen)
        # The other parts of a merge erased while in use (directly, or down a chain of merges)
        # come back: what they said is not forgotten.
        in_use = _grow(
            {i for i in chosen if active[i]},
            lambda have: {i for i in chosen if merged_into.get(i) in have},
        )
        self.unmerged = sorted(
            i
            for i, into in merged_into.items()
            if into in in_use and i not in chosen and not active[i]
        )

    async def _by_history(self, db: Reads) -> tuple[set[int], set[int]]:
        """Facts whose history takes them (see the module docstring), and the facts that have
        cited sources at all."""
        lost = set(self.lost)
        chosen: set[int] = set()
        cited: set[int] = set()
        history = await db.fetchall(
            "SELECT fact_id, reason, before_json, after_json, source_message_ids,"
            " sources_are_batch FROM fact_history WHERE user_id = ?",
            (self.user_id,),
        )
        for fact_id, reason, before_json, after_json, sources, batch_wide in history:
            ids = set(json.loads(sources))
            if not batch_wide:
                if ids:
                    cited.add(fact_id)
                if ids & lost:
                    chosen.add(fact_id)
            elif ids and (ids <= lost if self.names is not None else ids & lost):
                chosen.add(fact_id)
            if self.names is not None and fact_id not in chosen:
                said = [reason]
                for snapshot in (before_json, after_json):
                    if snapshot is not None:
                        data = json.loads(snapshot)
                        said += [data.get("subject"), data.get("content")]
                if self.names.in_text(*said):
                    chosen.add(fact_id)
        return chosen, cited

    def _utc_bounds(self) -> tuple[str | None, str | None]:
        s = self.scope
        start = None if s.after is None else day_bounds(s.after, self.tz)[1]
        end = None if s.before is None else day_bounds(s.before, self.tz)[0]
        return (None if start is None else to_iso(start), None if end is None else to_iso(end))

    async def _days(self, db: Reads) -> None:
        rows = await db.fetchall(
            "SELECT id, day, detailed, condensed FROM days WHERE user_id = ?", (self.user_id,)
        )
        s = self.scope
        for day_id, day, detailed, condensed in rows:
            if self.names is None:
                if (s.after is None or day > s.after.isoformat()) and (
                    s.before is None or day < s.before.isoformat()
                ):
                    self.day_deletes.append(day_id)
            elif self.names.in_text(detailed, condensed):
                detailed = scrub_text(detailed, self.names)
                condensed = scrub_text(condensed, self.names)
                if detailed or condensed:
                    self.day_rewrites.append((day_id, detailed, condensed))
                else:
                    self.day_deletes.append(day_id)

    async def _summaries(self, db: Reads) -> None:
        rows = await db.fetchall(
            "SELECT id, window_summary FROM conversations"
            " WHERE user_id = ? AND window_summary != ''",
            (self.user_id,),
        )
        for conversation_id, summary in rows:
            if self.names is None:
                # A rolling summary cannot be split by date: if it folded in lost messages, it goes.
                if conversation_id in self.early_conversations:
                    self.summary_rewrites.append((conversation_id, ""))
            elif self.names.in_text(summary):
                self.summary_rewrites.append((conversation_id, scrub_text(summary, self.names)))

    async def _reminders(self, db: Reads) -> None:
        """A reminder is the owner's words too: it goes when it names the person, or when it
        was asked for inside the range (its request message goes with the range)."""
        start, end = self._utc_bounds()
        for reminder_id, text, created_at in await forget_candidates(db, self.user_id):
            if self.names is not None:
                taken = self.names.in_text(text)
            else:
                taken = (start is None or created_at >= start) and (end is None or created_at < end)
            if taken:
                self.reminder_ids.append(reminder_id)

    async def _message_samples(self, db: Reads) -> tuple[Sample, ...]:
        ids = self.message_ids[:SAMPLE]
        if not ids:
            return ()
        rows = await db.fetchall(
            f"SELECT id, day, role, speaker, text FROM messages WHERE id IN ({_marks(ids)})"
            " ORDER BY id",
            ids,
        )
        return tuple(
            Sample(
                i, date.fromisoformat(day), "Kit" if role == "assistant" else speaker or "you", t
            )
            for i, day, role, speaker, t in rows
        )

    async def _fact_samples(self, db: Reads) -> tuple[Sample, ...]:
        ids = self.fact_ids[:SAMPLE]
        if not ids:
            return ()
        rows = await db.fetchall(
            f"SELECT id, created_at, category, subject, content FROM facts WHERE id IN"
            f" ({_marks(ids)}) ORDER BY id",
            ids,
        )
        return tuple(
            Sample(i, self._day(created), f"{category}" + (f" [{subject}]" if subject else ""), c)
            for i, created, category, subject, c in rows
        )

    def _day(self, at: str) -> date:
        return local_date(from_iso(at), self.tz)


def _grow(start: set[int], step: Callable[[set[int]], set[int]]) -> set[int]:
    """`start` with what `step` adds to it, until it adds nothing more."""
    found = set(start)
    while more := step(found) - found:
        found |= more
    return found


def _marks(ids: list[int]) -> str:
    return ",".join("?" * len(ids))
