"""Checking a `kit export` document whole, before a restore writes anything.

Every field the restore reads is checked for presence and type, and every cross reference
(a message's conversation, a history entry's pass, a fact's replacement) must point inside the
document; the first problem is reported with its place, e.g. `facts[3].confidence`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import date
from typing import Any

from kit.clock import check_time, from_iso
from kit.config import CATEGORIES
from kit.curator.rem import report_from_json
from kit.errors import InputError
from kit.forget.portability import checked as checked_receipts
from kit.forget.receipt import SaltOf
from kit.notes.portability import check_notes
from kit.reminders.rules import REPEATS

EXPORT_FORMAT = "kit-export"
# 2: parked curation batches, REM reports and token usage travel too. A version 1 export
# (written before they did) reads as having none of them.
# 3: reminders and scheduled tasks travel too. Older versions read as having none.
# 4: notes and their whole history. Older versions read as having none.
EXPORT_VERSION = 4
READABLE_VERSIONS = (1, 2, 3, 4)
_ADDED_IN_2 = ("curation_parked", "rem_reports", "usage")
_ADDED_IN_3 = ("reminders",)
_ADDED_IN_4 = ("notes", "note_history")


class _Check:
    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, where: str, rule: str) -> InputError:
        return InputError(f"{self.source}: {where} {rule}; the export looks damaged or edited")

    def field(
        self, item: Mapping[str, Any], key: str, where: str, ok: Callable[[Any], bool], rule: str
    ) -> Any:
        if key not in item:
            raise self.fail(f"{where}.{key}", "is missing")
        if not ok(item[key]):
            raise self.fail(f"{where}.{key}", f"must be {rule} (got {item[key]!r:.60})")
        return item[key]


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_str(v: Any) -> bool:
    return isinstance(v, str)


def _is_time(v: Any) -> bool:
    if not isinstance(v, str):
        return False
    try:
        check_time(from_iso(v), "")
    except (ValueError, InputError):
        return False
    return True


def _is_opt_time(v: Any) -> bool:
    return v is None or _is_time(v)


def _is_day(v: Any) -> bool:
    try:
        return isinstance(v, str) and date.fromisoformat(v) is not None
    except ValueError:
        return False


def _is_bool(v: Any) -> bool:
    return isinstance(v, bool)


def _is_ids(v: Any) -> bool:
    return isinstance(v, list) and all(_is_int(i) for i in v)


def _is_rem_report(v: Any) -> bool:
    """Readable by `kit rem` later (which shows the latest report)."""
    try:
        report_from_json(v)
    except (KeyError, TypeError, ValueError, AttributeError):
        return False
    return True


def _items(document: Mapping[str, Any], key: str, check: _Check) -> list[Mapping[str, Any]]:
    value = document.get(key)
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise check.fail(key, "must be a list of objects")
    return value


def validate(document: Any, source: str, salt_of: SaltOf | None = None) -> None:
    """Raise an InputError naming the first thing wrong with the document. `salt_of`: the
    data directory's forget ledger, which checks the seals of the receipts made here."""
    check = _Check(source)
    if not isinstance(document, dict) or document.get("format") != EXPORT_FORMAT:
        raise InputError(f'{source}: not a Kit export (no "format": "{EXPORT_FORMAT}")')
    version = document.get("version")
    if version not in READABLE_VERSIONS or isinstance(version, bool):
        raise InputError(
            f"{source}: export version {version!r} is not supported by this Kit "
            f"(it reads versions {', '.join(map(str, READABLE_VERSIONS))}); upgrade Kit or "
            "export again"
        )
    if version == 1:
        for key in _ADDED_IN_2:
            document.setdefault(key, [])
    if version in (1, 2):
        for key in _ADDED_IN_3:
            document.setdefault(key, [])
    if version in (1, 2, 3):
        for key in _ADDED_IN_4:
            document.setdefault(key, [])
    check.field(document, "user_id", "export", lambda v: _is_str(v) and bool(v), "a user id")
    # Forget receipts travel in any version since m027 (optional: absent means none), each
    # checked whole, seal included (kit/forget/receipt.py).
    checked_receipts(document, source, salt_of)
    check.field(document, "exported_at", "export", _is_time, "an ISO-8601 time")
    for i, c in enumerate(_items(document, "conversations", check)):
        where = f"conversations[{i}]"
        check.field(c, "id", where, _is_int, "an integer")
        for key in ("channel", "external_id", "window_summary"):
            check.field(c, key, where, _is_str, "a string")
        check.field(c, "created_at", where, _is_time, "an ISO-8601 time")
        check.field(c, "last_message_at", where, _is_opt_time, "an ISO-8601 time or null")
        check.field(c, "window_start_id", where, _is_int, "an integer")
    conversation_ids = {c["id"] for c in document["conversations"]}
    for i, m in enumerate(_items(document, "messages", check)):
        where = f"messages[{i}]"
        check.field(m, "id", where, _is_int, "an integer")
        check.field(
            m,
            "conversation_id",
            where,
            lambda v: v in conversation_ids,
            "the id of a conversation in the export",
        )
        check.field(m, "role", where, lambda v: v in ("user", "assistant"), "user or assistant")
        for key in ("speaker", "text", "source"):
            check.field(m, key, where, _is_str, "a string")
        check.field(m, "at", where, _is_time, "an ISO-8601 time")
        check.field(m, "day", where, _is_day, "a date (YYYY-MM-DD)")
        check.field(m, "ref", where, lambda v: v is None or _is_str(v), "a string or null")
        if "forwarded_from" in m:  # optional: exports made before it existed lack it
            check.field(
                m, "forwarded_from", where, lambda v: v is None or _is_str(v), "a string or null"
            )
        if "spoken" in m:  # optional too: a voice message's transcript (kit/speech/)
            check.field(m, "spoken", where, lambda v: isinstance(v, bool), "true or false")
    pass_ids = set()
    for i, p in enumerate(_items(document, "passes", check)):
        where = f"passes[{i}]"
        pass_ids.add(check.field(p, "id", where, _is_int, "an integer"))
        for key in ("kind", "status", "reason"):
            check.field(p, key, where, _is_str, "a string")
        check.field(p, "category", where, lambda v: v is None or _is_str(v), "a string or null")
        check.field(p, "started_at", where, _is_time, "an ISO-8601 time")
        check.field(p, "finished_at", where, _is_opt_time, "an ISO-8601 time or null")
        check.field(p, "detail", where, lambda v: isinstance(v, dict), "an object")
    facts = _items(document, "facts", check)
    fact_ids = {f.get("id") for f in facts}
    for i, f in enumerate(facts):
        where = f"facts[{i}]"
        check.field(f, "id", where, _is_int, "an integer")
        check.field(f, "category", where, lambda v: v in CATEGORIES, f"one of {CATEGORIES}")
        check.field(f, "subject", where, _is_str, "a string")
        check.field(f, "content", where, lambda v: _is_str(v) and bool(v), "a non-empty string")
        check.field(
            f,
            "confidence",
            where,
            lambda v: isinstance(v, int | float) and not isinstance(v, bool) and 0 <= v <= 1,
            "a number between 0 and 1",
        )
        for key in ("active", "pinned"):
            check.field(f, key, where, lambda v: isinstance(v, bool), "true or false")
        if "owner_written" in f:  # since m019
            check.field(f, "owner_written", where, lambda v: isinstance(v, bool), "true or false")
        for key in ("created_at", "updated_at"):
            check.field(f, key, where, _is_time, "an ISO-8601 time")
        for key in ("expires_at", "last_accessed_at"):
            check.field(f, key, where, _is_opt_time, "an ISO-8601 time or null")
        for key in ("valid_from", "valid_until"):  # since m025
            if key in f:
                check.field(f, key, where, _is_opt_time, "an ISO-8601 time or null")
        check.field(f, "access_count", where, lambda v: _is_int(v) and v >= 0, "a count")
        check.field(
            f,
            "replaced_by",
            where,
            lambda v: v is None or v in fact_ids,
            "null or the id of a fact in the export",
        )
        for j, h in enumerate(_items(f, "history", check)):
            hwhere = f"{where}.history[{j}]"
            check.field(h, "id", hwhere, _is_int, "an integer")
            check.field(h, "at", hwhere, _is_time, "an ISO-8601 time")
            for key in ("actor", "operation", "reason"):
                check.field(h, key, hwhere, _is_str, "a string")
            check.field(
                h,
                "pass_id",
                hwhere,
                lambda v: v is None or v in pass_ids,
                "null or the id of a pass in the export",
            )
            for key in ("before", "after"):
                check.field(
                    h, key, hwhere, lambda v: v is None or isinstance(v, dict), "an object or null"
                )
            check.field(h, "source_message_ids", hwhere, _is_ids, "a list of message ids")
            if "sources_are_batch" in h:  # absent in exports made before Kit recorded it
                check.field(h, "sources_are_batch", hwhere, _is_bool, "true or false")
    for i, d in enumerate(_items(document, "days", check)):
        where = f"days[{i}]"
        check.field(d, "day", where, _is_day, "a date (YYYY-MM-DD)")
        for key in ("detailed", "condensed"):
            check.field(d, key, where, _is_str, "a string")
        check.field(d, "message_count", where, lambda v: _is_int(v) and v >= 0, "a count")
        for key in ("created_at", "updated_at"):
            check.field(d, key, where, _is_time, "an ISO-8601 time")
        check.field(d, "condensed_at", where, _is_opt_time, "an ISO-8601 time or null")
    for i, k in enumerate(_items(document, "curation_marks", check)):
        where = f"curation_marks[{i}]"
        check.field(
            k,
            "conversation_id",
            where,
            lambda v: v in conversation_ids,
            "the id of a conversation in the export",
        )
        check.field(k, "category", where, lambda v: v in CATEGORIES, f"one of {CATEGORIES}")
        check.field(k, "curated_through", where, lambda v: _is_int(v) and v >= 0, "a message id")
    for i, b in enumerate(_items(document, "curation_parked", check)):
        where = f"curation_parked[{i}]"
        check.field(
            b,
            "conversation_id",
            where,
            lambda v: v in conversation_ids,
            "the id of a conversation in the export",
        )
        check.field(b, "category", where, lambda v: v in CATEGORIES, f"one of {CATEGORIES}")
        for key in ("first_message_id", "last_message_id", "attempts"):
            check.field(b, key, where, lambda v: _is_int(v) and v >= 0, "a count or message id")
        check.field(b, "reason", where, _is_str, "a string")
        check.field(b, "parked_at", where, _is_time, "an ISO-8601 time")
        check.field(b, "resolved_at", where, _is_opt_time, "an ISO-8601 time or null")
    for i, r in enumerate(_items(document, "rem_reports", check)):
        where = f"rem_reports[{i}]"
        for key in ("started_at", "finished_at"):
            check.field(r, key, where, _is_time, "an ISO-8601 time")
        check.field(r, "report", where, _is_rem_report, "a REM report as `kit rem --json` shows")
    for i, u in enumerate(_items(document, "usage", check)):
        where = f"usage[{i}]"
        check.field(u, "at", where, _is_time, "an ISO-8601 time")
        for key in ("model", "purpose"):
            check.field(u, key, where, _is_str, "a string")
        for key in ("input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens"):
            check.field(u, key, where, lambda v: _is_int(v) and v >= 0, "a count")
    for i, r in enumerate(_items(document, "reminders", check)):
        _check_reminder(check, r, f"reminders[{i}]")
    check_notes(document, lambda d, key: _items(d, key, check), check.field, _is_time)
    for i, e in enumerate(_items(document, "forget_log", check)):
        check.field(e, "at", f"forget_log[{i}]", _is_time, "an ISO-8601 time")
        check.field(e, "scope", f"forget_log[{i}]", _is_str, "a string")
        check.field(e, "counts", f"forget_log[{i}]", lambda v: isinstance(v, dict), "an object")


def _check_reminder(check: _Check, r: Mapping[str, Any], where: str) -> None:
    check.field(r, "id", where, _is_int, "an integer")
    for key in ("channel", "conversation"):
        check.field(r, key, where, lambda v: _is_str(v) and bool(v), "a non-empty string")
    check.field(r, "kind", where, lambda v: v in ("reminder", "task"), "reminder or task")
    check.field(r, "text", where, lambda v: _is_str(v) and bool(v), "a non-empty string")
    check.field(r, "repeat", where, lambda v: v in REPEATS, f"one of {REPEATS}")
    check.field(r, "local_time", where, lambda v: v is None or _is_hhmm(v), "HH:MM or null")
    check.field(
        r, "weekday", where, lambda v: v is None or (_is_int(v) and 0 <= v <= 6), "0-6 or null"
    )
    check.field(
        r, "status", where, lambda v: v in ("active", "done", "cancelled"), "active/done/cancelled"
    )
    check.field(r, "created_at", where, _is_time, "an ISO-8601 time")
    check.field(r, "ended_at", where, _is_opt_time, "an ISO-8601 time or null")
    active = r["status"] == "active"
    check.field(
        r,
        "next_fire",
        where,
        lambda v: _is_time(v) if active else v is None,
        "an ISO-8601 time while active, else null",
    )
    if r["repeat"] != "none":
        check.field(r, "local_time", where, _is_hhmm, "HH:MM for a repeating reminder")
    if r["repeat"] == "weekly":
        check.field(r, "weekday", where, _is_int, "0-6 for a weekly reminder")


def _is_hhmm(value: Any) -> bool:
    if not _is_str(value) or len(value) != 5 or value[2] != ":":
        return False
    hours, minutes = value[:2], value[3:]
    return hours.isdigit() and minutes.isdigit() and int(hours) < 24 and int(minutes) < 60
