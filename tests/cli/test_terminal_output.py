"""Stored text cannot reorder what the owner's terminal shows: bidirectional control
characters (U+202E and its kin) are shown as visible escapes in every command's output, and
JSON output still decodes to the exact text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kit.cli import main
from tests.daemon.test_commands import env as no_model

__all__ = ["no_model"]

# Written out here, not imported: the test holds the list kit/untrusted/terminal.py keeps.
BIDI_CONTROLS = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"

# "invoice_fdp.exe" shown as "invoice_exe.pdf": the classic right-to-left override trick.
TRICK = "open invoice_\u202efdp.exe and \u2067isolate\u2069 \u200fmark"


def _out(capsys: pytest.CaptureFixture[str]) -> tuple[str, str]:
    captured = capsys.readouterr()
    return captured.out, captured.err


def test_no_bidi_control_reaches_the_terminal_from_stored_text(
    no_model: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    note = no_model / "trick.md"
    note.write_text(f"# {TRICK}\n\nline two {TRICK}\n", encoding="utf-8")
    assert main(["notes", "add", str(note), "--description", TRICK]) == 0
    assert main(["facts", "add", f"The owner said {TRICK}"]) == 0
    _out(capsys)
    shown: list[str] = []
    for argv in (
        ["notes", "show", "trick"],
        ["notes", "list"],
        ["notes", "history"],
        ["facts"],
        ["search", "invoice"],
        ["notes", "show", "nope\u202eevil"],  # an error quoting the owner's own input
    ):
        main(argv)
        out, err = _out(capsys)
        shown.append(out + err)
    for text in shown:
        assert not any(c in text for c in BIDI_CONTROLS), text
    assert "invoice_\\u202efdp.exe" in shown[0]  # visible, and still says what was there


def test_json_output_still_decodes_to_the_exact_text(
    no_model: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["facts", "add", f"The owner said {TRICK}"]) == 0
    _out(capsys)
    assert main(["facts", "--json"]) == 0
    out, _ = _out(capsys)
    assert not any(c in out for c in BIDI_CONTROLS)
    (fact,) = json.loads(out)
    assert fact["content"] == f"The owner said {TRICK}"


def test_the_list_is_the_one_the_terminal_filter_keeps() -> None:
    from kit.untrusted.terminal import BIDI_CONTROLS as kept

    assert kept == BIDI_CONTROLS
