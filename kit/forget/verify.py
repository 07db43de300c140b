"""`kit forget --verify RECEIPT`: is anything a forget erased back, or still there, anywhere?

Every place memory keeps text or something derived from it is looked at, in the memory of the
receipt's user (PLACES; the derived ones in derived.py):
  - messages: one whose fingerprint (time, role, speaker, text) is an erased one's is back,
    imported again or written in some other way, and so is one near it (traces.py `near`: its
    time moved by less than an hour, its text with other spaces or capitals); for a time
    range, any message dated inside it from before the forget;
  - facts (rows and every history snapshot), day summaries, conversation summaries, notes
    (versions, sections), reminders and their deliveries, and records (curation passes, REM
    reports, curation errors, inbox questions): any text holding an erased piece word for word
    (traces.py says which pieces), an erased fact or note version holding text again, a
    record still citing an erased message; for a time range, a day summary or note version from
    inside it;
  - the search index, vectors (rows, saved graphs, this process's memory): an entry of an
    erased row that is gone, or that holds what its row said before it was erased.
What a receipt cannot see: text that says the same in other words (a model's new summary of
a re-imported conversation) — but the messages it came from are found by their fingerprints.
A verification reads only; it names places, counts and ids, never text.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from datetime import tzinfo
from typing import Any

from kit.clock import day_bounds, local_date, to_iso
from kit.forget.derived import Derived, Stale
from kit.forget.findings import (
    DAYS,
    FACTS,
    MESSAGES,
    NOTES,
    PLACES,
    RECORDS,
    REMINDERS,
    SUMMARIES,
    Leftover,
    Verification,
    leftover,
)
from kit.forget.index_audit import IndexAudit
from kit.forget.receipt import Receipt
from kit.forget.receipts import erased_message, info
from kit.forget.traces import strings_in, units_of, windows
from kit.memory.fact_writer import FORGOTTEN
from kit.retrieval.vectors import VectorStore
from kit.store.db import Database

_BATCH = 2000
_ID_LISTS = ("source_message_ids", "sources")


class Verifier:
    def __init__(
        self, db: Database, tz: tzinfo, audit: IndexAudit, vectors: VectorStore | None
    ) -> None:
        self._db = db
        self._tz = tz
        self._audit = audit
        self._vectors = vectors

    async def verify(self, user_id: str, receipt: Receipt) -> Verification:
        verification, _, _ = await self._run(user_id, receipt)
        return verification

    async def repair(self, user_id: str, receipt: Receipt) -> Verification:
        """Erase the derived leftovers (search index, vectors, saved graphs) a verification
        finds, then verify again. Rows and text that came back stay: they need a forget."""
        _, derived, stale = await self._run(user_id, receipt)
        await derived.repair(stale)
        return await self.verify(user_id, receipt)

    async def _run(self, user_id: str, receipt: Receipt) -> tuple[Verification, Derived, Stale]:
        check = _Check(self._db, self._tz, user_id, receipt)
        found = await check.messages()
        found += await check.facts()
        found += await check.days()
        found += await check.summaries()
        found += await check.notes()
        found += await check.reminders()
        found += await check.records()
        derived = Derived(self._db, self._audit, self._vectors, user_id, receipt, check.back)
        stale = await derived.find()
        found += stale.leftovers()
        leftovers = tuple(f for f in found if f is not None)
        return Verification(info(receipt), PLACES, leftovers), derived, stale


class _Check:
    """The row and text places, for one receipt in one user's memory."""

    def __init__(self, db: Database, tz: tzinfo, user_id: str, receipt: Receipt) -> None:
        self.db = db
        self.tz = tz
        self.user_id = user_id
        self.receipt = receipt
        self.hasher = receipt.hasher
        self.texts = frozenset(receipt.texts)
        self.back: set[int] = set()  # ids of erased messages that are back

    def quotes(self, *texts: str | None, pieces: bool = True, inside: bool = False) -> bool:
        """Whether any piece of `texts` is a piece the forget erased; with `inside`, also one
        quoted inside a longer text (a record's "rejected: <the fact>")."""
        if not self.texts:
            return False
        found = units_of(texts, pieces=pieces)
        if inside:
            for text in texts:
                found |= windows(text or "", self.receipt.lengths)
        return any(self.hasher("text", p) in self.texts for p in found)

    async def rows(self, sql: str, params: Sequence[Any] = ()) -> Iterator[Any]:
        """`sql` (selecting an id first, with `AND id > ?` last before `ORDER BY id LIMIT ?`)
        read a batch at a time: an archive can be large."""
        found: list[Any] = []
        after = 0
        while True:
            batch = await self.db.fetchall(sql, (*params, after, _BATCH))
            found.extend(batch)
            if len(batch) < _BATCH:
                return iter(found)
            after = int(batch[-1][0])

    async def messages(self) -> list[Leftover | None]:
        erased = frozenset(self.receipt.messages)
        near = frozenset(self.receipt.near)
        r = self.receipt
        at = to_iso(r.at)
        back, in_range = [], []
        for message_id, when, role, speaker, text, day in await self.rows(
            "SELECT id, at, role, speaker, text, day FROM messages WHERE user_id = ?"
            " AND id > ? ORDER BY id LIMIT ?",
            (self.user_id,),
        ):
            if erased and erased_message(
                self.hasher, erased, near, str(when), str(role), str(speaker), str(text)
            ):
                back.append(int(message_id))
            elif r.scope == "time" and str(when) < at and _inside(str(day), r):
                in_range.append(int(message_id))
        self.back = set(back)
        return [
            leftover(MESSAGES, "erased messages back (imported or written again)", back),
            leftover(MESSAGES, "messages dated inside the forgotten range", in_range),
        ]

    async def facts(self) -> list[Leftover | None]:
        erased = set(self.receipt.ids.facts)
        texts, refilled = [], []
        for fact_id, subject, content, active in await self.rows(
            "SELECT id, subject, content, active FROM facts WHERE user_id = ? AND id > ?"
            " ORDER BY id LIMIT ?",
            (self.user_id,),
        ):
            if fact_id in erased and (content != FORGOTTEN or subject or active):
                refilled.append(int(fact_id))
            elif self.quotes(subject, content):
                texts.append(int(fact_id))
        for _, fact_id, reason, before_json, after_json in await self.rows(
            "SELECT id, fact_id, reason, before_json, after_json FROM fact_history"
            " WHERE user_id = ? AND id > ? ORDER BY id LIMIT ?",
            (self.user_id,),
        ):
            said: list[str | None] = [reason]
            for snapshot in (before_json, after_json):
                data = json.loads(snapshot) if snapshot else None
                if isinstance(data, dict):
                    said += [str(data.get("subject") or ""), str(data.get("content") or "")]
            if fact_id in erased and any(s and s != FORGOTTEN for s in said[1:]):
                refilled.append(int(fact_id))
            elif self.quotes(*said):
                texts.append(int(fact_id))
        return [
            leftover(FACTS, "erased facts holding text again (now or in their history)", refilled),
            leftover(FACTS, "facts holding erased text word for word", texts),
        ]

    async def days(self) -> list[Leftover | None]:
        r = self.receipt
        forgot_on = local_date(r.at, self.tz).isoformat()
        texts, in_range = [], []
        for day_id, day, detailed, condensed in await self.rows(
            "SELECT id, day, detailed, condensed FROM days WHERE user_id = ? AND id > ?"
            " ORDER BY id LIMIT ?",
            (self.user_id,),
        ):
            if self.quotes(detailed, condensed):
                texts.append(int(day_id))
            elif r.scope == "time" and str(day) < forgot_on and _inside(str(day), r):
                in_range.append(int(day_id))
        return [
            leftover(DAYS, "day summaries holding erased text word for word", texts),
            leftover(DAYS, "day summaries of days inside the forgotten range", in_range),
        ]

    async def summaries(self) -> list[Leftover | None]:
        texts = [
            int(conversation_id)
            for conversation_id, summary in await self.rows(
                "SELECT id, window_summary FROM conversations WHERE user_id = ? AND id > ?"
                " ORDER BY id LIMIT ?",
                (self.user_id,),
            )
            if self.quotes(summary)
        ]
        return [leftover(SUMMARIES, "rolling summaries holding erased text word for word", texts)]

    async def notes(self) -> list[Leftover | None]:
        r = self.receipt
        erased = set(r.ids.note_revisions)
        start, end = self._bounds()
        refilled, texts, in_range = [], [], []
        for revision_id, name, at, description, body in await self.rows(
            "SELECT id, name, at, description, body FROM note_history WHERE user_id = ?"
            " AND id > ? ORDER BY id LIMIT ?",
            (self.user_id,),
        ):
            if revision_id in erased and (body is not None or name or description):
                refilled.append(int(revision_id))
            elif self.quotes(body, description, pieces=False):
                texts.append(int(revision_id))
            elif (
                body is not None
                and r.scope == "time"
                and str(at) < to_iso(r.at)
                and (start is None or str(at) >= start)
                and (end is None or str(at) < end)
            ):
                in_range.append(int(revision_id))
        in_use = [
            int(row[0])
            for row in await self.rows(
                "SELECT id, revision_id FROM notes WHERE user_id = ? AND id > ? ORDER BY id"
                " LIMIT ?",
                (self.user_id,),
            )
            if row[1] in erased
        ]
        sections = [
            int(section_id)
            for section_id, text in await self.rows(
                "SELECT id, text FROM note_chunks WHERE user_id = ? AND id > ? ORDER BY id LIMIT ?",
                (self.user_id,),
            )
            if self.quotes(text, pieces=False)
        ]
        return [
            leftover(NOTES, "erased note versions holding text again", refilled),
            leftover(NOTES, "notes in use at an erased version", in_use),
            leftover(NOTES, "note versions holding erased text word for word", texts),
            leftover(NOTES, "note sections holding erased text word for word", sections),
            leftover(NOTES, "note versions written inside the forgotten range", in_range),
        ]

    def _bounds(self) -> tuple[str | None, str | None]:
        r = self.receipt
        start = None if r.after is None else to_iso(day_bounds(r.after, self.tz)[1])
        end = None if r.before is None else to_iso(day_bounds(r.before, self.tz)[0])
        return start, end

    async def reminders(self) -> list[Leftover | None]:
        texts = [
            int(reminder_id)
            for reminder_id, text in await self.rows(
                "SELECT id, text FROM reminders WHERE user_id = ? AND id > ? ORDER BY id LIMIT ?",
                (self.user_id,),
            )
            if self.quotes(text, pieces=False)
        ]
        texts += [
            int(reminder_id)
            for _, reminder_id, text in await self.rows(
                "SELECT id, reminder_id, text FROM reminder_deliveries WHERE user_id = ?"
                " AND id > ? ORDER BY id LIMIT ?",
                (self.user_id,),
            )
            if text and self.quotes(text, pieces=False)
        ]
        return [leftover(REMINDERS, "reminders holding erased text word for word", texts)]

    async def records(self) -> list[Leftover | None]:
        gone = await self._gone_messages()
        quoting, citing = [], []
        for pass_id, reason, detail_json in await self.rows(
            "SELECT id, reason, detail_json FROM passes WHERE user_id = ? AND id > ?"
            " ORDER BY id LIMIT ?",
            (self.user_id,),
        ):
            detail = json.loads(detail_json)
            if self.quotes(reason, *strings_in(detail), inside=True):
                quoting.append(int(pass_id))
            if gone & _cited(detail):
                citing.append(int(pass_id))
        for _, fact_id, sources in await self.rows(
            "SELECT id, fact_id, source_message_ids FROM fact_history WHERE user_id = ?"
            " AND id > ? ORDER BY id LIMIT ?",
            (self.user_id,),
        ):
            if gone & set(json.loads(sources)):
                citing.append(int(fact_id))
        reports = [
            int(report_id)
            for report_id, report in await self.rows(
                "SELECT id, report_json FROM rem_reports WHERE user_id = ? AND id > ?"
                " ORDER BY id LIMIT ?",
                (self.user_id,),
            )
            if self.quotes(*strings_in(json.loads(report)), inside=True)
        ]
        errors = [
            int(row[0])
            for row in await self.db.fetchall(
                "SELECT conversation_id, last_error FROM curation_state WHERE user_id = ?",
                (self.user_id,),
            )
            if self.quotes(row[1], inside=True)
        ]
        errors += [
            int(parked_id)
            for parked_id, reason in await self.rows(
                "SELECT id, reason FROM curation_parked WHERE user_id = ? AND id > ?"
                " ORDER BY id LIMIT ?",
                (self.user_id,),
            )
            if self.quotes(reason, inside=True)
        ]
        # An inbox question quotes the facts it asks about and the operation it proposes
        # (kit/forget/inbox.py deletes those a forget touches; one written back is a leftover).
        questions = []
        for question_id, reason, operation_json, old_json in await self.rows(
            "SELECT id, reason, operation_json, old_json FROM inbox WHERE user_id = ? AND id > ?"
            " ORDER BY id LIMIT ?",
            (self.user_id,),
        ):
            asked = [json.loads(operation_json), json.loads(old_json)]
            if self.quotes(reason, *strings_in(asked), inside=True) or gone & _cited(asked):
                questions.append(int(question_id))
        return [
            leftover(RECORDS, "curation pass records holding erased text word for word", quoting),
            leftover(
                RECORDS, "records still citing erased messages (passes, fact history)", citing
            ),
            leftover(RECORDS, "REM reports holding erased text word for word", reports),
            leftover(RECORDS, "curation errors holding erased text word for word", errors),
            leftover(
                RECORDS, "inbox questions holding erased text or citing erased messages", questions
            ),
        ]

    async def _gone_messages(self) -> set[int]:
        """Erased message ids that are no message of this user now, or that are back."""
        erased = self.receipt.ids.messages
        present: set[int] = set()
        for start in range(0, len(erased), _BATCH):
            chunk = erased[start : start + _BATCH]
            present |= {
                int(r[0])
                for r in await self.db.fetchall(
                    f"SELECT id FROM messages WHERE user_id = ? AND id IN ({_marks(chunk)})",
                    (self.user_id, *chunk),
                )
            }
        return (set(erased) - present) | (set(erased) & self.back)


def _inside(day: str, receipt: Receipt) -> bool:
    after, before = receipt.after, receipt.before
    return (after is None or day > after.isoformat()) and (
        before is None or day < before.isoformat()
    )


def _cited(value: Any) -> set[int]:
    """Message ids in a record's id lists (`source_message_ids`, an operation's `sources`)."""
    found: set[int] = set()
    if isinstance(value, list):
        for v in value:
            found |= _cited(v)
    elif isinstance(value, dict):
        for k, v in value.items():
            if k in _ID_LISTS and isinstance(v, list):
                found |= {i for i in v if isinstance(i, int) and not isinstance(i, bool)}
            else:
                found |= _cited(v)
    return found


def _marks(ids: Sequence[int]) -> str:
    return ",".join("?" * len(ids))
