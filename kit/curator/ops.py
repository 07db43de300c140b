"""Curation operations: the shape the model must answer in, and its validation.

The model calls the `apply_operations` tool; its input is parsed here into frozen dataclasses.
Anything that does not fit (an unknown operation, a missing field, a bad id, a date out of range,
a text too long) raises `InvalidOperations`, and the whole pass is rejected: nothing of it is
half-applied. The reason never quotes the model's text (see kit/untrusted/fingerprint.py).
Checks that need the database or the batch (does fact #12 exist, is it in this category, is
cited message 40 in the batch) live in apply.py.

Every operation that stores text (INSERT, REPLACE, UPDATE of content or subject) cites its
`sources`: the ids of the messages it comes from, so `kit forget` can take exactly the facts
learned from what it forgets.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, tzinfo
from typing import Any

from kit.clock import to_iso
from kit.errors import LLMOutputError
from kit.llm.base import LLMReply, ToolSpec
from kit.llm.json_repair import Unreadable, loads_lenient
from kit.memory.fact_rows import MAX_CONTENT_CHARS
from kit.untrusted.fingerprint import fingerprint

TOOL_NAME = "apply_operations"
MAX_OPERATIONS = 50
MAX_SOURCES = 200  # a batch holds at most 200 messages (progress.BATCH_MAX_MESSAGES)
MAX_SUBJECT_CHARS = 200
MAX_REASON_CHARS = 500
MAX_MERGED = 20  # facts one REPLACE may fold together
MAX_ROW_ID = 2**63 - 1  # SQLite's largest rowid: nothing above names a fact or a message
# A model date further ahead than this is a mistake, not a plan (and 9999-12-31 would overflow).
MAX_EXPIRY_AHEAD = timedelta(days=3653)

_OPS = ("INSERT", "UPDATE", "REPLACE", "DEACTIVATE")
_FIELDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    # op: (required keys, optional keys) besides "op"
    "INSERT": (
        frozenset({"content", "confidence", "sources"}),
        frozenset({"subject", "expires_at", "reason"}),
    ),
    "UPDATE": (  # "sources" is required with content or a subject (checked in _parse_one)
        frozenset({"fact_id"}),
        frozenset({"content", "subject", "confidence", "expires_at", "reason", "sources"}),
    ),
    "REPLACE": (
        frozenset({"fact_ids", "content", "confidence", "sources"}),
        frozenset({"subject", "expires_at", "reason"}),
    ),
    "DEACTIVATE": (frozenset({"fact_id", "reason"}), frozenset({"sources"})),
}


class InvalidOperations(LLMOutputError):
    """The model's operations do not fit the schema; the pass is rejected whole.
    `unreadable`: no operations could be read at all (no call, no JSON): worth asking once
    more (kit/curator/passes.py), unlike an answer that was read and is wrong."""

    def __init__(self, message: str, *, unreadable: bool = False) -> None:
        super().__init__(message)
        self.unreadable = unreadable


@dataclass(frozen=True)
class Insert:
    content: str
    confidence: float
    subject: str = ""
    expires_at: datetime | None = None
    reason: str = ""
    sources: tuple[int, ...] = ()  # the messages it comes from


@dataclass(frozen=True)
class Update:
    fact_id: int
    content: str | None = None
    subject: str | None = None
    confidence: float | None = None
    expires_at: datetime | None = None
    clear_expiry: bool = False  # the model sent "expires_at": null
    reason: str = ""
    sources: tuple[int, ...] = ()


@dataclass(frozen=True)
class Replace:
    """Merge overlapping facts: a new fact is inserted, the old ones deactivated and linked."""

    fact_ids: tuple[int, ...]
    content: str
    confidence: float
    subject: str = ""
    expires_at: datetime | None = None
    reason: str = ""
    sources: tuple[int, ...] = ()  # its own; the merged fact also inherits the old ones'


@dataclass(frozen=True)
class Deactivate:
    fact_id: int
    reason: str
    sources: tuple[int, ...] = ()
    # A copy's retirement (REM's copies step, kit/curator/copies.py; never a model's answer):
    # this live fact says the same and stays, so nothing is lost.
    kept_by: int | None = None


Operation = Insert | Update | Replace | Deactivate


def op_name(op: Operation) -> str:
    return type(op).__name__.upper()


def deactivated_ids(op: Operation) -> tuple[int, ...]:
    """Facts this operation deactivates (the guard counts more ways out of use: guard.py)."""
    if isinstance(op, Deactivate):
        return (op.fact_id,)
    if isinstance(op, Replace):
        return op.fact_ids
    return ()


def touched_ids(op: Operation) -> tuple[int, ...]:
    """Existing facts this operation changes in any way."""
    if isinstance(op, Update):
        return (op.fact_id,)
    return deactivated_ids(op)


def new_content(op: Operation) -> str | None:
    """Text this operation would store (screened for secrets and self-reference)."""
    if isinstance(op, Insert | Replace):
        return op.content
    if isinstance(op, Update):
        return op.content
    return None


def op_json(op: Operation) -> dict[str, Any]:
    """A JSON-ready record of an operation, for the pass's detail."""
    data: dict[str, Any] = {"op": op_name(op)}
    for key, value in vars(op).items():
        if value is None or value == "" or (key == "clear_expiry" and not value):
            continue
        data[key] = to_iso(value) if isinstance(value, datetime) else value
    for key in ("fact_ids", "sources"):
        if key in data:
            data[key] = list(data[key])
    return data


def describe(op: Operation) -> str:
    """One line a person can read: what the operation does."""
    if isinstance(op, Insert):
        return f"INSERT {_label(op.subject, op.content)} ({op.confidence:.2f}{_until(op)})"
    if isinstance(op, Update):
        changed = [
            name
            for name, value in (
                ("content", op.content),
                ("subject", op.subject),
                ("confidence", op.confidence),
                ("expiry", op.expires_at),
            )
            if value is not None
        ] + (["expiry cleared"] if op.clear_expiry else [])
        return f"UPDATE #{op.fact_id} ({', '.join(changed)})"
    if isinstance(op, Replace):
        ids = ", ".join(f"#{i}" for i in op.fact_ids)
        return f"REPLACE {ids} with {_label(op.subject, op.content)} ({op.confidence:.2f})"
    return f"DEACTIVATE #{op.fact_id}: {op.reason}"


def _label(subject: str, content: str) -> str:
    text = content if len(content) <= 80 else content[:77] + "..."
    return f"[{subject}] {text}" if subject else text


def _until(op: Insert) -> str:
    return "" if op.expires_at is None else f", until {op.expires_at.date()}"


# Each field's meaning is in prompts/curate/base.md; the schema gives only its shape, which
# is repeated per operation (four variants), so it is kept terse. No length limits
# (maxLength, maxItems): a local server turns the schema into a grammar, and llama.cpp's
# expands each limit into as many nested rules as it allows (thousands for a 2,000-character
# content), which it failed to compile and then crashed on (issue 29). The limits hold all
# the same: `parse_operations` checks every length (MAX_CONTENT_CHARS, MAX_OPERATIONS, ...).
_PROPERTIES: dict[str, dict[str, Any]] = {
    "fact_id": {"type": "integer", "minimum": 1},
    "fact_ids": {"type": "array", "items": {"type": "integer", "minimum": 1}, "minItems": 1},
    "subject": {"type": "string"},
    "content": {"type": "string", "minLength": 1},
    "confidence": {"type": "number", "minimum": 0, "maximum": 1},
    "expires_at": {"type": ["string", "null"], "description": "YYYY-MM-DD"},
    "reason": {"type": "string"},
    "sources": {
        "type": "array",
        "items": {"type": "integer", "minimum": 1},
        "description": "message ids: the N of [msg N, ...]",
    },
}
_OP_HELP = {
    "INSERT": "a new fact",
    "UPDATE": "change one fact; new content or subject needs its sources",
    "REPLACE": "merge overlapping facts into one new fact (sources [] if nothing is new)",
    "DEACTIVATE": "retire one fact, with the reason",
}


def _operation_schema(name: str) -> dict[str, Any]:
    """One operation's shape: exactly its fields, the required ones required."""
    required, optional = _FIELDS[name]
    fields = sorted(required | optional)
    schema: dict[str, Any] = {
        "type": "object",
        "description": f"{name}: {_OP_HELP[name]}",
        "properties": {"op": {"type": "string", "enum": [name]}}
        | {key: _PROPERTIES[key] for key in fields},
        "required": ["op", *sorted(required)],
        "additionalProperties": False,
    }
    if name == "UPDATE":
        schema["minProperties"] = 3  # op, fact_id and something to change
        schema["dependentRequired"] = {"content": ["sources"], "subject": ["sources"]}
    if name in ("INSERT",):
        schema["properties"]["sources"] = {**_PROPERTIES["sources"], "minItems": 1}
    if name == "DEACTIVATE":
        schema["properties"]["reason"] = {**_PROPERTIES["reason"], "minLength": 1}
    return schema


def operations_tool() -> ToolSpec:
    """The tool the curator model must call with its answer (its input schema is the contract).
    Each operation has its own shape (an INSERT without content does not fit it), so a model
    that decodes against the schema (llama.cpp's and OpenAI's structured output) cannot even
    write such an answer; `parse_operations` checks it all again. The same for every
    category, so the prompt prefix it starts stays cacheable."""
    return ToolSpec(
        TOOL_NAME,
        "Apply your changes to the facts of the category you are curating. Call it exactly "
        "once; send an empty list when nothing should change.",
        {
            "type": "object",
            "properties": {
                "operations": {
                    "type": "array",
                    "items": {"anyOf": [_operation_schema(name) for name in _OPS]},
                }
            },
            "required": ["operations"],
            "additionalProperties": False,
        },
    )


def parse_operations(raw: Any, *, now: datetime, tz: tzinfo) -> list[Operation]:
    """The tool input as operations, or `InvalidOperations` saying exactly what is wrong."""
    if not isinstance(raw, Mapping) or set(raw) != {"operations"}:
        raise InvalidOperations('the answer must be an object {"operations": [...]}')
    items = raw["operations"]
    if not isinstance(items, Sequence) or isinstance(items, str):
        raise InvalidOperations("'operations' must be a list")
    if len(items) > MAX_OPERATIONS:
        raise InvalidOperations(f"{len(items)} operations is more than {MAX_OPERATIONS} per pass")
    ops = [_parse_one(item, f"operation {n}", now, tz) for n, item in enumerate(items, 1)]
    seen: dict[int, int] = {}
    for n, op in enumerate(ops, 1):
        for fact_id in touched_ids(op):
            if fact_id in seen:
                raise InvalidOperations(
                    f"fact #{fact_id} appears in operations {seen[fact_id]} and {n}; "
                    "each fact may change once per pass"
                )
            seen[fact_id] = n
    return ops


def _parse_one(item: Any, where: str, now: datetime, tz: tzinfo) -> Operation:
    if not isinstance(item, Mapping):
        raise InvalidOperations(f"{where}: must be an object")
    name = item.get("op")
    if name not in _FIELDS:
        raise InvalidOperations(
            f"{where}: unknown operation ({fingerprint(name)}); use one of {list(_OPS)}"
        )
    required, optional = _FIELDS[name]
    keys = set(item) - {"op"}
    if missing := required - keys:
        raise InvalidOperations(f"{where} ({name}): missing {sorted(missing)}")
    if unknown := keys - required - optional:
        raise InvalidOperations(f"{where} ({name}): {_unknown_fields(unknown)}")
    where = f"{where} ({name})"
    reason = _text(item, "reason", where, allow_empty=name != "DEACTIVATE", limit=MAX_REASON_CHARS)
    sources = _sources(item.get("sources", []), where)
    if name == "DEACTIVATE":
        return Deactivate(_fact_id(item["fact_id"], where), reason or "", sources)
    expires_at = parse_expiry(item.get("expires_at"), where, now, tz)
    if name == "UPDATE":  # one that changes nothing is dropped alone (kit/curator/apply.py)
        fact_id = _fact_id(item["fact_id"], where)
        content = _text(item, "content", where)
        subject = _text(item, "subject", where, allow_empty=True, limit=MAX_SUBJECT_CHARS)
        if (content or subject) and not sources:
            raise InvalidOperations(f"{where}: new content or subject needs its 'sources'")
        return Update(
            fact_id=fact_id,
            content=content,
            subject=subject,
            confidence=_confidence(item.get("confidence"), where) if "confidence" in item else None,
            expires_at=expires_at,
            clear_expiry="expires_at" in item and item["expires_at"] is None,
            reason=reason or "",
            sources=sources,
        )
    if not sources and name == "INSERT":  # a REPLACE may only merge: [] when nothing is new
        raise InvalidOperations(f"{where}: 'sources' is empty; cite the messages it comes from")
    content = _text(item, "content", where)
    assert content is not None
    confidence = _confidence(item["confidence"], where)
    subject = _text(item, "subject", where, allow_empty=True, limit=MAX_SUBJECT_CHARS) or ""
    if name == "INSERT":
        return Insert(content, confidence, subject, expires_at, reason or "", sources)
    ids = item["fact_ids"]
    if not isinstance(ids, Sequence) or isinstance(ids, str) or not ids:
        raise InvalidOperations(f"{where}: 'fact_ids' must be a non-empty list of fact ids")
    if len(ids) > MAX_MERGED:
        raise InvalidOperations(
            f"{where}: merges {len(ids)} facts; at most {MAX_MERGED} may be merged into one"
        )
    fact_ids = tuple(_fact_id(i, where) for i in ids)
    if len(set(fact_ids)) != len(fact_ids):
        raise InvalidOperations(f"{where}: 'fact_ids' lists a fact twice")
    return Replace(fact_ids, content, confidence, subject, expires_at, reason or "", sources)


_KNOWN_FIELDS = frozenset({"op"}).union(*(req | opt for req, opt in _FIELDS.values()))


def _unknown_fields(keys: set[str]) -> str:
    """Field names of ours are named; anything else the model made up is only described."""
    ours = sorted(k for k in keys if k in _KNOWN_FIELDS)
    made_up = [k for k in keys if k not in _KNOWN_FIELDS]
    parts = [f"field(s) {ours} do not go with this operation"] if ours else []
    if made_up:
        parts.append(f"{len(made_up)} unknown field(s) ({fingerprint(sorted(made_up)[0])}, ...)")
    return "; ".join(parts)


def _text(
    item: Mapping[str, Any],
    key: str,
    where: str,
    allow_empty: bool = False,
    limit: int = MAX_CONTENT_CHARS,
) -> str | None:
    if key not in item:
        return None
    value = item[key]
    if not isinstance(value, str):
        raise InvalidOperations(f"{where}: '{key}' must be a string (got {fingerprint(value)})")
    value = value.strip()
    if not value and not allow_empty:
        raise InvalidOperations(f"{where}: '{key}' is empty")
    if len(value) > limit:
        raise InvalidOperations(
            f"{where}: '{key}' has {len(value)} characters, more than the {limit} allowed"
        )
    return value


def _fact_id(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_ROW_ID:
        raise InvalidOperations(
            f"{where}: fact ids are positive integers from the list (got {fingerprint(value)})"
        )
    return value


def _sources(value: Any, where: str) -> tuple[int, ...]:
    """Cited message ids, deduplicated and sorted (whether they are in the batch: apply.py)."""
    if not isinstance(value, Sequence) or isinstance(value, str):
        raise InvalidOperations(f"{where}: 'sources' must be a list of message ids")
    if len(value) > MAX_SOURCES:
        raise InvalidOperations(f"{where}: 'sources' cites more than {MAX_SOURCES} messages")
    for item in value:
        if isinstance(item, bool) or not isinstance(item, int) or not 1 <= item <= MAX_ROW_ID:
            raise InvalidOperations(f"{where}: 'sources' must hold message ids (positive integers)")
    return tuple(sorted(set(value)))


def _confidence(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
        raise InvalidOperations(f"{where}: 'confidence' must be a number from 0 to 1")
    return float(value)


def parse_expiry(
    value: Any, where: str, now: datetime, tz: tzinfo, *, date_only: bool = False
) -> datetime | None:
    """A model's `expires_at`: a date means "holds through that day" (owner's zone), a time
    without a zone is local. It must lie after `now` and at most `MAX_EXPIRY_AHEAD` ahead:
    out of range is rejected, never clamped. The error never quotes what the model sent."""
    if value is None:
        return None
    shape = "a date like 2026-05-01" if date_only else "a date like 2026-05-01 or null"
    if not isinstance(value, str):
        raise InvalidOperations(f"{where}: 'expires_at' must be {shape} (got {fingerprint(value)})")
    text = value.strip()
    whole_day = len(text) == 10 and text[4] == "-"
    try:
        if whole_day:  # midnight of that day; plus a day once it is known to be in range
            when = datetime.combine(date.fromisoformat(text), time(), tzinfo=tz)
        elif date_only or len(text) > 40:
            raise ValueError("not a date")
        else:
            when = datetime.fromisoformat(text)
            if when.tzinfo is None:
                when = when.replace(tzinfo=tz)
    except ValueError:
        raise InvalidOperations(
            f"{where}: 'expires_at' is not {shape} (got {fingerprint(value)})"
        ) from None
    problem = expiry_out_of_range(when, now, whole_day=whole_day)
    if problem is not None:
        raise InvalidOperations(f"{where}: 'expires_at' {problem}")
    if whole_day:
        when += timedelta(days=1)
    return when


def expiry_out_of_range(when: datetime, now: datetime, *, whole_day: bool) -> str | None:
    """Why `when` is no sane expiry (already past, or more than `MAX_EXPIRY_AHEAD` ahead), or
    None. `whole_day`: `when` is the midnight starting the last day the fact holds. The one
    range for every expiry from outside: the model's and the owner's (`kit facts --expires`)."""
    try:
        # Compared before any arithmetic: a day after 9999-12-31 does not exist.
        too_far = when > now + MAX_EXPIRY_AHEAD
        past = when + timedelta(days=1 if whole_day else 0) <= now
    except OverflowError:
        too_far, past = when.year > now.year, when.year < now.year
    if too_far:
        return (
            f"{when.date()} is more than {MAX_EXPIRY_AHEAD.days // 365} years ahead; leave it "
            "out for a fact that does not expire"
        )
    if past:
        return f"{when.date()} is already past"
    return None


def operations_from_reply(reply: LLMReply, *, now: datetime, tz: tzinfo) -> list[Operation]:
    """The operations in a model reply: one call of the tool or, failing that, the same object
    as plain JSON text. Anything else is `InvalidOperations`."""
    if reply.stop_reason == "max_tokens":
        raise InvalidOperations("the answer was cut off at max_tokens before it was complete")
    calls = reply.tool_uses
    if calls:
        names = [c.name for c in calls]
        if names != [TOOL_NAME]:
            raise InvalidOperations(
                f"expected one call of {TOOL_NAME}, got {len(names)} call(s) of other tools"
                if TOOL_NAME not in names
                else f"expected one call of {TOOL_NAME}, got {len(names)} calls"
            )
        return parse_operations(_as_answer(calls[0].input), now=now, tz=tz)
    text = reply.text.strip()
    if not text:
        raise InvalidOperations(
            f"the answer was empty; expected a call of {TOOL_NAME}", unreadable=True
        )
    try:
        raw = loads_lenient(text)  # fenced, after a sentence, trailing commas: kit/llm/
    except Unreadable as exc:
        raise InvalidOperations(
            f"the answer is neither a call of {TOOL_NAME} nor valid JSON ({exc})", unreadable=True
        ) from None
    return parse_operations(_as_answer(raw), now=now, tz=tz)


def _as_answer(raw: Any) -> Any:
    """What a small model sends instead of {"operations": [...]}: the list alone, or one
    operation alone. Anything else is left for `parse_operations` to reject."""
    if isinstance(raw, list):
        return {"operations": raw}
    if isinstance(raw, Mapping) and "op" in raw and "operations" not in raw:
        return {"operations": [raw]}
    return raw
