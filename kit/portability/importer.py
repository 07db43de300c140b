"""`kit import`: JSON Lines of messages, validated whole before anything is written."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any, BinaryIO

from kit.clock import check_time
from kit.errors import InputError
from kit.memory.messages import NewMessage
from kit.untrusted.clean import clean_text

_ROLES = ("user", "assistant")
_KNOWN = {"role", "speaker", "text", "at", "ref"}


def parse_record(record: Any, where: str) -> NewMessage:
    """One message from a decoded JSON object; `where` names the place for errors."""
    if not isinstance(record, dict):
        raise InputError(
            f"{where}: expected a JSON object like "
            '{"role": "user", "text": "...", "at": "2024-05-01T09:30:00+00:00"}'
        )
    unknown = set(record) - _KNOWN
    if unknown:
        raise InputError(f"{where}: unknown field(s) {sorted(unknown)}; allowed: {sorted(_KNOWN)}")
    text = record.get("text")
    if not isinstance(text, str) or not clean_text(text).strip():
        raise InputError(f"{where}: 'text' must be a non-empty string")
    role = record.get("role")
    speaker = record.get("speaker", "")
    if role is None and not speaker:
        raise InputError(f"{where}: give 'role' (user or assistant) or 'speaker' (a name)")
    if role is not None and role not in _ROLES:
        raise InputError(f"{where}: 'role' must be 'user' or 'assistant' (got {role!r})")
    if not isinstance(speaker, str):
        raise InputError(f"{where}: 'speaker' must be a string")
    at_text = record.get("at")
    if not isinstance(at_text, str):
        raise InputError(f"{where}: 'at' must be an ISO-8601 time like 2024-05-01T09:30:00+00:00")
    try:
        at = datetime.fromisoformat(at_text)
    except ValueError as exc:
        raise InputError(
            f"{where}: 'at' {at_text!r} is not an ISO-8601 time (like 2024-05-01T09:30:00+00:00)"
        ) from exc
    if at.tzinfo is None:
        raise InputError(f"{where}: 'at' {at_text!r} has no timezone; add one, e.g. +00:00 or Z")
    check_time(at, f"{where}: 'at'")
    ref = record.get("ref")
    if ref is not None and not isinstance(ref, str | int):
        raise InputError(f"{where}: 'ref' must be a string")
    return NewMessage(
        role=role or "user",
        text=clean_text(text),
        at=at,
        speaker=speaker,
        ref=None if ref is None else str(ref),
    )


def read_jsonl(path: Path) -> list[NewMessage]:
    """Every message in the file, or an InputError naming the first bad line."""
    with _open(path) as handle:
        return parse_lines(handle, str(path))


def check_jsonl(path: Path) -> int:
    """Check every line of the file without keeping any: how many messages it holds, or an
    InputError naming the first bad line. Memory stays flat however large the file is."""
    with _open(path) as handle:
        count = sum(1 for _ in iter_lines(handle, str(path)))
    if not count:
        raise InputError(f"{path}: no messages found; expected one JSON object per line")
    return count


def iter_jsonl(path: Path) -> Iterator[NewMessage]:
    """The file's messages one at a time (after `check_jsonl`, for a bounded-memory import)."""
    with _open(path) as handle:
        yield from iter_lines(handle, str(path))


def _open(path: Path) -> BinaryIO:
    try:
        return path.open("rb")
    except OSError as exc:
        raise InputError(f"{path}: cannot open the file ({exc.strerror})") from exc


def parse_lines(lines: Iterable[bytes], source: str) -> list[NewMessage]:
    items = list(iter_lines(lines, source))
    if not items:
        raise InputError(f"{source}: no messages found; expected one JSON object per line")
    return items


def iter_lines(lines: Iterable[bytes], source: str) -> Iterator[NewMessage]:
    for number, raw in enumerate(lines, 1):
        where = f"{source}:{number}"
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(f"{where}: not valid UTF-8; save the file as UTF-8") from exc
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(
                f"{where}: not valid JSON ({exc.msg}); one JSON object per line"
            ) from exc
        except RecursionError as exc:  # Python's parser gives up near 1,000 levels
            raise InputError(
                f"{where}: nested too deeply to read; a message is one flat JSON object"
            ) from exc
        yield parse_record(record, where)
