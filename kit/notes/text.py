"""What a document must be to become a note, and how a note's text is named, described, cut
into sections for search and read in slices.

A note is UTF-8 text (plain or Markdown) of at most `MAX_NOTE_BYTES`. Anything else is
refused with what it looks like and the fix: a PDF or a Word file by its signature, UTF-16 or
binary data by its NUL bytes, another encoding by the first byte that is not UTF-8. Line ends
become "\\n" and control characters go (as for every text from outside, kit/untrusted/clean.py); a
line longer than `MAX_LINE_CHARS` is wrapped, so that every line a tool reads is bounded.
Lines are split on "\\n" only, everywhere, so line numbers mean the same in every place.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from pathlib import PurePath

from kit.errors import InputError
from kit.untrusted.clean import clean_text

MAX_NOTE_BYTES = 256 * 1024
MAX_LINE_CHARS = 2_000
MAX_NAME_CHARS = 64
DESCRIPTION_CHARS = 80  # a derived description: the first heading or line, clipped
MAX_DESCRIPTION_CHARS = 200  # one given with --description
SECTION_CHARS = 1_000  # a search section: about what the embedding model reads (256 tokens)
SECTION_LINES = 25

# Binary formats people mistake for text documents, by their first bytes.
_SIGNATURES: tuple[tuple[bytes, str], ...] = (
    (b"%PDF", "a PDF"),
    (b"PK\x03\x04", "a ZIP archive (Word, Excel and OpenDocument files are ZIP archives)"),
    (b"\xd0\xcf\x11\xe0", "an old Microsoft Office document"),
    (b"\x89PNG", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF8", "a GIF image"),
    (b"\x1f\x8b", "a gzip archive"),
    (b"\xff\xfe", "UTF-16 text"),
    (b"\xfe\xff", "UTF-16 text"),
)
_BOM = b"\xef\xbb\xbf"
_NAME = re.compile(r"[^\W_][\w.-]*")
_NOT_NAME = re.compile(r"[^\w.-]+")
_HEADING = re.compile(r"\s{0,3}#{1,6}\s+(.*?)[\s#]*$")
_MARKERS = " \t#>*+-"
_WORDY = re.compile(r"[^\W_]")
TEXT_FIX = "notes are UTF-8 text or Markdown: save or export it as .txt or .md and add that"


@dataclass(frozen=True)
class Document:
    """A document accepted as a note's text."""

    text: str
    wrapped: int  # lines longer than MAX_LINE_CHARS, wrapped

    @property
    def lines(self) -> int:
        return count_lines(self.text)


@dataclass(frozen=True)
class Section:
    """Lines `start`..`end` (1-based, inclusive) of a note, for the search indexes."""

    start: int
    end: int
    heading: str  # the nearest Markdown heading above or at its start ("" if none)
    text: str


def lines_of(text: str) -> list[str]:
    return text.split("\n")


def count_lines(text: str) -> int:
    return len(lines_of(text)) if text else 0


def size_text(size: int) -> str:
    if size >= 1024 * 1024:
        return f"{size / (1024 * 1024):,.1f} MB"
    return f"{size / 1024:,.0f} KB" if size >= 10 * 1024 else f"{size:,} bytes"


def check_size(size: int, label: str) -> None:
    """An InputError if `size` bytes (the file's whole size, known before it is read) is over
    the note limit, saying the size as it is: in bytes too, so a file just over the limit is
    not "256 KB over 256 KB"."""
    if size > MAX_NOTE_BYTES:
        shown = f"{size:,} bytes" if size < 1024 * 1024 else f"{size_text(size)} ({size:,} bytes)"
        raise InputError(
            f"{label}: {shown} is over the limit for a note ({MAX_NOTE_BYTES:,} bytes: "
            f"{MAX_NOTE_BYTES // 1024} KB); split it into smaller notes"
        )


def read_document(data: bytes, label: str) -> Document:
    """`data` as a note's text, or an InputError naming what it is and what to do."""
    check_size(len(data), label)
    for signature, kind in _SIGNATURES:
        if data.startswith(signature):
            raise InputError(f"{label}: this is {kind}, not UTF-8 text; {TEXT_FIX}")
    data = data.removeprefix(_BOM)
    if b"\x00" in data:
        raise InputError(
            f"{label}: holds NUL bytes, so it is a binary file (or UTF-16 text), not UTF-8 "
            f"text; {TEXT_FIX}"
        )
    try:
        decoded = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError(
            f"{label}: not UTF-8 text (line {line} has a byte UTF-8 does not allow); if it is "
            "text in another encoding, convert it first, e.g. "
            "`iconv -f latin1 -t utf-8 FILE > FILE.txt`"
        ) from None
    return document_text(decoded, label)


def document_text(text: str, label: str) -> Document:
    """Text (already decoded) as a note's text: cleaned, long lines wrapped, not empty."""
    text = clean_text(text).strip("\n")
    if not text.strip():
        raise InputError(f"{label}: the document is empty; there is nothing to keep")
    if len(text.encode("utf-8", "surrogatepass")) > MAX_NOTE_BYTES:
        raise InputError(
            f"{label}: over the limit for a note ({MAX_NOTE_BYTES // 1024} KB); split it "
            "into smaller notes"
        )
    lines: list[str] = []
    wrapped = 0
    for line in lines_of(text):
        if len(line) > MAX_LINE_CHARS:
            wrapped += 1
            lines.extend(_wrap(line))
        else:
            lines.append(line)
    return Document("\n".join(lines), wrapped)


def _wrap(line: str) -> list[str]:
    """A long line as lines of at most MAX_LINE_CHARS, broken at a space when one is near."""
    out: list[str] = []
    while len(line) > MAX_LINE_CHARS:
        cut = line.rfind(" ", MAX_LINE_CHARS // 2, MAX_LINE_CHARS + 1)
        if cut <= 0:
            cut = MAX_LINE_CHARS
        out.append(line[:cut].rstrip())
        line = line[cut:].lstrip(" ")
    out.append(line)
    return out


def note_name(raw: str) -> str:
    """A name the owner (or the model) gave, in its one stored form: lower case, spaces as
    '-'. Letters and digits of any script, '-', '_' and '.', starting with a letter or digit."""
    name = "-".join(unicodedata.normalize("NFC", raw).split()).lower()
    if not name:
        raise InputError("a note needs a name, e.g. packing-list")
    if len(name) > MAX_NAME_CHARS:
        raise InputError(
            f"the note name is too long ({len(name)} characters; at most {MAX_NAME_CHARS})"
        )
    if not _NAME.fullmatch(name):
        raise InputError(
            f"{raw!r} is not a note name: use letters, digits, '-', '_' and '.', starting with "
            "a letter or digit (e.g. packing-list)"
        )
    return name


def name_from_file(file_name: str, fallback: str = "note") -> str:
    """A note name from a file name: its stem, with anything a name cannot hold as '-'."""
    stem = PurePath(file_name.replace("\\", "/")).stem if file_name else ""
    name = _NOT_NAME.sub("-", unicodedata.normalize("NFC", stem).lower())
    name = name[:MAX_NAME_CHARS]
    while name and not _NAME.match(name):
        name = name[1:]  # leading dots, dashes and underscores
    name = name.rstrip("-.")
    return name or fallback


def describe(text: str, given: str | None = None) -> str:
    """The note's one-line description: `given` (the owner's), else its first line with a
    letter or digit in it (a Markdown heading without its #), clipped."""
    if given is not None and given.strip():
        line = " ".join(clean_text(given).split())
        if len(line) > MAX_DESCRIPTION_CHARS:
            raise InputError(
                f"the description is too long ({len(line)} characters; at most "
                f"{MAX_DESCRIPTION_CHARS}): one line that says what the note is"
            )
        return line
    for line in lines_of(text)[:200]:
        if not _WORDY.search(line):
            continue  # blank, or a rule / fence / front-matter marker
        heading = _HEADING.fullmatch(line)
        return _clip(heading.group(1) if heading else line.strip(_MARKERS))
    return ""


def _clip(text: str) -> str:
    line = " ".join(text.split())
    if len(line) <= DESCRIPTION_CHARS:
        return line
    cut = line.rfind(" ", DESCRIPTION_CHARS // 2, DESCRIPTION_CHARS)
    return line[: cut if cut > 0 else DESCRIPTION_CHARS - 1].rstrip(",;:") + "…"


def sections(text: str) -> list[Section]:
    """The note cut for the search indexes: paragraphs gathered up to SECTION_CHARS and
    SECTION_LINES, a Markdown heading always starting a new section."""
    lines = lines_of(text)
    out: list[Section] = []
    heading = ""
    start: int | None = None  # the open section's first line (0-based)
    size = 0

    def close(end: int) -> None:
        nonlocal start, size
        if start is not None:
            while end > start and not lines[end - 1].strip():
                end -= 1
            body = "\n".join(lines[start:end])
            if body.strip():
                out.append(Section(start + 1, end, heading_at_start, body))
        start, size = None, 0

    heading_at_start = ""
    for i, line in enumerate(lines):
        found = _HEADING.fullmatch(line)
        blank = not line.strip()
        paragraph_break = blank and size >= SECTION_CHARS // 2
        too_big = start is not None and (
            size + len(line) > SECTION_CHARS or i - start >= SECTION_LINES
        )
        if found or too_big or paragraph_break:
            close(i)
        if found:
            heading = " ".join(found.group(1).split())
        if blank and start is None:
            continue
        if start is None:
            start, heading_at_start = i, heading
        size += len(line) + 1
    close(len(lines))
    return out


def grep_lines(text: str, needle: str) -> list[tuple[int, str]]:
    """(line number, line) of every line holding `needle`, compared case-insensitively. A
    literal, never a pattern: the model's text cannot make this slow."""
    folded = needle.casefold()
    return [(i, line) for i, line in enumerate(lines_of(text), 1) if folded in line.casefold()]
