"""A document on its way in: checked as text (text.py), then screened for secrets.

Notes are the owner's documents, given to Kit to use, and a packing list may hold a door
code. Kit keeps no secrets in memory (docs/security.md), so a value that
looks like one is withheld in place ("[secret withheld]"), as in a day summary: the note keeps
its sentence and loses only the value, and the owner is told which lines, never the values.
Refusing the whole note would lose the document for one value; keeping the value would break
the promise that the database, exports and backups hold no secrets.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from kit.notes.text import Document, document_text, read_document
from kit.secrets import WITHHELD, find_secrets


@dataclass(frozen=True)
class Withheld:
    line: int  # in the document as given (after long lines were wrapped)
    kind: str  # "a door code", never the value


@dataclass(frozen=True)
class Accepted:
    document: Document  # secrets already withheld
    withheld: tuple[Withheld, ...]

    @property
    def text(self) -> str:
        return self.document.text


def _accept(data: bytes | str, label: str) -> Accepted:
    document = read_document(data, label) if isinstance(data, bytes) else document_text(data, label)
    found = find_secrets(document.text)
    if not found:
        return Accepted(document, ())
    text = document.text
    withheld = tuple(Withheld(text.count("\n", 0, s.start) + 1, s.kind) for s in found)
    for secret in reversed(found):  # the spans find_secrets merged; last first keeps offsets
        text = text[: secret.start] + WITHHELD + text[secret.end :]
    return Accepted(Document(text, document.wrapped), withheld)


async def accept(data: bytes | str, label: str) -> Accepted:
    """`data` as a note's text, or an InputError saying why not. The secret screen reads the
    whole text (up to 256 KB, about half a second), so it runs off the event loop."""
    return await asyncio.to_thread(_accept, data, label)


def withheld_summary(withheld: tuple[Withheld, ...]) -> str:
    """ "line 12: a door code; lines 30, 31: a password" (what the owner is told)."""
    by_kind: dict[str, list[int]] = {}
    for item in withheld:
        lines = by_kind.setdefault(item.kind, [])
        if item.line not in lines:
            lines.append(item.line)
    parts = []
    for kind, lines in by_kind.items():
        shown = ", ".join(str(n) for n in lines[:10]) + (", …" if len(lines) > 10 else "")
        parts.append(f"{'line' if len(lines) == 1 else 'lines'} {shown}: {kind}")
    return "; ".join(parts)
