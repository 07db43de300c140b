"""The look-alike letters Kit folds before secret detection (kit/secrets/homoglyphs.py) are
exactly those Unicode's confusables table (the `confusable-homoglyphs` package) names: the
table is kept in Kit so a running Kit never loads the package's ~77,000 objects.

    python tests/trust/test_homoglyphs.py > kit/secrets/homoglyphs.py   # after an update
"""

from __future__ import annotations

import subprocess
import sys
import unicodedata
from pathlib import Path

from kit.secrets.homoglyphs import homoglyphs

MODULE = Path(__file__).resolve().parents[2] / "kit" / "secrets" / "homoglyphs.py"


def from_unicode() -> dict[int, str]:
    """Letters of other scripts (never Latin ones: "ñ" is a letter, not a disguise) that the
    confusables table says look like one ASCII letter or digit."""
    from confusable_homoglyphs import confusables

    table: dict[int, str] = {}
    for char, looks_like in confusables.confusables_data.items():
        if len(char) != 1 or char.isascii() or unicodedata.name(char, "").startswith("LATIN"):
            continue
        for glyph in looks_like:
            ascii_char = glyph["c"]
            if len(ascii_char) == 1 and ascii_char.isascii() and ascii_char.isalnum():
                table[ord(char)] = ascii_char
                break
    return table


def module_source(table: dict[int, str]) -> str:
    """kit/secrets/homoglyphs.py for `table`: its docstring and function kept, PAIRS anew."""
    lines, line = [], ""
    for code, letter in sorted(table.items()):
        piece = (f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}") + letter
        if len(line) + len(piece) > 88:
            lines.append(line)
            line = ""
        line += piece
    lines.append(line)
    text = MODULE.read_text(encoding="utf-8")
    head, rest = text.split("PAIRS = (\n", 1)
    tail = rest.split("\n)\n", 1)[1]
    body = "\n".join(f'    "{piece}"' for piece in lines)
    return f"{head}PAIRS = (\n{body}\n)\n{tail}"


def test_the_kept_table_is_unicodes() -> None:
    assert homoglyphs() == from_unicode()


def test_the_module_is_as_generated() -> None:
    assert MODULE.read_text(encoding="utf-8") == module_source(from_unicode())


def test_normalising_text_does_not_load_the_confusables_package() -> None:
    probe = (
        "import sys\nfrom kit.secrets.normalise import normalise\n"
        "assert normalise('the pаssword is hunter2')\n"
        "print('confusable_homoglyphs' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.strip() == "False"


if __name__ == "__main__":
    sys.stdout.write(module_source(from_unicode()))
