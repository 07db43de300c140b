"""Words for counts in what Kit prints (CLI, TUI, Telegram): "1 fact", "2 facts", "1,024 lines"."""

from __future__ import annotations


def plural(count: int, one: str, many: str | None = None) -> str:
    """`count` (with thousands separators) and the word that goes with it: `many` (default:
    `one` + "s") unless it is 1."""
    return f"{count:,} {one if count == 1 else many or one + 's'}"
