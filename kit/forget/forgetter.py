"""`kit forget`: the owner takes something back: a stretch of time, or a person.

Memory is sacred, so this is the one path that destroys content, and only on the owner's
explicit request. In ONE transaction:
  - messages in the range (or naming the person, or spoken by them) are deleted;
  - facts learned from those messages (plan.py says exactly which) are deactivated and
    erased, history snapshots included (`FactWriter.forget`); facts that were merged into an
    erased one, and are not forgotten themselves, are active again on their own;
  - day summaries in the range are deleted; for a person, the lines naming them are cut out of
    day summaries and conversation summaries (a summary left empty is deleted);
  - their embeddings go too, and so does every token of them in the full-text indexes;
  - reminders naming the person, or asked for in the range, are deleted with their deliveries;
  - inbox questions citing a forgotten message, concerning an erased fact, or quoting an
    erased fact's text or naming the person are deleted (kit/forget/inbox.py): an answer could
    otherwise write the forgotten text back, and the inbox and the digest would show it;
  - records derived from forgotten messages are scrubbed: every text of a curation pass that
    was rejected or failed over a batch holding one, every operation that cited one, anything
    quoting an erased fact or naming the person (pass records, REM reports, the curation
    progress's last errors), and the forgotten ids in them;
  - a `forget_log` row records when it happened, the scope kind and the counts, never what;
  - a receipt (receipt.py) records the same, the ids of the rows erased and salted
    hashes of what was erased, so `kit forget --verify` can find it if it ever comes back;
    the data directory's forget ledger (ledger.py) keeps it too, with its secret salt, where
    a restore cannot take it away (a restore re-applies it: reapply.py).
The transaction is an erasing one (kit/store/db.py): on SQLite deleted pages are zeroed
(`secure_delete`) and the WAL is checkpointed afterwards, so the text does not survive in the
file's free space either; on PostgreSQL the touched tables are vacuumed after the commit.

Text that refers to the person without naming them ("she", "my sister") cannot be found and is
kept, unless a fact cites a forgotten message as its source.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterable
from dataclasses import replace
from datetime import datetime, tzinfo
from typing import Any

from kit.clock import to_iso
from kit.forget.collect import collect
from kit.forget.inbox import erase_questions
from kit.forget.ledger import Ledger
from kit.forget.notes import erase_notes
from kit.forget.plan import ForgetPlan, ForgetReport
from kit.forget.receipt import Receipt, new_id, new_salt
from kit.forget.receipts import save as save_receipt
from kit.forget.scope import Finder, ForgetScope
from kit.forget.traces import Hasher
from kit.memory.days import day_text_hash
from kit.memory.fact_writer import FORGOTTEN, FactWriter, Provenance
from kit.reminders.store import delete_for_forget as delete_reminders
from kit.store.db import Database, Transaction

_APPLIED = ("applied", "noop", "undone")  # pass statuses whose operations took effect
_ID_LISTS = ("source_message_ids", "sources")  # message ids in pass records


class Forgetter:
    def __init__(self, db: Database, tz: tzinfo, ledger: Ledger) -> None:
        self._db = db
        self._tz = tz
        self._ledger = ledger

    async def preview(self, user_id: str, scope: ForgetScope) -> ForgetReport:
        """What `forget` would take, with the first messages and facts; writes nothing and
        takes no write lock (so it may run beside a daemon: it only reads)."""
        report = await ForgetPlan(user_id, scope, self._tz).find(self._db)
        return replace(report, dry_run=True)

    async def forget(
        self, user_id: str, scope: ForgetScope, *, now: datetime, dry_run: bool = False
    ) -> ForgetReport:
        """Forget `scope` in `user_id`'s memory, all in one transaction. With `dry_run`, only
        find what would go."""
        if dry_run:
            return await self.preview(user_id, scope)
        # erasing: deleted rows are erased physically too, not only unlinked (kit/store/db.py)
        recorded: Receipt | None = None
        try:
            async with self._db.transaction(erasing=True) as tx:
                report = await self._erase(tx, user_id, scope, now)
                recorded = report.receipt
                assert recorded is not None
                # Before the commit (ledger.py says why that order)
                await asyncio.to_thread(self._ledger.record, recorded)
        except BaseException:
            if recorded is not None:  # the ledger keeps no forget that did not happen
                await asyncio.to_thread(self._ledger.discard, recorded.id)
            raise
        return report

    async def _erase(
        self, tx: Transaction, user_id: str, scope: ForgetScope, now: datetime
    ) -> ForgetReport:
        plan = ForgetPlan(user_id, scope, self._tz)
        report = await plan.find(tx)
        salt = new_salt()
        traces = await collect(tx, plan, Hasher(salt))  # before it goes
        report = await Erase(tx, plan, now).run(report)
        report = replace(
            report, vectors_erased=traces.vectors, index_entries_erased=traces.index_entries
        )
        await log_forget(tx, user_id, scope.kind, report, now)
        receipt = Receipt(
            id=new_id(),
            user=Hasher(salt).user(user_id),
            at=now,
            scope=scope.kind,
            after=scope.after,
            before=scope.before,
            counts=report.counts(),
            salt=salt.hex(),
            messages=tuple(sorted(traces.messages)),
            texts=tuple(sorted(traces.texts)),
            ids=traces.ids,
            lengths=traces.lengths,
            near=tuple(sorted(traces.near)),
        )
        await save_receipt(tx, user_id, receipt)
        return replace(report, receipt=receipt)


async def log_forget(
    tx: Transaction, user_id: str, kind: str, report: ForgetReport, now: datetime
) -> None:
    """The forget log's row: when, the scope's kind and the counts, never what."""
    await tx.execute(
        "INSERT INTO forget_log (user_id, at, scope, counts_json) VALUES (?, ?, ?, ?)",
        (user_id, to_iso(now), kind, json.dumps(report.counts())),
    )


class Erase:
    """Changes what a plan found, inside the forget's transaction (or a restore's, re-applying
    one: reapply.py)."""

    def __init__(self, tx: Transaction, plan: ForgetPlan, now: datetime) -> None:
        self.tx = tx
        self.plan = plan
        self.user_id = plan.user_id
        self.now = now

    async def run(self, report: ForgetReport) -> ForgetReport:
        tx, plan = self.tx, self.plan
        erased_texts: set[str] = set()
        writer = FactWriter(tx, self.user_id, self.now)
        provenance = Provenance(actor="owner", reason="forgotten at the owner's request")
        history_rows = 0
        for fact_id in plan.fact_ids:
            erased_texts |= await self._fact_texts(fact_id)
            history_rows += await writer.forget(fact_id, provenance=provenance)
        back = Provenance(actor="owner", reason="the fact it was merged into was forgotten")
        for fact_id in plan.unmerged:
            await writer.unmerge(fact_id, provenance=back)
        await self._drop_source_links()
        await tx.executemany(
            "DELETE FROM messages WHERE id = ? AND user_id = ?",
            [(i, self.user_id) for i in plan.message_ids],
        )
        await tx.executemany("DELETE FROM days WHERE id = ?", [(i,) for i in plan.day_deletes])
        await tx.executemany(
            "UPDATE days SET detailed = ?, condensed = ?, content_hash = ?, updated_at = ?"
            " WHERE id = ?",
            [(d, c, day_text_hash(d, c), to_iso(self.now), i) for i, d, c in plan.day_rewrites],
        )
        await tx.executemany(
            "UPDATE conversations SET window_summary = ? WHERE id = ?",
            [(text, i) for i, text in plan.summary_rewrites],
        )
        gone = [("message", i) for i in plan.message_ids] + [("fact", i) for i in plan.fact_ids]
        gone += [("day", i) for i in plan.day_deletes + [r[0] for r in plan.day_rewrites]]
        await tx.executemany("DELETE FROM embeddings WHERE kind = ? AND item_id = ?", gone)
        await delete_reminders(tx, self.user_id, plan.reminder_ids)
        await erase_questions(
            tx,
            self.user_id,
            plan.message_ids,
            plan.fact_ids,
            lambda text: _quotes(text, erased_texts, plan.names),
        )
        scrubbed = await self._scrub_passes(erased_texts)
        scrubbed += await self._scrub_reports(erased_texts)
        await self._scrub_progress(erased_texts)
        await erase_notes(tx, self.user_id, plan.notes, self.now)
        return replace(report, history_rows_erased=history_rows, records_scrubbed=scrubbed)

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
        lost = self.plan.lost
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

    async def _scrub_passes(self, erased: set[str]) -> int:
        """Pass records: a pass that was rejected or failed over a batch holding a forgotten
        message loses all its text (reason, operations: nothing of it was kept, and it may
        quote them); an applied one, the operations that cited one. Anything quoting an
        erased fact or naming the person goes too, and so do the forgotten message ids."""
        lost, count = self.plan.lost, 0
        rows = await self.tx.fetchall(
            "SELECT id, status, reason, detail_json FROM passes WHERE user_id = ?",
            (self.user_id,),
        )
        for row_id, status, reason, detail_json in rows:
            data = json.loads(detail_json)
            batch = set(_ids(data.get("source_message_ids")))
            tainted = status not in _APPLIED and bool(batch & lost.keys())
            cleaned = _scrub_json(_drop_ids(data, lost), erased, self.plan.names)
            if isinstance(cleaned, dict) and isinstance(cleaned.get("operations"), list):
                cleaned["operations"] = [
                    _blank(op)
                    if isinstance(op, dict)
                    and (tainted or set(_ids(op.get("sources"))) & lost.keys())
                    else op
                    for op in cleaned["operations"]
                ]
            new_reason = reason
            if reason and (tainted or _quotes(reason, erased, self.plan.names)):
                new_reason = FORGOTTEN
            if cleaned != data or new_reason != reason:
                count += 1
                await self.tx.execute(
                    "UPDATE passes SET reason = ?, detail_json = ? WHERE id = ?",
                    (new_reason, json.dumps(cleaned, ensure_ascii=False), row_id),
                )
        return count

    async def _scrub_reports(self, erased: set[str]) -> int:
        """REM reports quote the facts they changed."""
        count = 0
        rows = await self.tx.fetchall(
            "SELECT id, report_json FROM rem_reports WHERE user_id = ?", (self.user_id,)
        )
        for row_id, text in rows:
            data = json.loads(text)
            cleaned = _scrub_json(data, erased, self.plan.names)
            if cleaned != data:
                count += 1
                await self.tx.execute(
                    "UPDATE rem_reports SET report_json = ? WHERE id = ?",
                    (json.dumps(cleaned), row_id),
                )
        return count

    async def _scrub_progress(self, erased: set[str]) -> None:
        """The last error of a conversation's curation (its pending or just parked batch) and
        a parked batch's reason are the reason of a failed pass: they may quote the messages.
        Any of a conversation's lost messages may have been in that batch."""
        lost, names = self.plan.lost, self.plan.names
        touched = set(lost.values())
        for conversation_id, category, error in await self.tx.fetchall(
            "SELECT conversation_id, category, last_error FROM curation_state"
            " WHERE user_id = ? AND last_error != ''",
            (self.user_id,),
        ):
            if conversation_id in touched or _quotes(error, erased, names):
                await self.tx.execute(
                    "UPDATE curation_state SET last_error = ? WHERE conversation_id = ?"
                    " AND category = ?",
                    (FORGOTTEN, conversation_id, category),
                )
        for row_id, conversation_id, first, last, reason in await self.tx.fetchall(
            "SELECT id, conversation_id, first_message_id, last_message_id, reason"
            " FROM curation_parked WHERE user_id = ?",
            (self.user_id,),
        ):
            held = any(c == conversation_id and first <= i <= last for i, c in lost.items())
            if held or _quotes(reason, erased, names):
                await self.tx.execute(
                    "UPDATE curation_parked SET reason = ? WHERE id = ?", (FORGOTTEN, row_id)
                )


def _ids(value: Any) -> list[int]:
    return [i for i in value if isinstance(i, int)] if isinstance(value, list) else []


def _blank(op: dict[str, Any]) -> dict[str, Any]:
    """An operation record with every text in it erased (what it was, and its ids, stay)."""
    return {k: FORGOTTEN if isinstance(v, str) and k != "op" else v for k, v in op.items()}


def _drop_ids(value: Any, lost: dict[int, int]) -> Any:
    if isinstance(value, list):
        return [_drop_ids(v, lost) for v in value]
    if isinstance(value, dict):
        return {
            k: [i for i in v if not (isinstance(i, int) and i in lost)]
            if k in _ID_LISTS and isinstance(v, list)
            else _drop_ids(v, lost)
            for k, v in value.items()
        }
    return value


def _quotes(text: str, erased: Iterable[str], names: Finder | None) -> bool:
    return any(t in text for t in erased) or (names is not None and names.in_text(text))


def _scrub_json(value: Any, erased: set[str], names: Finder | None) -> Any:
    if isinstance(value, str):
        return FORGOTTEN if _quotes(value, erased, names) else value
    if isinstance(value, list):
        return [_scrub_json(v, erased, names) for v in value]
    if isinstance(value, dict):
        return {k: _scrub_json(v, erased, names) for k, v in value.items()}
    return value
