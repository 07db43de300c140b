"""What the owner is told after a note is written, wherever it came from (the CLI, Telegram)."""

from __future__ import annotations

from kit.notes.intake import withheld_summary
from kit.notes.store import NoteWrite
from kit.notes.text import MAX_LINE_CHARS, size_text
from kit.text import plural


def added_text(written: NoteWrite) -> str:
    """The confirmation: what was stored, and what was changed on the way in."""
    note = written.note
    if written.operation == "unchanged":
        return f'Note "{note.name}" already says exactly this; nothing changed.'
    verb = "Added" if written.operation == "add" else "Replaced"
    parts = [
        f'{verb} note "{note.name}" ({plural(note.lines, "line")}, {size_text(note.bytes)}): '
        f"{note.description}"
    ]
    if written.operation == "replace":
        parts.append(f"The previous version stays in its history (kit notes history {note.name}).")
    if written.wrapped:
        parts.append(
            f"{plural(written.wrapped, 'line')} longer than {MAX_LINE_CHARS:,} characters "
            f"{'was' if written.wrapped == 1 else 'were'} wrapped."
        )
    if written.withheld:
        parts.append(
            f"Withheld what looks like a secret ({withheld_summary(written.withheld)}): Kit "
            "keeps no secrets, so the note says [secret withheld] there."
        )
    return "\n".join(parts)
