"""Words for counts in what Kit prints (CLI, TUI, Telegram): "1 fact", "2 facts", "1,024 lines";
and text cut to one line of a given length."""

from __future__ import annotations


def plural(count: int, one: str, many: str | None = None) -> str:
    """`count` (with thousands separators) and the word that goes with it: `many` (default:
    `one` + "s") unless it is 1."""
    return f"{count:,} {one if count == 1 else many or one + 's'}"


def clip(text: str, limit: int) -> str:
    """`text` as one line (runs of whitespace, line breaks too, made one space), cut to `limit`
    characters with "…" when longer."""
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1].rstrip() + "…"
