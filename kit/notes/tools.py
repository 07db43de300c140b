"""The chat model's note tools: `list_notes`, `read_note`, `grep_notes`.

Their arguments come from the model: every one is checked (a name must be a note name, lines
are bounded integers, a pattern is literal text of bounded length), and every result is
bounded (`read_note` at most `MAX_READ_LINES` lines and `MAX_READ_CHARS` characters, `grep_notes`
at most `MAX_MATCHES` lines) and framed as recalled data through the one neutraliser, like
`search_memory`'s results. What to call next (the following lines, a narrower pattern) is said
after the frame.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import tzinfo
from typing import Any

from kit.errors import InputError, KitError
from kit.llm.base import ToolSpec
from kit.notes.store import Note, NoteInfo, Notes
from kit.notes.text import grep_lines, lines_of, note_name
from kit.untrusted.neutralise import LINE_BREAK, neutralise, recalled_block

DEFAULT_READ_LINES = 50
MAX_READ_LINES = 200
MAX_READ_CHARS = 12_000  # about 3k tokens: a read is a slice, not the whole document
MAX_MATCHES = 40
MAX_PATTERN_CHARS = 200
MATCH_CHARS = 240  # a matching line is shown around its match, at most this long
MAX_LISTED = 200

NOTE_TOOL_SPECS: tuple[ToolSpec, ...] = (
    ToolSpec(
        "list_notes",
        "List the owner's notes: documents they gave you (lists, recipes, meeting notes, "
        "briefs), each with its name, a one-line description and its length in lines.",
        {"type": "object", "properties": {}},
    ),
    ToolSpec(
        "read_note",
        f"Read lines of one of the owner's notes ({DEFAULT_READ_LINES} lines unless you ask "
        f"for another count, at most {MAX_READ_LINES}). Lines are numbered; continue where a "
        "read ended with start_line.",
        {
            "type": "object",
            "properties": {
                "name": {"type": "string", "description": "the note's name"},
                "start_line": {"type": "integer", "minimum": 1, "description": "default 1"},
                # No "maximum": a longer read is cut to MAX_READ_LINES and says where to go on.
                "count": {
                    "type": "integer",
                    "minimum": 1,
                    "description": f"at most {MAX_READ_LINES}",
                },
            },
            "required": ["name"],
        },
    ),
    ToolSpec(
        "grep_notes",
        "Find the lines of the owner's notes that contain a text: plain text compared "
        "case-insensitively, not a regular expression. Give a note's name to search only it.",
        {
            "type": "object",
            "properties": {
                "pattern": {"type": "string", "description": "the text to find"},
                "name": {"type": "string", "description": "only this note (optional)"},
            },
            "required": ["pattern"],
        },
    ),
)
NOTE_TOOLS = frozenset(spec.name for spec in NOTE_TOOL_SPECS)


@dataclass(frozen=True)
class NoteToolResult:
    content: str
    is_error: bool = False


def _line(text: str) -> str:
    """One line of a note made inert, still one line (and its indentation kept)."""
    return neutralise(text).replace("\n", LINE_BREAK)


def _int(args: Mapping[str, Any], key: str, default: int) -> int:
    value = args.get(key, default)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int | float) or value != int(value):
        raise InputError(f"{key} must be a whole number (got {str(value)[:20]!r})")
    return int(value)


def _name(args: Mapping[str, Any]) -> str:
    value = args.get("name")
    if not isinstance(value, str):
        raise InputError("name must be the name of a note (list_notes lists them)")
    return note_name(value)


def _around(line: str, needle: str) -> str:
    """A long matching line cut to MATCH_CHARS around its first match."""
    if len(line) <= MATCH_CHARS:
        return line
    at = max(0, line.casefold().find(needle.casefold()))
    start = max(0, min(at - MATCH_CHARS // 3, len(line) - MATCH_CHARS))
    piece = line[start : start + MATCH_CHARS]
    return ("…" if start else "") + piece + ("…" if start + MATCH_CHARS < len(line) else "")


def notes_listing(notes: Sequence[NoteInfo], tz: tzinfo) -> str:
    """`list_notes`'s answer (the chat's and `kit mcp`'s): each note's name, length, last
    change and description, framed as recalled data."""
    if not notes:
        return "The owner has no notes."
    lines = [
        f"- {n.name} ({n.lines:,} lines, updated "
        f"{n.updated_at.astimezone(tz).date().isoformat()}): "
        f"{neutralise(n.description, inline=True)}"
        for n in notes[:MAX_LISTED]
    ]
    more = len(notes) - MAX_LISTED
    tail = f"\n[{more:,} more notes not listed; grep_notes finds text in all]" if more > 0 else ""
    return recalled_block("\n".join(lines)) + tail


def note_lines(note: Note, start: int, count: int) -> str:
    """`read_note`'s answer: up to `count` numbered lines from `start` (at most MAX_READ_LINES
    and MAX_READ_CHARS), framed as recalled data, and where to read on."""
    name = note.info.name
    count = min(max(count, 1), MAX_READ_LINES)
    lines = lines_of(note.text)
    if not 1 <= start <= len(lines):
        raise InputError(f"{name} has {len(lines):,} lines; start_line must be 1 to {len(lines)}")
    shown: list[str] = []
    size = 0
    for number in range(start, min(start + count, len(lines) + 1)):
        line = f"{number:>5}  {_line(lines[number - 1])}"
        if shown and size + len(line) > MAX_READ_CHARS:
            break
        shown.append(line)
        size += len(line) + 1
    end = start + len(shown) - 1
    head = f"Note {name}, lines {start}-{end} of {len(lines):,}:"
    body = recalled_block(head + "\n" + "\n".join(shown))
    if end < len(lines):
        body += (
            f"\n[lines {end + 1}-{len(lines)} not shown; read_note with "
            f"start_line={end + 1} reads on]"
        )
    return body


class NoteTools:
    def __init__(self, notes: Notes, tz: tzinfo) -> None:
        self._notes = notes
        self._tz = tz

    async def run(self, name: str, args: Mapping[str, Any], user_id: str) -> NoteToolResult:
        try:
            if name == "list_notes":
                return await self._list(user_id)
            if name == "read_note":
                return await self._read(args, user_id)
            if name == "grep_notes":
                return await self._grep(args, user_id)
        except KitError as exc:
            return NoteToolResult(str(exc), is_error=True)
        return NoteToolResult(f"unknown tool {name!r}", is_error=True)

    async def _list(self, user_id: str) -> NoteToolResult:
        return NoteToolResult(notes_listing(await self._notes.listing(user_id), self._tz))

    async def _read(self, args: Mapping[str, Any], user_id: str) -> NoteToolResult:
        name = _name(args)
        start = _int(args, "start_line", 1)
        count = _int(args, "count", DEFAULT_READ_LINES)
        note = await self._notes.get(user_id, name)
        return NoteToolResult(note_lines(note, start, count))

    async def _grep(self, args: Mapping[str, Any], user_id: str) -> NoteToolResult:
        pattern = args.get("pattern")
        if not isinstance(pattern, str) or not pattern.strip():
            raise InputError("grep_notes needs a pattern: the text to find")
        pattern = pattern.strip()
        if len(pattern) > MAX_PATTERN_CHARS:
            raise InputError(
                f"the pattern is too long ({len(pattern)} characters; at most "
                f"{MAX_PATTERN_CHARS}): look for a few words"
            )
        only = _name(args) if args.get("name") is not None else None
        texts = await self._notes.texts(user_id, only)
        if not texts:
            return NoteToolResult("The owner has no notes.")
        # Every line of every note, in Python: off the event loop (up to 256 KB per note).
        found = await asyncio.to_thread(
            lambda: [(n, hit) for n, text in texts for hit in grep_lines(text, pattern)]
        )
        if not found:
            where = f"note {only}" if only else "any note"
            return NoteToolResult(f"No line of {where} contains {_line(pattern)!r}.")
        lines = [
            f"[note {n} line {number}] {_line(_around(line, pattern))}"
            for n, (number, line) in found[:MAX_MATCHES]
        ]
        body = recalled_block("\n".join(lines))
        if len(found) > MAX_MATCHES:
            body += (
                f"\n[{len(found) - MAX_MATCHES:,} more matching lines not shown; use a longer "
                "pattern, name one note, or read_note around a match]"
            )
        return NoteToolResult(body)
