"""Building a day's digest from the record: the passes that finished in its window and their
history rows (kit/curator/records.py, kit/memory/history.py), REM's expiries and `remember`'s
facts, each fact with the messages it came from, and the inbox questions still waiting for an
answer (questions.py). Reads only.

What a pass did to each fact is read from its history rows (the record every change writes),
not from what the model asked for: a fact it inserted was learned, or merged when other facts
were folded into it; one it changed shows what it was; one it deactivated was retired. The
owner's own changes and undos are the owner's and are not reported back to them.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from typing import Any

from kit.clock import Clock, from_iso
from kit.config import DigestSettings, parse_hhmm
from kit.curator.questions import InboxStore
from kit.curator.records import PassLog, PassRecord
from kit.digest.model import Digest, DigestLine, DigestPass, LineKind
from kit.digest.questions import waiting_questions
from kit.memory.fact_rows import Fact, HistoryEntry
from kit.memory.fact_times import SUPERSEDED
from kit.memory.fact_writer import FORGOTTEN
from kit.memory.facts import Facts
from kit.memory.history import FactHistory
from kit.memory.messages import Message, Messages
from kit.text import clip
from kit.untrusted.clean import clean_name

NOT_REPORTED = ("owner", "undo")  # pass kinds that are the owner's own doing
LINE_CHARS = 200  # a fact's text in a digest line, at most (the rest: `kit facts`)
TIMES_LISTED = 3  # message times named per line; the rest are counted
# Where a REM pass's change came from, for a line that cites no message.
_REM_SOURCES = {
    "rem_review": "REM's review of facts unused for long",
    "rem_copies": "REM: the same fact was stored twice",
}


class DigestBuilder:
    def __init__(
        self,
        passes: PassLog,
        history: FactHistory,
        facts: Facts,
        messages: Messages,
        inbox: InboxStore,
        settings: DigestSettings,
        clock: Clock,
        tz: tzinfo,
    ) -> None:
        self._passes = passes
        self._history = history
        self._facts = facts
        self._messages = messages
        self._inbox = inbox
        self._cut = time(*parse_hhmm(settings.time, "config.toml: digest.time"))
        self._clock = clock
        self._tz = tz

    def window(self, day: date) -> tuple[datetime, datetime]:
        """The digest day's (since, until]: from the day before's digest time to its own."""
        until = datetime.combine(day, self._cut, tzinfo=self._tz)
        since = datetime.combine(day - timedelta(days=1), self._cut, tzinfo=self._tz)
        return since.astimezone(UTC), until.astimezone(UTC)

    def day_of(self, when: datetime) -> date:
        """The digest day a moment belongs to (after the digest time: the next day's)."""
        local = when.astimezone(self._tz)
        return local.date() + timedelta(days=1) if local.time() > self._cut else local.date()

    def closed_day(self, when: datetime) -> date:
        """The latest digest day whose digest time has come at `when`."""
        local = when.astimezone(self._tz)
        return local.date() if local.time() >= self._cut else local.date() - timedelta(days=1)

    async def build(self, user_id: str, day: date) -> Digest:
        since, until = self.window(day)
        records = [
            r
            for r in await self._passes.finished_between(user_id, since, until)
            if r.kind not in NOT_REPORTED
        ]
        # A pass that changed nothing because every operation was dropped is listed too: the
        # owner sees what Kit refused to learn, and why (kit/curator/grounding.py).
        applied = [
            r
            for r in records
            if r.status in ("applied", "undone") or (r.status == "noop" and r.detail.get("dropped"))
        ]
        entries = await self._history.of_passes(user_id, [r.id for r in applied])
        expired = [
            e
            for e in await self._history.outside_passes(
                user_id, since, until, actor="rem", operation="deactivate"
            )
            if e.reason == "expired"
        ]
        remembered = await self._history.outside_passes(
            user_id, since, until, actor="remember", operation="insert"
        )
        questions, more, older = await waiting_questions(
            self._inbox, user_id, since, until, self._clock.now()
        )
        everything = [*entries, *expired, *remembered]
        wanted = sorted({i for e in everything for i in e.source_message_ids})
        found = {m.id: m for m in await self._messages.get_many(user_id, wanted)}
        fact_ids = sorted({e.fact_id for e in everything})
        live = {f.id: f for f in await self._facts.live(user_id, self._clock.now(), fact_ids)}
        lines = _Lines(found, live, self._tz)
        by_pass: dict[int, list[HistoryEntry]] = {}
        for entry in entries:
            by_pass.setdefault(entry.pass_id or 0, []).append(entry)
        passes = tuple(
            DigestPass(
                r.id,
                r.kind,
                r.category or "",
                r.finished_at or r.started_at,
                r.status,
                lines=lines.of_pass(r, by_pass.get(r.id, [])),
                dropped=tuple(str(d) for d in r.detail.get("dropped", [])),
            )
            for r in applied
        )
        refused = tuple(
            DigestPass(
                r.id, r.kind, r.category or "", r.finished_at or r.started_at, r.status,
                reason=r.reason,
            )
            for r in records
            if r.status == "rejected"
        )  # fmt: skip
        return Digest(
            user_id,
            day,
            since,
            until,
            passes=passes,
            expired=tuple(lines.single("expired", e) for e in expired if _shown(e)),
            remembered=tuple(lines.single("remembered", e) for e in remembered if _shown(e)),
            refused=refused,
            questions=questions,
            more_questions=more,
            older_questions=older,
        )


def _snapshot(entry: HistoryEntry) -> dict[str, Any]:
    return entry.after or entry.before or {}


def _shown(entry: HistoryEntry) -> bool:
    """Not a fact `kit forget` erased (its history keeps only its shape)."""
    return _snapshot(entry).get("content") not in (None, FORGOTTEN)


def _text(snapshot: dict[str, Any]) -> str:
    subject = str(snapshot.get("subject") or "")
    content = str(snapshot.get("content") or "")
    return clip(f"[{subject}] {content}" if subject else content, LINE_CHARS)


class _Lines:
    """Digest lines from history entries, with the messages and live facts they refer to."""

    def __init__(self, messages: dict[int, Message], live: dict[int, Fact], tz: tzinfo) -> None:
        self._messages = messages
        self._live = live
        self._tz = tz

    def of_pass(
        self, record: PassRecord, entries: Sequence[HistoryEntry]
    ) -> tuple[DigestLine, ...]:
        by_fact: dict[int, list[HistoryEntry]] = {}
        for entry in entries:
            by_fact.setdefault(entry.fact_id, []).append(entry)
        folded: dict[int, list[int]] = {}  # merged fact -> the facts folded into it
        for fact_id, changes in by_fact.items():
            if changes[-1].operation == "replace":
                target = (changes[-1].after or {}).get("replaced_by")
                if isinstance(target, int):
                    folded.setdefault(target, []).append(fact_id)
        lines = []
        for fact_id, changes in by_fact.items():
            first, last = changes[0], changes[-1]
            # A merged fact's line is its successor's; a version kept when what a fact says
            # changed (facts with time) is the "was:" of its successor's "changed" line.
            if last.operation in ("replace", SUPERSEDED) or not _shown(last):
                continue
            if first.before is None:
                kind: LineKind = "merged" if fact_id in folded else "learned"
                detail = ""
                if fact_id in folded:
                    detail = "merged " + ", ".join(f"#{i}" for i in sorted(folded[fact_id]))
            elif last.after is not None and not last.after.get("active", True):
                kind, detail = "retired", clip(last.reason, 120)
            else:
                kind, detail = "changed", self._what_changed(first.before, last.after or {})
            sources = sorted({i for c in changes for i in c.source_message_ids})
            source = self.source(sources, last.at)
            if not source and record.kind in _REM_SOURCES:
                source = _REM_SOURCES[record.kind]
            lines.append(self._line(kind, last, detail, source))
        return tuple(lines)

    def single(self, kind: LineKind, entry: HistoryEntry) -> DigestLine:
        detail = "past its expiry" if kind == "expired" else "you asked me to remember it"
        return self._line(kind, entry, detail, self.source(entry.source_message_ids, entry.at))

    def _line(self, kind: LineKind, entry: HistoryEntry, detail: str, source: str) -> DigestLine:
        fact = self._live.get(entry.fact_id)
        return DigestLine(
            kind,
            entry.fact_id,
            _text(_snapshot(entry)),
            detail,
            source,
            entry.at,
            live=fact is not None,
            pinned=fact is not None and fact.pinned,
        )

    def source(self, ids: Sequence[int], at: datetime) -> str:
        """Where a change came from: "from your message at 14:02" (the owner's local time)."""
        found = sorted((self._messages[i] for i in ids if i in self._messages), key=_at)
        if not found:
            return "from a message since forgotten" if ids else ""
        day = at.astimezone(self._tz).date()
        if all(_owners(m) for m in found):
            times = [self._when(m.at, day) for m in found[:TIMES_LISTED]]
            more = len(found) - len(times)
            if more:
                times.append(f"{more} more")
            noun = "message" if len(found) == 1 else "messages"
            return f"from your {noun} at {_join(times)}"
        first = found[0]
        rest = f" and {len(found) - 1} more" if len(found) > 1 else ""
        return f"from {self._one(first, day)}{rest}"

    def _one(self, message: Message, day: date) -> str:
        when = self._when(message.at, day)
        if message.source == "import":
            return f"an imported message of {message.at.astimezone(self._tz):%Y-%m-%d}"
        if message.forwarded_from is not None:
            return f"a message you forwarded at {when}"
        if message.role == "assistant":
            return f"Kit's reply at {when}"
        if message.speaker:
            return f"{clean_name(message.speaker)}'s message at {when}"
        return f"your message at {when}"

    def _when(self, at: datetime, day: date) -> str:
        local = at.astimezone(self._tz)
        return (
            f"{local:%H:%M}" if local.date() == day else f"{local:%a} {local.day} {local:%b %H:%M}"
        )

    def _what_changed(self, before: dict[str, Any], after: dict[str, Any]) -> str:
        """What a change did to a fact, in a few words."""
        if before.get("content") != after.get("content") or before.get("subject") != after.get(
            "subject"
        ):
            return "was: " + _text(before)
        if before.get("expires_at") != after.get("expires_at"):
            until = after.get("expires_at")
            if until is None:
                return "no longer expires"
            return f"now expires {from_iso(str(until)).astimezone(self._tz):%Y-%m-%d}"
        if before.get("confidence") != after.get("confidence"):
            return f"confidence {float(before.get('confidence') or 0):.2f} → " + (
                f"{float(after.get('confidence') or 0):.2f}"
            )
        return "updated"


def _at(message: Message) -> datetime:
    return message.at


def _owners(message: Message) -> bool:
    """The owner's own words, typed in a chat (not forwarded, not someone in a group)."""
    return (
        message.role == "user"
        and message.source == "chat"
        and message.forwarded_from is None
        and not message.speaker
    )


def _join(parts: Sequence[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
