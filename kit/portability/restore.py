"""The owner's data, back in: restore a `kit export` JSON document into an empty namespace.

The document is checked whole (export_check.py) before anything is written, then restored
in ONE transaction, together with the forgets made after the export was written: re-applied
to what it brings back (kit/forget/portability.py, kit/forget/reapply.py), or, with
`allow_forgotten`, only counted. Rows are recreated verbatim (times, confidences, access
stats, every history entry), which is why this module writes raw rows instead of going
through `FactWriter`: it replays history that already happened rather than making new
changes. Ids are kept when they are free in the target database and renumbered
consistently otherwise (history, links and windows follow).
"""

from __future__ import annotations

import bisect
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, tzinfo
from pathlib import Path
from typing import Any

from kit.errors import InputError
from kit.forget.ledger import Ledger
from kit.forget.portability import (
    checked,
    counted,
    keep_receipts,
    later_forgets,
    refuse_forgotten,
)
from kit.forget.reapply import Reapplied, reapply
from kit.forget.receipt import Receipt, SaltOf
from kit.forget.receipts import ReceiptMatch, kept
from kit.memory.days import day_text_hash
from kit.memory.hashes import content_hash
from kit.notes.portability import restore_notes
from kit.portability.export_check import EXPORT_FORMAT, validate
from kit.portability.owners import clear_owner
from kit.reminders.store import restore_rows as restore_reminders
from kit.store.db import Database, Transaction
from kit.store.derived_columns import derived

# How `kit import` tells an export from JSON Lines: the export's first key, in its first bytes.
_SNIFF_BYTES = 256


def is_export_file(path: Path) -> bool:
    try:
        with path.open("rb") as handle:
            head = handle.read(_SNIFF_BYTES)
    except OSError as exc:
        raise InputError(f"{path}: cannot open the file ({exc.strerror})") from exc
    compact = b"".join(head.split())
    return compact.startswith(b'{"format":"' + EXPORT_FORMAT.encode())


def read_export(path: Path, salt_of: SaltOf | None = None) -> dict[str, Any]:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise InputError(f"{path}: cannot read the file ({exc.strerror})") from exc
    try:
        document = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: not valid UTF-8; is this really a Kit export?") from exc
    except json.JSONDecodeError as exc:
        raise InputError(
            f"{path}: the export is not valid JSON ({exc.msg} at line {exc.lineno}); "
            "was it cut short? Export again with `kit export --format json`"
        ) from exc
    except RecursionError as exc:
        raise InputError(
            f"{path}: nested too deeply to read; this is not a Kit export as Kit writes it"
        ) from exc
    validate(document, str(path), salt_of)
    return document  # type: ignore[no-any-return]


@dataclass(frozen=True)
class RestoreResult:
    user_id: str
    conversations: int
    messages: int
    facts: int
    history: int
    days: int
    passes: int
    renumbered: bool  # ids were taken in this database, so the restore renumbered them
    notes: int = 0
    forgotten: tuple[ReceiptMatch, ...] = ()  # receipts whose erased messages it brought back
    reapplied: tuple[Reapplied, ...] = ()  # forgets made after the export, applied again
    replaced: bool = False  # the user's memory was not empty: the export replaced it


async def _ids_free(tx: Transaction, table: str, ids: Sequence[int]) -> bool:
    """No row of `table` has an id in the range the export uses (then ids can be kept)."""
    if not ids:
        return True
    row = await tx.fetchone(
        f"SELECT COUNT(*) FROM {table} WHERE id BETWEEN ? AND ?", (min(ids), max(ids))
    )
    return row is not None and row[0] == 0


class _Ids:
    """Old id -> id in this database, for one table."""

    def __init__(self, keep: bool) -> None:
        self.keep = keep
        self.map: dict[int, int] = {}

    def wanted(self, old: int) -> int | None:
        return old if self.keep else None

    def row(self, sql: str, params: tuple[Any, ...]) -> tuple[str, tuple[Any, ...]]:
        """An INSERT whose first column is `id` (first value `wanted`): as it is when ids are
        kept, without the id otherwise (the database picks one)."""
        if self.keep:
            return sql, params
        return sql.replace("(id, ", "(", 1).replace("VALUES (?, ", "VALUES (", 1), params[1:]

    def __call__(self, old: int | None) -> int | None:
        return None if old is None else self.map.get(old)


@dataclass(frozen=True)
class Forgets:
    """What a restore answers to besides the export's own receipts: the data directory's
    forget ledger, and the zone and time the re-applied forgets run in."""

    ledger: Ledger | None
    tz: tzinfo
    now: datetime


async def restore(
    db: Database,
    document: Mapping[str, Any],
    user_id: str,
    forgets: Forgets,
    *,
    allow_forgotten: bool = False,
    carried: Sequence[Receipt] = (),
    replace: bool = False,
) -> RestoreResult:
    """Restore a validated export into `user_id`, which must hold nothing yet (with
    `replace`, what it holds is deleted first: the caller kept a copy, see owners.py). One
    transaction. Messages the export's own receipts erased are refused unless
    `allow_forgotten`; forgets made after it are re-applied, or with `allow_forgotten` counted
    (kit/forget/portability.py). `carried`: receipts of the memory this one replaces."""
    salt_of = None if forgets.ledger is None else forgets.ledger.salt_of
    async with db.transaction(erasing=True) as tx:
        if replace:  # its receipts answer for it still (kit/forget/portability.py)
            carried = [*carried, *await kept(tx, [user_id], salt_of)]
            await clear_owner(tx, db.engine, user_id)
        for table in ("messages", "facts", "days", "conversations", "notes"):
            row = await tx.fetchone(f"SELECT COUNT(*) FROM {table} WHERE user_id = ?", (user_id,))
            if row is not None and row[0]:
                raise InputError(
                    f"the memory of {user_id!r} is not empty ({row[0]} {table}); a restore never "
                    "merges into existing memory. Restore into a fresh data directory "
                    "(--data-dir) or another namespace (--user)"
                )
        own = checked(document, "the export", salt_of)
        forgotten = refuse_forgotten(own, document, allow_forgotten=allow_forgotten)
        later = await later_forgets(tx, document, user_id, own, forgets.ledger, carried)
        if allow_forgotten:
            forgotten += counted(later, document)
        conv = _Ids(
            await _ids_free(tx, "conversations", [c["id"] for c in document["conversations"]])
        )
        msg = _Ids(await _ids_free(tx, "messages", [m["id"] for m in document["messages"]]))
        fact = _Ids(await _ids_free(tx, "facts", [f["id"] for f in document["facts"]]))
        pas = _Ids(await _ids_free(tx, "passes", [p["id"] for p in document["passes"]]))
        for c in document["conversations"]:
            conv.map[c["id"]] = await tx.insert(
                *conv.row(
                    "INSERT INTO conversations (id, user_id, channel, external_id, created_at,"
                    " last_message_at, window_summary, window_start_id)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, 0)",
                    (
                        conv.wanted(c["id"]),
                        user_id,
                        c["channel"],
                        c["external_id"],
                        c["created_at"],
                        c["last_message_at"],
                        c["window_summary"],
                    ),
                )
            )
        for m in document["messages"]:
            msg.map[m["id"]] = await tx.insert(
                *msg.row(
                    "INSERT INTO messages (id, user_id, conversation_id, role, speaker, text, at,"
                    " day, ref, source, content_hash, forwarded_from, spoken, named_days,"
                    " said_days, says_time)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        msg.wanted(m["id"]),
                        user_id,
                        conv(m["conversation_id"]),
                        m["role"],
                        m["speaker"],
                        m["text"],
                        m["at"],
                        m["day"],
                        m["ref"],
                        m["source"],
                        content_hash(m["speaker"], m["text"]),
                        m.get("forwarded_from"),  # absent in exports made before it existed
                        int(m.get("spoken", False)),  # absent in exports made before it existed
                        *derived(m["text"], date.fromisoformat(m["day"])),
                    ),
                )
            )
        old_ids = sorted(msg.map)
        for c in document["conversations"]:
            await tx.execute(
                "UPDATE conversations SET window_start_id = ? WHERE id = ?",
                (_window_start(c["window_start_id"], old_ids, msg.map), conv(c["id"])),
            )
        for p in document["passes"]:
            pas.map[p["id"]] = await tx.insert(
                *pas.row(
                    "INSERT INTO passes (id, user_id, kind, category, started_at, finished_at,"
                    " status, reason, detail_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        pas.wanted(p["id"]),
                        user_id,
                        p["kind"],
                        p["category"],
                        p["started_at"],
                        p["finished_at"],
                        p["status"],
                        p["reason"],
                        json.dumps(p["detail"]),
                    ),
                )
            )
        for f in document["facts"]:
            fact.map[f["id"]] = await tx.insert(
                *fact.row(
                    "INSERT INTO facts (id, user_id, category, subject, content, confidence,"
                    " expires_at, active, pinned, created_at, updated_at, access_count,"
                    " last_accessed_at, content_hash, owner_written, valid_from, valid_until)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        fact.wanted(f["id"]),
                        user_id,
                        f["category"],
                        f["subject"],
                        f["content"],
                        float(f["confidence"]),
                        f["expires_at"],
                        int(f["active"]),
                        int(f["pinned"]),
                        f["created_at"],
                        f["updated_at"],
                        f["access_count"],
                        f["last_accessed_at"],
                        content_hash(f["subject"], f["content"]),
                        int(f.get("owner_written", False)),  # exports before m019 lack it
                        # Exports before m025 lack the interval: since written, until retired.
                        f.get("valid_from") or f["created_at"],
                        f.get("valid_until") or (None if f["active"] else f["updated_at"]),
                    ),
                )
            )
        for f in document["facts"]:
            if f["replaced_by"] is not None:  # links only once every fact has its new id
                await tx.execute(
                    "UPDATE facts SET replaced_by = ? WHERE id = ?",
                    (fact(f["replaced_by"]), fact(f["id"])),
                )
        # History is replayed in its original order across facts (undo reads it that way).
        entries = sorted(
            ((h, f["id"]) for f in document["facts"] for h in f["history"]),
            key=lambda pair: int(pair[0]["id"]),
        )
        hist = _Ids(await _ids_free(tx, "fact_history", [h["id"] for h, _ in entries]))
        for h, fact_id in entries:
            await tx.execute(
                *hist.row(
                    "INSERT INTO fact_history (id, fact_id, user_id, at, actor, operation, pass_id,"
                    " reason, before_json, after_json, source_message_ids, sources_are_batch)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        hist.wanted(h["id"]),
                        fact(fact_id),
                        user_id,
                        h["at"],
                        h["actor"],
                        h["operation"],
                        pas(h["pass_id"]),
                        h["reason"],
                        _snapshot(h["before"], fact),
                        _snapshot(h["after"], fact),
                        json.dumps([msg.map[i] for i in h["source_message_ids"] if i in msg.map]),
                        int(_sources_are_batch(h)),
                    ),
                )
            )
        for d in document["days"]:
            await tx.execute(
                "INSERT INTO days (user_id, day, detailed, condensed, message_count, created_at,"
                " updated_at, condensed_at, content_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    user_id,
                    d["day"],
                    d["detailed"],
                    d["condensed"],
                    d["message_count"],
                    d["created_at"],
                    d["updated_at"],
                    d["condensed_at"],
                    day_text_hash(d["detailed"], d["condensed"]),
                ),
            )
        for k in document["curation_marks"]:
            # A mark is "every message up to this id is curated": the last restored one at or
            # before it. (curation_state belongs to kit/curator/progress.py; restored verbatim.)
            await tx.execute(
                "INSERT INTO curation_state (conversation_id, category, user_id, curated_through,"
                " updated_at) VALUES (?, ?, ?, ?, ?)",
                (
                    conv(k["conversation_id"]),
                    k["category"],
                    user_id,
                    _mark(k["curated_through"], old_ids, msg.map),
                    document["exported_at"],
                ),
            )
        for b in document["curation_parked"]:
            # The batch's span, by the restored messages inside it (the curator reads it again
            # on `kit curate --retry-parked`). Written by kit/curator/progress.py; verbatim here.
            await tx.execute(
                "INSERT INTO curation_parked (user_id, conversation_id, category,"
                " first_message_id, last_message_id, attempts, reason, parked_at, resolved_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    user_id,
                    conv(b["conversation_id"]),
                    b["category"],
                    _window_start(b["first_message_id"], old_ids, msg.map),
                    _mark(b["last_message_id"], old_ids, msg.map),
                    b["attempts"],
                    b["reason"],
                    b["parked_at"],
                    b["resolved_at"],
                ),
            )
        for r in document["rem_reports"]:
            # As written (like a pass's detail); its job run is the old scheduler's, not ours.
            await tx.execute(
                "INSERT INTO rem_reports (user_id, job_run_id, started_at, finished_at,"
                " report_json) VALUES (?, NULL, ?, ?, ?)",
                (user_id, r["started_at"], r["finished_at"], json.dumps(r["report"])),
            )
        await tx.executemany(
            "INSERT INTO llm_usage (at, user_id, model, purpose, input_tokens, output_tokens,"
            " cache_read_tokens, cache_write_tokens) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    u["at"],
                    user_id,
                    u["model"],
                    u["purpose"],
                    u["input_tokens"],
                    u["output_tokens"],
                    u["cache_read_tokens"],
                    u["cache_write_tokens"],
                )
                for u in document["usage"]
            ],
        )
        for e in document["forget_log"]:
            await tx.execute(
                "INSERT INTO forget_log (user_id, at, scope, counts_json) VALUES (?, ?, ?, ?)",
                (user_id, e["at"], e["scope"], json.dumps(e["counts"])),
            )
        await keep_receipts(tx, user_id, own)
        await restore_reminders(tx, user_id, document["reminders"])
        notes = await restore_notes(tx, document, user_id)
        if allow_forgotten:
            await keep_receipts(tx, user_id, later)
            reapplied: list[Reapplied] = []
        else:
            reapplied = await reapply(tx, user_id, later, forgets.tz, forgets.now)
    return RestoreResult(
        user_id=user_id,
        conversations=len(document["conversations"]),
        messages=len(document["messages"]),
        facts=len(document["facts"]),
        history=len(entries),
        days=len(document["days"]),
        passes=len(document["passes"]),
        renumbered=not all(ids.keep for ids in (conv, msg, fact, pas, hist)),
        notes=notes,
        forgotten=tuple(forgotten),
        reapplied=tuple(reapplied),
        replaced=replace,
    )


def _window_start(old_start: int, old_ids: Sequence[int], messages: Mapping[int, int]) -> int:
    """The window began at message `old_start`: the first restored message at or after it.
    `old_ids` is sorted; new ids keep the old order, so the first later old id maps right."""
    if old_start == 0:
        return 0
    at = bisect.bisect_left(old_ids, old_start)
    if at < len(old_ids):
        return messages[old_ids[at]]
    return max(messages.values(), default=0) + 1


def _mark(old_mark: int, old_ids: Sequence[int], messages: Mapping[int, int]) -> int:
    at = bisect.bisect_right(old_ids, old_mark)
    return 0 if at == 0 else messages[old_ids[at - 1]]


def _snapshot(snapshot: Mapping[str, Any] | None, facts: _Ids) -> str | None:
    if snapshot is None:
        return None
    data = dict(snapshot)
    if data.get("replaced_by") is not None:
        data["replaced_by"] = facts(data["replaced_by"])
    return json.dumps(data)


def _sources_are_batch(entry: Mapping[str, Any]) -> bool:
    """An export made before Kit recorded cited sources (m007) has no flag: its curation
    entries name their whole batch, as the migration says of such rows."""
    if "sources_are_batch" in entry:
        return bool(entry["sources_are_batch"])
    return entry["actor"] == "curator" and bool(entry["source_message_ids"])
