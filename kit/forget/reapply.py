"""A forget re-applied: what a receipt erased, found again in a restored memory and erased
again, as the forget erased it (kit/forget/forgetter.py's `Erase`, in the restore's
transaction).

A restore (a backup, or an export) brings back the memory as it was when the file was made;
the forgets made since then are in the data directory's ledger (ledger.py) and in the memory
being replaced, not in the file. Each such receipt is re-applied unless the owner asks for the
forgotten back (`--allow-forgotten`). What is taken again:
  - messages whose fingerprint is an erased one's, exactly or near (traces.py);
  - facts learned from those messages, facts whose text (now or in their history) holds an
    erased piece, and the facts a merge made of them (plan.py's rules, as for a person);
  - day and conversation summaries: dropped when their whole text is an erased one, otherwise
    the erased lines and sentences cut out; note versions and reminders whose text is erased;
    records quoting erased text or citing an erased message are scrubbed;
  - when the restored memory is the one the receipt was made in (an erased message is back
    under its own id, holding what the receipt says it held), also what the receipt lists by
    id (facts, note versions, reminders), and a time range is re-applied whole, by its dates,
    as the forget applied it: a file without the receipt was made before the forget, so
    everything dated inside the range in it was erased then.
A memory the receipt was not made in is matched by hashes only: a forget of the days before
March in one memory never takes another memory's February.

Short texts (under traces.MIN_WORDS words) are not hashed, so outside the receipt's own
memory a short fact survives unless it was learned from an erased message.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, tzinfo
from typing import Any

from kit.forget.forgetter import Erase, log_forget
from kit.forget.notes import NotesInScope, find_notes
from kit.forget.plan import ForgetPlan, ForgetReport, Reads
from kit.forget.receipt import Receipt
from kit.forget.receipts import erased_message, save
from kit.forget.scope import ForgetScope, scrub_text
from kit.forget.traces import units
from kit.reminders.store import forget_candidates
from kit.store.db import Transaction

_BATCH = 2000


@dataclass(frozen=True)
class Reapplied:
    """One receipt re-applied to one user's restored memory, and what it took again."""

    receipt_id: str
    at: datetime  # when the forget first ran
    user_id: str
    report: ForgetReport

    @property
    def total(self) -> int:
        return self.report.total


class _Erased:
    """A receipt's erased texts, asked the way a plan asks for a person's name (scope.py
    `Finder`): a text "names" it when a piece of it (traces.py `units`: the whole, a line, a
    sentence) is an erased piece. As `kit forget --verify` reads facts and summaries; a quote
    inside a longer record is found by the erasing itself (forgetter.py's `Erase` looks for
    the texts of the facts it erases)."""

    def __init__(self, receipt: Receipt) -> None:
        self._hasher = receipt.hasher
        self._texts = frozenset(receipt.texts)
        self._seen: dict[str, bool] = {}

    def _erased(self, piece: str) -> bool:
        found = self._seen.get(piece)
        if found is None:
            found = self._seen[piece] = self._hasher("text", piece) in self._texts
        return found

    def in_text(self, *texts: str | None) -> bool:
        if not self._texts:
            return False
        return any(self._erased(p) for text in texts if text for p in units(text))

    def in_speaker(self, speaker: str) -> bool:
        return False  # a receipt keeps no name

    def whole(self, *texts: str | None) -> bool:
        """Whether one of `texts` is, whole, a text the forget erased (a dropped summary)."""
        if not self._texts:
            return False
        return any(self._erased(p) for text in texts if text for p in units(text, pieces=False))


class ReceiptPlan(ForgetPlan):
    """What a receipt erased, found by its hashes (and its ids, in its own memory)."""

    def __init__(self, user_id: str, receipt: Receipt, tz: tzinfo, *, same_memory: bool) -> None:
        scope = ForgetScope("person") if receipt.scope == "person" else ForgetScope("time")
        super().__init__(user_id, replace(scope, after=receipt.after, before=receipt.before), tz)
        self.receipt = receipt
        self.erased = _Erased(receipt)
        self.names = self.erased  # texts are matched as a person's forget matches a name
        self.same_memory = same_memory

    def _also_facts(self) -> set[int]:
        return set(self.receipt.ids.facts) if self.same_memory else set()

    async def _messages(self, db: Reads) -> None:
        r = self.receipt
        hasher, erased, near = r.hasher, frozenset(r.messages), frozenset(r.near)
        if not erased:
            return
        after = 0
        while True:
            rows = await db.fetchall(
                "SELECT m.id, m.conversation_id, m.at, m.role, m.speaker, m.text,"
                " c.window_start_id FROM messages m JOIN conversations c"
                " ON c.id = m.conversation_id WHERE m.user_id = ? AND m.id > ?"
                " ORDER BY m.id LIMIT ?",
                (self.user_id, after, _BATCH),
            )
            for message_id, conversation, at, role, speaker, text, window_start in rows:
                if erased_message(
                    hasher, erased, near, str(at), str(role), str(speaker), str(text)
                ):
                    self.lost[int(message_id)] = int(conversation)
                    if message_id < window_start:
                        self.early_conversations.add(int(conversation))
            if len(rows) < _BATCH:
                return
            after = int(rows[-1][0])

    async def _days(self, db: Reads) -> None:
        erased = self.erased
        for day_id, _, detailed, condensed in await db.fetchall(
            "SELECT id, day, detailed, condensed FROM days WHERE user_id = ?", (self.user_id,)
        ):
            if erased.whole(detailed, condensed):
                self.day_deletes.append(day_id)
            elif erased.in_text(detailed, condensed):
                detailed, condensed = scrub_text(detailed, erased), scrub_text(condensed, erased)
                if detailed or condensed:
                    self.day_rewrites.append((day_id, detailed, condensed))
                else:
                    self.day_deletes.append(day_id)

    async def _summaries(self, db: Reads) -> None:
        erased = self.erased
        for conversation_id, summary in await db.fetchall(
            "SELECT id, window_summary FROM conversations"
            " WHERE user_id = ? AND window_summary != ''",
            (self.user_id,),
        ):
            if conversation_id in self.early_conversations or erased.whole(summary):
                self.summary_rewrites.append((conversation_id, ""))
            elif erased.in_text(summary):
                self.summary_rewrites.append((conversation_id, scrub_text(summary, erased)))

    async def _reminders(self, db: Reads) -> None:
        listed = set(self.receipt.ids.reminders) if self.same_memory else set()
        for reminder_id, text, _ in await forget_candidates(db, self.user_id):
            if reminder_id in listed or self.erased.whole(text):
                self.reminder_ids.append(reminder_id)

    async def _notes(self, db: Reads) -> NotesInScope:
        listed = set(self.receipt.ids.note_revisions) if self.same_memory else set()

        def hit(revision_id: int, description: str, body: str | None) -> bool:
            return revision_id in listed or self.erased.whole(body, description)

        return await find_notes(db, self.user_id, self.scope, None, self.tz, hit_by=hit)


async def same_memory(db: Reads, user_id: str, receipt: Receipt) -> bool:
    """Whether `user_id`'s memory is the one the receipt was made in: one of the messages it
    erased is here under its own id, as the receipt says it was (or, with no messages, a
    fact or day summary it erased, holding an erased text)."""
    r = receipt
    hasher, erased, near = r.hasher, frozenset(r.messages), frozenset(r.near)
    for chunk in _chunks(r.ids.messages):
        for at, role, speaker, text in await db.fetchall(
            f"SELECT at, role, speaker, text FROM messages WHERE user_id = ? AND id IN"
            f" ({_marks(chunk)})",
            (user_id, *chunk),
        ):
            if erased_message(hasher, erased, near, str(at), str(role), str(speaker), str(text)):
                return True
    found = _Erased(receipt)
    for table, columns, ids in (
        ("facts", "subject, content", r.ids.facts),
        ("days", "detailed, condensed", r.ids.days),
    ):
        for chunk in _chunks(ids):
            for row in await db.fetchall(
                f"SELECT {columns} FROM {table} WHERE user_id = ? AND id IN ({_marks(chunk)})",
                (user_id, *chunk),
            ):
                if found.in_text(*(str(v) for v in row)):
                    return True
    return False


async def plan_for(db: Reads, user_id: str, receipt: Receipt, tz: tzinfo) -> ForgetPlan:
    same = await same_memory(db, user_id, receipt)
    if receipt.scope == "time" and same and (receipt.after or receipt.before):
        # Its own memory, from before the forget: the range as the forget took it.
        return ForgetPlan(user_id, ForgetScope("time", receipt.after, receipt.before), tz)
    return ReceiptPlan(user_id, receipt, tz, same_memory=same)


async def reapply(
    tx: Transaction,
    user_id: str,
    receipts: Sequence[Receipt],
    tz: tzinfo,
    now: datetime,
) -> list[Reapplied]:
    """Re-apply each receipt (oldest first) to `user_id`'s memory in the caller's transaction,
    and keep it there (so `kit forget --verify` finds it by its id). Each that took something
    again gets a forget-log row, as a forget does. Receipts whose salt is not here are kept
    and not applied (they can find nothing)."""
    done: list[Reapplied] = []
    for receipt in sorted(receipts, key=lambda r: (r.at, r.id)):
        if not receipt.usable:
            await save(tx, user_id, receipt)
            continue
        plan = await plan_for(tx, user_id, receipt, tz)
        report = await plan.find(tx)
        if report.total:
            report = await Erase(tx, plan, now).run(report)
            await log_forget(tx, user_id, receipt.scope, report, now)
        await save(tx, user_id, receipt.for_user(user_id))
        done.append(Reapplied(receipt.id, receipt.at, user_id, _without_samples(report)))
    return done


async def would_take(
    db: Reads, user_id: str, receipts: Sequence[Receipt], tz: tzinfo
) -> list[Reapplied]:
    """What re-applying each receipt would take, changing nothing (a restore with
    `--allow-forgotten` says what comes back)."""
    found: list[Reapplied] = []
    for receipt in sorted(receipts, key=lambda r: (r.at, r.id)):
        if receipt.usable:
            report = await (await plan_for(db, user_id, receipt, tz)).find(db)
            found.append(Reapplied(receipt.id, receipt.at, user_id, _without_samples(report)))
    return found


def _without_samples(report: ForgetReport) -> ForgetReport:
    """Counts only: the samples hold text, and a restore's report shows none of it."""
    return replace(report, messages=(), facts=(), notes=())


def _chunks(ids: Sequence[int]) -> list[Sequence[int]]:
    return [ids[i : i + 500] for i in range(0, len(ids), 500)]


def _marks(ids: Sequence[Any]) -> str:
    return ",".join("?" * len(ids))
