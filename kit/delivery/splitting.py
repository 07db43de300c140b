"""Splitting a long reply into chat-sized messages at natural boundaries.

Pure Python, no Telegram: paragraph breaks first, then line breaks, then sentence ends, then
spaces, and only a hard cut when a single "word" is longer than a whole message.
"""

from __future__ import annotations

import re

TELEGRAM_LIMIT = 4096

# A sentence ends at . ! ? or … (optionally followed by closing quotes/brackets) before a space.
_SENTENCE_END = re.compile(r"[.!?…][\"'”’)\]]*(?=\s)")
_SPACE = re.compile(r"\s")


def utf16_length(text: str) -> int:
    """Telegram measures text in UTF-16 code units; this is never less than `len(text)`,
    so a chunk that fits by this measure fits whichever way the limit is counted."""
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def split_message(text: str, limit: int = TELEGRAM_LIMIT) -> list[str]:
    """Chunks of at most `limit` UTF-16 units, in order, none empty.

    Whitespace at a cut is dropped; every other character is kept exactly once.
    """
    if limit < 2:
        raise ValueError(f"limit must be at least 2 (got {limit})")
    chunks: list[str] = []
    rest = text.strip()
    while rest:
        if len(rest) <= limit and utf16_length(rest) <= limit:
            chunks.append(rest)
            break
        cut = _cut_point(rest, _fitting_prefix(rest, limit))
        chunks.append(rest[:cut].rstrip())
        rest = rest[cut:].lstrip()
    return chunks


def _fitting_prefix(text: str, limit: int) -> int:
    """The longest prefix length (in code points) that fits `limit` UTF-16 units."""
    if utf16_length(text[:limit]) <= limit:
        return min(len(text), limit)  # the common case: no characters outside the BMP
    units = 0
    for index, ch in enumerate(text):
        units += 2 if ord(ch) > 0xFFFF else 1
        if units > limit:
            return index
    return len(text)


def _cut_point(text: str, end: int) -> int:
    """Where to end the next chunk within text[:end], preferring the most natural boundary.

    Boundaries in the second half of the window win first, so an early blank line does not
    produce a tiny message when a sentence end further on would do; then any boundary; then
    a hard cut.
    """
    window = text[:end]
    candidates = (
        _last(window, "\n\n"),
        _last(window, "\n"),
        # Peek one character past the window: a sentence may end exactly at its edge.
        max((m.end() for m in _SENTENCE_END.finditer(text[: end + 1])), default=-1),
        end if end < len(text) and text[end].isspace() else _last_space(window),
    )
    for minimum in (end // 2, 1):
        for at in candidates:
            if at >= minimum and window[:at].strip():
                return at
    return end  # one unbroken run longer than a message: a hard cut is unavoidable


def _last(window: str, separator: str) -> int:
    return window.rfind(separator)


def _last_space(window: str) -> int:
    return max((m.start() for m in _SPACE.finditer(window)), default=-1)
