"""What the `kit` command prints, made safe for the owner's terminal.

Stored text comes from outside (chat messages, notes, imports) and a bidirectional control
character in it reorders how a terminal shows the rest of the line: "invoice_<U+202E>fdp.exe"
is displayed as "invoice_exe.pdf". Control characters are already dropped when text is stored
(kit/untrusted/clean.py), but these are ordinary format characters, kept in memory exactly. So
every line `kit` writes passes one place (`BidiSafe`, around stdout and stderr from kit/cli.py),
which shows each of them as its visible escape `\\u202e`. In JSON output that escape is the
JSON escape of the same character, so `--json` still decodes to the exact text.
"""

from __future__ import annotations

import re
from typing import Any, TextIO

# Arabic letter mark, LRM/RLM, the embeddings and overrides (LRE..RLO), the isolates (LRI..PDI).
BIDI_CONTROLS = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
_BIDI = re.compile(f"[{BIDI_CONTROLS}]")


def visible_bidi(text: str) -> str:
    """`text` with each bidirectional control shown as its escape (`\\u202e`)."""
    return _BIDI.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


class BidiSafe:
    """A text stream writing through `visible_bidi`; everything else (isatty, fileno,
    buffer, flush) is the wrapped stream's."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(visible_bidi(text))
        return len(text)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)
