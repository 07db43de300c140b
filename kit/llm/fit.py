"""Fitting background prompts into the model's window (`llm.background.context_tokens`).

A request holds its input and its answer together: what is left for the material (a
transcript, a day, facts) is the window, less a safety margin (Kit counts ~4 characters a
token; a small model's tokenizer may need more), less the answer's `max_tokens`, less the
prompt's fixed text. Material that does not fit is split into parts, never cut silently: the
callers (curation batches, daily summaries, REM) say in their records that they split it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kit.llm.tokens import estimate_tokens
from kit.model_settings import ModelRole

SAFETY = 0.9  # of the window that Kit fills by its own estimate
MIN_ROOM = 200  # tokens of material below which a prompt cannot do its work at all


@dataclass(frozen=True)
class Room:
    """What a request of a role has left for its material."""

    context_tokens: int
    tokens: int  # for the material, after the fixed text and the answer
    fits: bool  # False: the fixed text and the answer alone fill the window (MIN_ROOM is used)

    def note(self, parts: int, what: str) -> str:
        """How the record says it split (empty when it did not)."""
        if parts <= 1:
            return ""
        return (
            f"{what} in {parts} parts to fit llm.background.context_tokens = "
            f"{self.context_tokens:,}"
        )


def room(role: ModelRole, output_tokens: int, *fixed: str) -> Room:
    """The tokens left for material in a request of `role` whose answer may take
    `output_tokens` and whose fixed text is `fixed`."""
    left = (
        int(role.context_tokens * SAFETY)
        - output_tokens
        - sum(estimate_tokens(text) for text in fixed)
    )
    return Room(role.context_tokens, max(MIN_ROOM, left), left >= MIN_ROOM)


def split_lines(lines: Sequence[str], tokens: int) -> list[list[str]]:
    """Consecutive runs of `lines`, each within `tokens` (one newline a line counted); a single
    line longer than that is cut to fit, marked with " [...]"."""
    parts: list[list[str]] = []
    current: list[str] = []
    used = 0
    for line in lines:
        cost = estimate_tokens(line) + 1
        if cost > tokens:
            line = line[: max(1, (tokens - 2) * 4)] + " [...]"
            cost = tokens
        if current and used + cost > tokens:
            parts.append(current)
            current, used = [], 0
        current.append(line)
        used += cost
    if current:
        parts.append(current)
    return parts
