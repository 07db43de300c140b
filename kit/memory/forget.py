"""`kit forget`: the owner takes something back: a stretch of time, or a person.

Memory is sacred, so this is the one path that destroys content, and only on the owner's
explicit request. In ONE transaction:
  - messages in the range (or mentioning the person, or spoken by them) are deleted;
  - facts learned from those messages or created in the range (or mentioning the person, now
    or in any earlier version) are deactivated and erased, history snapshots included
    (`FactWriter.forget`);
  - day summaries in the range are deleted; for a person, the lines naming them are cut out of
    day summaries and conversation summaries (a summary left empty is deleted);
  - their embeddings go too, and the FTS indexes are merged so no token of them lingers;
  - curation pass details and REM reports that quote erased text are scrubbed;
  - a `forget_log` row records when it happened, the scope kind and the counts, never what.
Deleted pages are zeroed (`secure_delete`) and the WAL is checkpointed afterwards, so the text
does not survive in the file's free space either.

Forgetting by name matches the name as a whole word, case-insensitively; text that refers to
the person without naming them ("she", "my sister") cannot be found and is kept.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from datetime import date, datetime, timedelta, tzinfo
from typing import Any, Literal

from kit.clock import day_bounds, to_iso
from kit.errors import InputError
from kit.memory.days import day_text_hash
from kit.memory.db import Database, Transaction
from kit.memory.facts import FORGOTTEN, FactWriter, Provenance

_BULLET = re.compile(r"^\s*([-*•]|\d+[.)])\s")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_FTS_TABLES = ("messages_fts", "facts_fts", "days_fts")
_BATCH = 500


@dataclass(frozen=True)
class ForgetScope:
    kind: Literal["time", "person"]
    after: date | None = None  # exclusive: days strictly after this one
    before: date | None = None  # exclusive: days strictly before this one
    person: str = ""

    @classmethod
    def time(cls, *, after: date | None = None, before: date | None = None) -> ForgetScope:
        if after is None and before is None:
            raise InputError("say what to forget: --before DATE, --after DATE or --person NAME")
        if after is not None and before is not None and before - after < timedelta(days=2):
            raise InputError(
                f"no day lies strictly after {after} and before {before}; both ends are "
                "excluded, so widen the range"
            )
        return cls("time", after=after, before=before)

    @classmethod
    def named(cls, name: str) -> ForgetScope:
        cleaned = " ".join(name.split())
        if len(cleaned) < 2 or not re.search(r"\w", cleaned):
            raise InputError(
                f"{name!r} is too short to forget by; give the person's name as it appears "
                "in your messages, e.g. --person Ana"
            )
        if len(cleaned) > 200:
            raise InputError("the name is too long (over 200 characters); give just the name")
        return cls("person", person=cleaned)

    def describe(self) -> str:
        """For the owner's terminal only: never stored (the log keeps no content)."""
        if self.kind == "person":
            return f"everything that names {self.person!r}"
        if self.after and self.before:
            first, last = self.after + timedelta(days=1), self.before - timedelta(days=1)
            return f"everything from {first} to {last}"
        if self.before:
            return f"everything before {self.before}"
        return f"everything after {self.after}"

    def pattern(self) -> re.Pattern[str]:
        return re.compile(rf"(?<!\w){re.escape(self.person)}(?!\w)", re.IGNORECASE)


@dataclass(frozen=True)
class ForgetReport:
    scope: str
    messages_removed: int = 0
    facts_forgotten: int = 0
    history_rows_erased: int = 0
    days_removed: int = 0
    days_rewritten: int = 0
    conversation_summaries_rewritten: int = 0
    records_scrubbed: int = 0  # curation pass details and REM reports quoting erased text
    dry_run: bool = False

    def counts(self) -> dict[str, int]:
        return {k: v for k, v in asdict(self).items() if k not in ("scope", "dry_run")}

    @property
    def total(self) -> int:
        return sum(self.counts().values())


def scrub_text(text: str, mentions: re.Pattern[str]) -> str:
    """`text` without what names the person: whole bullet lines, else the sentences."""
    kept: list[str] = []
    for line in text.splitlines():
        if not mentions.search(line):
            kept.append(line)
        elif not _BULLET.match(line):
            rest = [s for s in _SENTENCE_END.split(line) if not mentions.search(s)]
            if any(s.strip() for s in rest):
                kept.append(" ".join(rest))
    return "\n".join(kept).strip()


class Forgetter:
    def __init__(self, db: Database, tz: tzinfo) -> None:
        self._db = db
        self._tz = tz

    async def forget(
        self, user_id: str, scope: ForgetScope, *, now: datetime, dry_run: bool = False
    ) -> ForgetReport:
        """Forget `scope` in `user_id`'s memory, all in one transaction. With `dry_run`, only
        count what would go."""
        async with self._db.transaction() as tx:
            run = _Run(tx, user_id, scope, now, self._tz)
            report = await run.plan()
            if dry_run:
                return ForgetReport(**{**asdict(report), "dry_run": True})
            await tx.execute("PRAGMA secure_delete = ON")  # zero what is deleted, not just unlink
            report = await run.apply(report)
            await tx.execute(
                "INSERT INTO forget_log (user_id, at, scope, counts_json) VALUES (?, ?, ?, ?)",
                (user_id, to_iso(now), scope.kind, json.dumps(report.counts())),
            )
            await tx.execute("PRAGMA secure_delete = OFF")
        await self._db.checkpoint()  # old page images of the erased rows leave the WAL
        return report


class _Run:
    """One forget: first find everything in scope (`plan`), then change it (`apply`)."""

    def __init__(
        self, tx: Transaction, user_id: str, scope: ForgetScope, now: datetime, tz: tzinfo
    ) -> None:
        self.tx = tx
        self.user_id = user_id
        self.scope = scope
        self.now = now
        self.tz = tz
        self.mentions = scope.pattern() if scope.kind == "person" else None
        self.message_ids: list[int] = []
        self.early_conversations: set[int] = set()  # lost messages already folded in a summary
        self.fact_ids: list[int] = []
        self.day_deletes: list[int] = []
        self.day_rewrites: list[tuple[int, str, str]] = []
        self.summary_rewrites: list[tuple[int, str]] = []

    def _names(self, *texts: str | None) -> bool:
        assert self.mentions is not None
        return any(t and self.mentions.search(t) for t in texts)

    async def plan(self) -> ForgetReport:
        await self._plan_messages()
        await self._plan_facts()
        await self._plan_days()
        await self._plan_summaries()
        return ForgetReport(
            scope=self.scope.kind,
            messages_removed=len(self.message_ids),
            facts_forgotten=len(self.fact_ids),
            days_removed=len(self.day_deletes),
            days_rewritten=len(self.day_rewrites),
            conversation_summaries_rewritten=len(self.summary_rewrites),
        )

    async def _plan_messages(self) -> None:
        s = self.scope
        if s.kind == "time":
            sql = "SELECT m.id, m.conversation_id, c.window_start_id FROM messages m"
            sql += " JOIN conversations c ON c.id = m.conversation_id WHERE m.user_id = ?"
            params: list[Any] = [self.user_id]
            if s.after is not None:
                sql += " AND m.day > ?"
                params.append(s.after.isoformat())
            if s.before is not None:
                sql += " AND m.day < ?"
                params.append(s.before.isoformat())
            for message_id, conversation_id, window_start in await self.tx.fetchall(sql, params):
                self.message_ids.append(message_id)
                if message_id < window_start:
                    self.early_conversations.add(conversation_id)
            return
        after = 0
        while True:  # in batches: an archive can be large
            rows = await self.tx.fetchall(
                "SELECT id, speaker, text FROM messages WHERE user_id = ? AND id > ?"
                " ORDER BY id LIMIT ?",
                (self.user_id, after, _BATCH * 10),
            )
            if not rows:
                return
            self.message_ids += [r[0] for r in rows if self._names(r[1], r[2])]
            after = rows[-1][0]

    async def _plan_facts(self) -> None:
        chosen: set[int] = set()
        lost = set(self.message_ids)
        history = await self.tx.fetchall(
            "SELECT fact_id, reason, before_json, after_json, source_message_ids"
            " FROM fact_history WHERE user_id = ?",
            (self.user_id,),
        )
        for fact_id, reason, before_json, after_json, sources in history:
            if lost and lost.intersection(json.loads(sources)):
                chosen.add(fact_id)
            elif self.mentions is not None:
                said = [reason]
                for snapshot in (before_json, after_json):
                    if snapshot is not None:
                        data = json.loads(snapshot)
                        said += [data.get("subject"), data.get("content")]
                if self._names(*said):
                    chosen.add(fact_id)
        rows = await self.tx.fetchall(
            "SELECT id, subject, content, created_at FROM facts WHERE user_id = ? AND content != ?",
            (self.user_id, FORGOTTEN),
        )
        start, end = self._utc_bounds()
        live = set()
        for fact_id, subject, content, created_at in rows:
            live.add(fact_id)
            if self.mentions is not None:
                if self._names(subject, content):
                    chosen.add(fact_id)
            elif (start is None or created_at >= start) and (end is None or created_at < end):
                chosen.add(fact_id)
        self.fact_ids = sorted(chosen & live)  # already-forgotten facts are not counted twice

    def _utc_bounds(self) -> tuple[str | None, str | None]:
        s = self.scope
        start = None if s.after is None else day_bounds(s.after, self.tz)[1]
        end = None if s.before is None else day_bounds(s.before, self.tz)[0]
        return (None if start is None else to_iso(start), None if end is None else to_iso(end))

    async def _plan_days(self) -> None:
        rows = await self.tx.fetchall(
            "SELECT id, day, detailed, condensed FROM days WHERE user_id = ?", (self.user_id,)
        )
        s = self.scope
        for day_id, day, detailed, condensed in rows:
            if self.mentions is None:
                if (s.after is None or day > s.after.isoformat()) and (
                    s.before is None or day < s.before.isoformat()
                ):
                    self.day_deletes.append(day_id)
            elif self._names(detailed, condensed):
                detailed = scrub_text(detailed, self.mentions)
                condensed = scrub_text(condensed, self.mentions)
                if detailed or condensed:
                    self.day_rewrites.append((day_id, detailed, condensed))
                else:
                    self.day_deletes.append(day_id)

    async def _plan_summaries(self) -> None:
        rows = await self.tx.fetchall(
            "SELECT id, window_summary FROM conversations"
            " WHERE user_id = ? AND window_summary != ''",
            (self.user_id,),
        )
        for conversation_id, summary in rows:
            if self.mentions is None:
                # A rolling summary cannot be split by date: if it folded in lost messages, it goes.
                if conversation_id in self.early_conversations:
                    self.summary_rewrites.append((conversation_id, ""))
            elif self._names(summary):
                self.summary_rewrites.append((conversation_id, scrub_text(summary, self.mentions)))

    async def apply(self, report: ForgetReport) -> ForgetReport:
        tx = self.tx
        erased_texts: set[str] = set()
        writer = FactWriter(tx, self.user_id, self.now)
        provenance = Provenance(actor="owner", reason="forgotten at the owner's request")
        history_rows = 0
        for fact_id in self.fact_ids:
            erased_texts |= await self._fact_texts(fact_id)
            history_rows += await writer.forget(fact_id, provenance=provenance)
        await self._drop_source_links()
        await tx.executemany(
            "DELETE FROM messages WHERE id = ? AND user_id = ?",
            [(i, self.user_id) for i in self.message_ids],
        )
        await tx.executemany("DELETE FROM days WHERE id = ?", [(i,) for i in self.day_deletes])
        await tx.executemany(
            "UPDATE days SET detailed = ?, condensed = ?, content_hash = ?, updated_at = ?"
            " WHERE id = ?",
            [(d, c, day_text_hash(d, c), to_iso(self.now), i) for i, d, c in self.day_rewrites],
        )
        await tx.executemany(
            "UPDATE conversations SET window_summary = ? WHERE id = ?",
            [(text, i) for i, text in self.summary_rewrites],
        )
        gone = [("message", i) for i in self.message_ids] + [("fact", i) for i in self.fact_ids]
        gone += [("day", i) for i in self.day_deletes + [r[0] for r in self.day_rewrites]]
        await tx.executemany("DELETE FROM embeddings WHERE kind = ? AND item_id = ?", gone)
        scrubbed = await self._scrub_records(erased_texts)
        for table in _FTS_TABLES:  # merge segments: deleted tokens leave the index for good
            await tx.execute(f"INSERT INTO {table}({table}) VALUES ('optimize')")
        return ForgetReport(
            **{**asdict(report), "history_rows_erased": history_rows, "records_scrubbed": scrubbed}
        )

    async def _fact_texts(self, fact_id: int) -> set[str]:
        """Every subject and content the fact ever had (to find them quoted elsewhere)."""
        texts: set[str] = set()
        row = await self.tx.fetchone("SELECT subject, content FROM facts WHERE id = ?", (fact_id,))
        if row is not None:
            texts.update(row)
        for before_json, after_json in await self.tx.fetchall(
            "SELECT before_json, after_json FROM fact_history WHERE fact_id = ?", (fact_id,)
        ):
            for snapshot in (before_json, after_json):
                if snapshot is not None:
                    data = json.loads(snapshot)
                    texts.update((str(data.get("subject", "")), str(data.get("content", ""))))
        return {t for t in texts if len(t) >= 4 and t != FORGOTTEN}

    async def _drop_source_links(self) -> None:
        """History keeps no pointers to deleted messages."""
        lost = set(self.message_ids)
        if not lost:
            return
        rows = await self.tx.fetchall(
            "SELECT id, source_message_ids FROM fact_history WHERE user_id = ?"
            " AND source_message_ids != '[]'",
            (self.user_id,),
        )
        updates = []
        for row_id, sources in rows:
            ids = json.loads(sources)
            kept = [i for i in ids if i not in lost]
            if len(kept) != len(ids):
                updates.append((json.dumps(kept), row_id))
        await self.tx.executemany(
            "UPDATE fact_history SET source_message_ids = ? WHERE id = ?", updates
        )

    async def _scrub_records(self, erased: set[str]) -> int:
        """Curation pass details and REM reports are written by other modules, in their own
        JSON shapes: every string in them that quotes erased text (or names the person) is
        replaced whole."""
        if not erased and self.mentions is None:
            return 0
        tables = {
            r[0]
            for r in await self.tx.fetchall("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
        count = 0
        for table, column in (("passes", "detail_json"), ("rem_reports", "report_json")):
            if table not in tables:
                continue
            rows = await self.tx.fetchall(
                f"SELECT id, {column} FROM {table} WHERE user_id = ?", (self.user_id,)
            )
            for row_id, text in rows:
                data = json.loads(text)
                cleaned = _scrub_json(data, erased, self.mentions)
                if cleaned != data:
                    count += 1
                    await self.tx.execute(
                        f"UPDATE {table} SET {column} = ? WHERE id = ?",
                        (json.dumps(cleaned), row_id),
                    )
        if "passes" in tables:  # a pass's reason may quote a fact too
            rows = await self.tx.fetchall(
                "SELECT id, reason FROM passes WHERE user_id = ? AND reason != ''",
                (self.user_id,),
            )
            for row_id, reason in rows:
                if _quotes(reason, erased, self.mentions):
                    count += 1
                    await self.tx.execute(
                        "UPDATE passes SET reason = ? WHERE id = ?", (FORGOTTEN, row_id)
                    )
        return count


def _quotes(text: str, erased: Iterable[str], mentions: re.Pattern[str] | None) -> bool:
    return any(t in text for t in erased) or (mentions is not None and bool(mentions.search(text)))


def _scrub_json(value: Any, erased: set[str], mentions: re.Pattern[str] | None) -> Any:
    if isinstance(value, str):
        return FORGOTTEN if _quotes(value, erased, mentions) else value
    if isinstance(value, list):
        return [_scrub_json(v, erased, mentions) for v in value]
    if isinstance(value, dict):
        return {k: _scrub_json(v, erased, mentions) for k, v in value.items()}
    return value
