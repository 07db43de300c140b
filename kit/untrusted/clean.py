"""Text from outside (chat channels, the control socket, imports) made safe to store and show.

Two hazards: lone UTF-16 surrogates (invalid UTF-8 smuggled in through JSON `\\ud800` escapes)
cannot be encoded for SQLite at all, and control characters (NUL, bells, terminal escape
sequences) would be replayed into the owner's terminal by `kit history`, exports and the TUI.
"""

from __future__ import annotations

import re

# C0 controls except tab and newline, DEL, and the C1 range.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_SURROGATE = re.compile(r"[\ud800-\udfff]")


def clean_text(text: str) -> str:
    """`text` with line ends as '\\n', control characters dropped (tabs and newlines kept) and
    lone surrogates replaced by U+FFFD. Everything else is kept exactly."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = _SURROGATE.sub("\ufffd", text)
    return _CONTROL.sub("", text)


NAME_LIMIT = 64  # characters of a display name Kit keeps (Telegram's own limit is 64)


def clean_name(name: str) -> str:
    """A display name from outside (who a message is from or was forwarded from) as one short
    line: cleaned like text, runs of whitespace (newlines included) made one space, cut to
    NAME_LIMIT characters. A name shows in transcripts; it must not be able to start a line
    of its own there."""
    return " ".join(clean_text(name).split())[:NAME_LIMIT].strip()
