"""Token usage per model call, for cost accounting, `status` and the background budget."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from kit.clock import Clock, to_iso
from kit.llm.base import Usage
from kit.store.db import Database

# Calls someone waits on (a turn, the model filter inside it, `kit eval qa`'s answers and
# grades); every other purpose is background work (kit/llm/budget.py).
FOREGROUND_PURPOSES = ("chat", "filter", "eval_answer", "eval_judge")


def is_background(purpose: str) -> bool:
    return purpose not in FOREGROUND_PURPOSES


@dataclass(frozen=True)
class UsageTotals:
    calls: int
    input_tokens: int
    output_tokens: int
    cache_read_tokens: int
    cache_write_tokens: int


class UsageLog:
    def __init__(self, db: Database, clock: Clock) -> None:
        self._db = db
        self._clock = clock

    async def record(self, *, model: str, purpose: str, usage: Usage, user_id: str | None) -> None:
        async with self._db.transaction() as tx:
            await tx.execute(
                "INSERT INTO llm_usage (at, user_id, model, purpose, input_tokens, output_tokens,"
                " cache_read_tokens, cache_write_tokens) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    to_iso(self._clock.now()),
                    user_id,
                    model,
                    purpose,
                    usage.input_tokens,
                    usage.output_tokens,
                    usage.cache_read_tokens,
                    usage.cache_write_tokens,
                ),
            )

    async def totals_since(self, since: datetime, purpose_prefix: str = "") -> UsageTotals:
        row = await self._db.fetchone(
            "SELECT COUNT(*), COALESCE(SUM(input_tokens),0), COALESCE(SUM(output_tokens),0),"
            " COALESCE(SUM(cache_read_tokens),0), COALESCE(SUM(cache_write_tokens),0)"
            " FROM llm_usage WHERE at >= ? AND purpose LIKE ?",
            (to_iso(since), purpose_prefix + "%"),
        )
        assert row is not None
        return UsageTotals(*(int(v) for v in row))

    async def background_tokens_since(self, since: datetime, user_id: str | None = None) -> int:
        """Every token background calls read or wrote since `since` (cached ones included),
        for all users or one."""
        marks = ",".join("?" * len(FOREGROUND_PURPOSES))
        value = await self._db.scalar(
            "SELECT COALESCE(SUM(input_tokens + output_tokens + cache_read_tokens"
            " + cache_write_tokens), 0) FROM llm_usage WHERE at >= ?"
            f" AND purpose NOT IN ({marks}) AND (CAST(? AS TEXT) IS NULL OR user_id = ?)",
            (to_iso(since), *FOREGROUND_PURPOSES, user_id, user_id),
        )
        return int(value or 0)
