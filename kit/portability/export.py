"""The owner's data, out: every fact with its whole history, every day summary, the message
archive, curation passes (and batches parked after failing), REM reports, token usage, the
forget log with the forget receipts (counts and hashes, no content) and reminders, as a
versioned JSON document (which `kit import` restores) or as
Markdown for a person to read.

Derived state (embeddings, FTS indexes) is left out: it is rebuilt from the rows. So is the
scheduler's own bookkeeping (job runs): a restored memory starts its schedule afresh.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import datetime, tzinfo
from typing import Any

from kit.clock import from_iso, to_iso
from kit.forget.portability import exported as exported_receipts
from kit.notes.portability import export_notes, notes_markdown
from kit.portability.export_check import EXPORT_FORMAT, EXPORT_VERSION
from kit.reminders.store import export_rows as reminder_rows
from kit.store.db import Database


async def export_document(db: Database, user_id: str, now: datetime) -> dict[str, Any]:
    """One user's whole memory as plain JSON-ready data. Read in one snapshot-free pass:
    the caller runs it while nothing else writes (the CLI) or accepts rows added meanwhile."""
    conversations = [
        {
            "id": r[0],
            "channel": r[1],
            "external_id": r[2],
            "created_at": r[3],
            "last_message_at": r[4],
            "window_summary": r[5],
            "window_start_id": r[6],
        }
        for r in await db.fetchall(
            "SELECT id, channel, external_id, created_at, last_message_at, window_summary,"
            " window_start_id FROM conversations WHERE user_id = ? ORDER BY id",
            (user_id,),
        )
    ]
    messages = [
        {
            "id": r[0],
            "conversation_id": r[1],
            "role": r[2],
            "speaker": r[3],
            "text": r[4],
            "at": r[5],
            "day": r[6],
            "ref": r[7],
            "source": r[8],
            "forwarded_from": r[9],
            "spoken": bool(r[10]),
        }
        for r in await db.fetchall(
            "SELECT id, conversation_id, role, speaker, text, at, day, ref, source,"
            " forwarded_from, spoken FROM messages WHERE user_id = ? ORDER BY id",
            (user_id,),
        )
    ]
    history: dict[int, list[dict[str, Any]]] = {}
    for r in await db.fetchall(
        "SELECT id, fact_id, at, actor, operation, pass_id, reason, before_json, after_json,"
        " source_message_ids, sources_are_batch FROM fact_history WHERE user_id = ? ORDER BY id",
        (user_id,),
    ):
        history.setdefault(r[1], []).append(
            {
                "id": r[0],
                "at": r[2],
                "actor": r[3],
                "operation": r[4],
                "pass_id": r[5],
                "reason": r[6],
                "before": None if r[7] is None else json.loads(r[7]),
                "after": None if r[8] is None else json.loads(r[8]),
                "source_message_ids": json.loads(r[9]),
                "sources_are_batch": bool(r[10]),
            }
        )
    facts = [
        {
            "id": r[0],
            "category": r[1],
            "subject": r[2],
            "content": r[3],
            "confidence": r[4],
            "expires_at": r[5],
            "active": bool(r[6]),
            "pinned": bool(r[7]),
            "created_at": r[8],
            "updated_at": r[9],
            "access_count": r[10],
            "last_accessed_at": r[11],
            "replaced_by": r[12],
            "owner_written": bool(r[13]),
            "valid_from": r[14],
            "valid_until": r[15],
            "history": history.get(r[0], []),
        }
        for r in await db.fetchall(
            "SELECT id, category, subject, content, confidence, expires_at, active, pinned,"
            " created_at, updated_at, access_count, last_accessed_at, replaced_by, owner_written,"
            " valid_from, valid_until FROM facts"
            " WHERE user_id = ? ORDER BY id",
            (user_id,),
        )
    ]
    days = [
        {
            "day": r[0],
            "detailed": r[1],
            "condensed": r[2],
            "message_count": r[3],
            "created_at": r[4],
            "updated_at": r[5],
            "condensed_at": r[6],
        }
        for r in await db.fetchall(
            "SELECT day, detailed, condensed, message_count, created_at, updated_at, condensed_at"
            " FROM days WHERE user_id = ? ORDER BY day",
            (user_id,),
        )
    ]
    passes = [
        {
            "id": r[0],
            "kind": r[1],
            "category": r[2],
            "started_at": r[3],
            "finished_at": r[4],
            "status": r[5],
            "reason": r[6],
            "detail": json.loads(r[7] or "{}"),
        }
        for r in await db.fetchall(
            "SELECT id, kind, category, started_at, finished_at, status, reason, detail_json"
            " FROM passes WHERE user_id = ? ORDER BY id",
            (user_id,),
        )
    ]
    # How far curation got: restored messages that were curated must not be curated again.
    marks = [
        {"conversation_id": r[0], "category": r[1], "curated_through": r[2]}
        for r in await db.fetchall(
            "SELECT conversation_id, category, curated_through FROM curation_state"
            " WHERE user_id = ? ORDER BY conversation_id, category",
            (user_id,),
        )
    ]
    forgets = [
        {"at": r[0], "scope": r[1], "counts": json.loads(r[2])}
        for r in await db.fetchall(
            "SELECT at, scope, counts_json FROM forget_log WHERE user_id = ? ORDER BY id",
            (user_id,),
        )
    ]
    parked = [
        {
            "conversation_id": r[0],
            "category": r[1],
            "first_message_id": r[2],
            "last_message_id": r[3],
            "attempts": r[4],
            "reason": r[5],
            "parked_at": r[6],
            "resolved_at": r[7],
        }
        for r in await db.fetchall(
            "SELECT conversation_id, category, first_message_id, last_message_id, attempts,"
            " reason, parked_at, resolved_at FROM curation_parked WHERE user_id = ? ORDER BY id",
            (user_id,),
        )
    ]
    rem_reports = [
        {"started_at": r[0], "finished_at": r[1], "report": json.loads(r[2])}
        for r in await db.fetchall(
            "SELECT started_at, finished_at, report_json FROM rem_reports WHERE user_id = ?"
            " ORDER BY id",
            (user_id,),
        )
    ]
    usage = [
        {
            "at": r[0],
            "model": r[1],
            "purpose": r[2],
            "input_tokens": r[3],
            "output_tokens": r[4],
            "cache_read_tokens": r[5],
            "cache_write_tokens": r[6],
        }
        for r in await db.fetchall(
            "SELECT at, model, purpose, input_tokens, output_tokens, cache_read_tokens,"
            " cache_write_tokens FROM llm_usage WHERE user_id = ? ORDER BY id",
            (user_id,),
        )
    ]
    reminders = await reminder_rows(db, user_id)
    notes = await export_notes(db, user_id)
    receipts = await exported_receipts(db, user_id)
    return {
        # The first key on purpose: `kit import` recognises an export by its opening bytes.
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "exported_at": to_iso(now),
        "user_id": user_id,
        "counts": {
            "conversations": len(conversations),
            "messages": len(messages),
            "facts": len(facts),
            "fact_history": sum(len(f["history"]) for f in facts),
            "days": len(days),
            "passes": len(passes),
            "curation_parked": len(parked),
            "rem_reports": len(rem_reports),
            "usage": len(usage),
            "forget_log": len(forgets),
            "forget_receipts": len(receipts),
            "reminders": len(reminders),
            "notes": len(notes["notes"]),
            "note_history": len(notes["note_history"]),
        },
        "conversations": conversations,
        "messages": messages,
        "facts": facts,
        "days": days,
        "passes": passes,
        "curation_marks": marks,
        "curation_parked": parked,
        "rem_reports": rem_reports,
        "usage": usage,
        "forget_log": forgets,
        "forget_receipts": receipts,
        "reminders": reminders,
        **notes,
    }


def to_json(document: dict[str, Any]) -> str:
    return json.dumps(document, ensure_ascii=False, indent=1) + "\n"


def _when(iso: str | None, tz: tzinfo) -> str:
    if not iso:
        return "never"
    return from_iso(iso).astimezone(tz).strftime("%Y-%m-%d %H:%M")


def _quote(text: str) -> str:
    """Multi-line text as a Markdown block quote (so a stray '#' cannot start a heading)."""
    lines = text.strip().splitlines() or [""]
    return "\n".join(f"> {line}" if line else ">" for line in lines)


def _change(entry: dict[str, Any], tz: tzinfo) -> str:
    who = entry["actor"] + (f" (pass #{entry['pass_id']})" if entry["pass_id"] else "")
    line = f"- {_when(entry['at'], tz)} **{entry['operation']}** by {who}"
    if entry["reason"]:
        line += f": {entry['reason']}"
    if entry["source_message_ids"]:
        where = "in a batch of messages" if entry.get("sources_are_batch") else "from messages"
        line += f" [{where} {', '.join(map(str, entry['source_message_ids']))}]"
    before, after = entry["before"] or {}, entry["after"] or {}
    for key in (
        "content",
        "subject",
        "confidence",
        "expires_at",
        "active",
        "pinned",
        "owner_written",
    ):
        if key in after and before.get(key) != after.get(key):
            old = f"{before.get(key)!r} → " if entry["before"] is not None else ""
            line += f"\n  - {key}: {old}{after.get(key)!r}"
    return line


def to_markdown(document: dict[str, Any], tz: tzinfo) -> Iterator[str]:
    """The same document as Markdown, in pieces (the message archive can be large)."""
    counts = document["counts"]
    yield f"# Kit memory of {document['user_id']}\n\n"
    yield f"Exported {_when(document['exported_at'], tz)} ({tz}). "
    yield (
        f"{counts['facts']} facts ({counts['fact_history']} history entries), "
        f"{counts['days']} day summaries, {counts['messages']} messages in "
        f"{counts['conversations']} conversations, {counts['passes']} curation passes.\n\n"
    )
    yield "## Facts\n\n"
    if not document["facts"]:
        yield "No facts.\n\n"
    for fact in document["facts"]:
        subject = f"[{fact['subject']}] " if fact["subject"] else ""
        state = "active" if fact["active"] else "inactive"
        if fact["replaced_by"]:
            state += f", replaced by #{fact['replaced_by']}"
        expiry = f", expires {_when(fact['expires_at'], tz)}" if fact["expires_at"] else ""
        pinned = ", pinned" if fact["pinned"] else ""
        if fact.get("owner_written"):
            pinned += ", written by the owner"
        yield f"### #{fact['id']} {fact['category']}: {subject}{fact['content']}\n\n"
        yield (
            f"Confidence {fact['confidence']:.2f}, {state}{pinned}{expiry}. Created "
            f"{_when(fact['created_at'], tz)}, updated {_when(fact['updated_at'], tz)}, used "
            f"{fact['access_count']} times (last {_when(fact['last_accessed_at'], tz)}).\n\n"
        )
        for entry in fact["history"]:
            yield _change(entry, tz) + "\n"
        yield "\n"
    yield "## Days\n\n"
    if not document["days"]:
        yield "No day summaries.\n\n"
    for day in document["days"]:
        yield f"### {day['day']}\n\n"
        if day["condensed"]:
            yield f"Condensed:\n\n{_quote(day['condensed'])}\n\n"
        if day["detailed"]:
            yield f"Detailed ({day['message_count']} messages):\n\n{_quote(day['detailed'])}\n\n"
    yield from notes_markdown(document, tz, _quote)
    yield "## Curation passes\n\n"
    if not document["passes"]:
        yield "No passes.\n\n"
    for p in document["passes"]:
        category = f" {p['category']}" if p["category"] else ""
        reason = f": {p['reason']}" if p["reason"] else ""
        yield f"- #{p['id']} {p['kind']}{category}, {_when(p['started_at'], tz)}, {p['status']}"
        yield f"{reason}\n"
    yield "\n"
    if document["curation_parked"]:
        yield "## Curation batches parked after failing\n\n"
        for b in document["curation_parked"]:
            state = f"resolved {_when(b['resolved_at'], tz)}" if b["resolved_at"] else "open"
            yield (
                f"- {_when(b['parked_at'], tz)} {b['category']}, messages "
                f"{b['first_message_id']}-{b['last_message_id']} after {b['attempts']} "
                f"attempts ({state}): {b['reason']}\n"
            )
        yield "\n"
    if document["rem_reports"]:
        yield "## REM reports\n\n"
        for r in document["rem_reports"]:
            report = r["report"]
            yield f"### {_when(r['started_at'], tz)}\n\n"
            for line in [*report.get("changes", []), *report.get("rejected", [])] or ["no changes"]:
                yield f"- {line}\n"
            yield "\n"
    if document["usage"]:
        calls = document["usage"]
        tokens_in = sum(u["input_tokens"] for u in calls)
        tokens_out = sum(u["output_tokens"] for u in calls)
        yield "## Model usage\n\n"
        yield (
            f"{len(calls)} model calls from {_when(calls[0]['at'], tz)} to "
            f"{_when(calls[-1]['at'], tz)}: {tokens_in:,} input and {tokens_out:,} output "
            "tokens.\n\n"
        )
    if document["forget_log"]:
        yield "## Forgotten on request\n\n"
        for entry in document["forget_log"]:
            counts = {k: v for k, v in entry["counts"].items() if v}
            counts_text = ", ".join(f"{v} {k.replace('_', ' ')}" for k, v in counts.items())
            yield f"- {_when(entry['at'], tz)}, by {entry['scope']}: {counts_text}\n"
        for receipt in document.get("forget_receipts", []):
            yield (
                f"- receipt {receipt['id']} ({_when(receipt['at'], tz)}): hash of what was "
                f"erased {receipt['erased'][:16]}\n"
            )
        yield "\n"
    if document["reminders"]:
        yield "## Reminders and scheduled tasks\n\n"
        for r in document["reminders"]:
            repeat = r["repeat"] if r["repeat"] == "none" else f"{r['repeat']} at {r['local_time']}"
            when = f", next {_when(r['next_fire'], tz)}" if r["next_fire"] else ""
            yield (
                f"- #{r['id']} {r['kind']} ({repeat}, {r['status']}{when}) on "
                f"{r['channel']} / {r['conversation']}: {r['text']}\n"
            )
        yield "\n"
    yield "## Messages\n"
    by_conversation: dict[int, list[dict[str, Any]]] = {}
    for message in document["messages"]:
        by_conversation.setdefault(message["conversation_id"], []).append(message)
    for conversation in document["conversations"]:
        yield f"\n### {conversation['channel']} / {conversation['external_id']}\n\n"
        if conversation["window_summary"]:
            yield f"Summary of its earlier part:\n\n{_quote(conversation['window_summary'])}\n\n"
        for message in by_conversation.get(conversation["id"], []):
            who = message["speaker"] or ("Owner" if message["role"] == "user" else "Kit")
            if message.get("forwarded_from") is not None:
                who += f" (forwarded from {message['forwarded_from']})"
            yield f"**{_when(message['at'], tz)} {who}:**\n{_quote(message['text'])}\n\n"
