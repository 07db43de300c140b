"""The mass-deletion guard: a pass that would take out too much of a category is thrown out.

Deactivations count directly (DEACTIVATE) and through merges (each fact a REPLACE folds away).
Exactly the limit is allowed; one more is not. An empty category has nothing to lose.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kit.curator.ops import Operation, deactivated_ids


@dataclass(frozen=True)
class GuardVerdict:
    allowed: bool
    deactivating: int
    active: int
    max_fraction: float

    @property
    def reason(self) -> str:
        if self.allowed:
            return ""
        return (
            f"the pass would deactivate {self.deactivating} of {self.active} active facts "
            f"({self.deactivating / max(self.active, 1):.0%}), more than the "
            f"{self.max_fraction:.0%} allowed by curation.max_deactivate_fraction"
        )


def check(ops: Sequence[Operation], active: int, max_fraction: float) -> GuardVerdict:
    """Allow the pass only if it deactivates at most `max_fraction` of `active` facts."""
    doomed = {fact_id for op in ops for fact_id in deactivated_ids(op)}
    # A hair of tolerance: 0.5 of 4 must allow exactly 2 whatever the float rounding.
    allowed = len(doomed) <= active * max_fraction + 1e-9
    return GuardVerdict(allowed, len(doomed), active, max_fraction)
