"""The daily token budget for background model work.

Background work is everything the small model does without the owner waiting on a reply:
curation passes, window summaries, daily summaries, REM condense and review (every purpose but
`chat` and the model `filter` inside a turn, see kit/llm/usage.py). It shares two caps per
local day (`schedule.timezone`):

- `budget.daily_tokens`: all users together. It bounds the owner's bill.
- `budget.user_daily_tokens` (0 = off): per memory namespace, so one busy Telegram user
  cannot spend the day's budget and starve everyone else's curation.

Before each background call, `admit` estimates its cost from the request's size plus its
`max_tokens` (tokens of calls still in flight are reserved too), so the last call of the day
cannot overshoot by much. Curation passes may use only `CURATION_SHARE` (3/4) of each cap, so
the daily summaries and REM still run while a big import is being curated.

A call that does not fit in what is left raises `BudgetSpent`, a kind of `LLMUnavailable`:
callers stop cleanly, leave the work pending (no failed attempt is counted) and it goes on
after local midnight; smaller calls that still fit go on. The first refusal of a day is
logged, and every refusal is counted in `budget_pauses`, which `kit status` and `kit doctor`
read. A call larger than its whole cap could never run: it fails with `TooLargeForBudget` and
is counted as a failed attempt of its work, so it is held, not retried daily. Chat turns are
never refused.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import date, datetime, timedelta, tzinfo

from kit.clock import Clock, day_bounds, from_iso, local_date, to_iso
from kit.config import BudgetSettings
from kit.errors import BudgetSpent, TooLargeForBudget
from kit.llm.base import LLMRequest
from kit.llm.tokens import estimate_request
from kit.llm.usage import UsageLog, is_background
from kit.store.db import Database

log = logging.getLogger(__name__)

ALL_USERS = "*"  # the scope of the global cap in `budget_pauses`
# Curation may use this much of a cap; the rest is kept for the daily summaries, REM and window
# folds, so a big import's backlog cannot starve them for days.
CURATION_SHARE = 0.75


@dataclass(frozen=True)
class Pause:
    """A day background work stopped because a cap was reached."""

    day: date
    scope: str  # ALL_USERS or a user namespace
    paused_at: datetime
    refused: int  # calls refused that day
    spent: int  # tokens spent when the first call did not fit
    budget: int  # the cap then


@dataclass(frozen=True)
class BudgetState:
    """Today's background spending, for `kit status` and the TUI."""

    day: date
    spent: int  # background tokens today, all users
    daily_tokens: int
    user_id: str
    user_spent: int  # ... of `user_id`
    user_daily_tokens: int  # 0: no per-user cap
    paused_at: datetime | None  # when a call of this user first did not fit today, if one did
    resumes_at: datetime  # the next local midnight

    @property
    def paused(self) -> bool:
        return self.paused_at is not None


class Budget:
    def __init__(
        self, db: Database, usage: UsageLog, settings: BudgetSettings, clock: Clock, tz: tzinfo
    ) -> None:
        self._db = db
        self._usage = usage
        self._settings = settings
        self._clock = clock
        self._tz = tz
        self._lock = asyncio.Lock()  # check-and-reserve is one step
        self._reserved: dict[int, tuple[str | None, int]] = {}  # calls in flight
        self._ids = itertools.count()

    @asynccontextmanager
    async def admit(self, request: LLMRequest) -> AsyncIterator[None]:
        """Hold the call's estimated cost while it runs, or raise `BudgetSpent`. Foreground
        calls (chat) pass untouched. Record the call's usage before leaving the block."""
        if not is_background(request.purpose):
            yield
            return
        estimate = estimate_request(request)
        async with self._lock:
            await self._check(request.purpose, request.user_id, estimate)
            ticket = next(self._ids)
            self._reserved[ticket] = (request.user_id, estimate)
        try:
            yield
        finally:
            del self._reserved[ticket]

    async def _check(self, purpose: str, user_id: str | None, estimate: int) -> None:
        now = self._clock.now()
        midnight, resumes_at = day_bounds(local_date(now, self._tz), self._tz)
        share = CURATION_SHARE if purpose.startswith("curate:") else 1.0
        caps: list[tuple[str | None, str, int]] = [
            (None, "budget.daily_tokens", self._settings.daily_tokens)
        ]
        if self._settings.user_daily_tokens and user_id is not None:
            caps.append((user_id, "budget.user_daily_tokens", self._settings.user_daily_tokens))
        for who, key, cap in caps:
            limit = int(cap * share)
            if estimate > limit:
                raise TooLargeForBudget(
                    f"a {purpose} call needs about {estimate:,} tokens, more than the daily "
                    f"budget allows it ({limit:,} of {key} = {cap:,}); raise {key} in config.toml"
                )
            spent = await self._usage.background_tokens_since(midnight, who)
            spent += sum(t for u, t in self._reserved.values() if who is None or u == who)
            if spent + estimate <= limit:
                continue
            await self._refuse(who or ALL_USERS, spent, cap, now)
            whose = "background work" if who is None else f"{who!r}'s background work"
            kept = (
                f"; curation may use {share:.0%} of it, the rest is kept for summaries and REM"
                if share < 1
                else ""
            )
            raise BudgetSpent(
                f"today's token budget for {whose} is spent ({spent:,} of {cap:,} tokens, "
                f"{key}{kept}): this work waits for midnight and then goes on by itself. "
                f"To go on sooner, raise {key} in config.toml",
                user_id=who,
                resumes_at=resumes_at,
            )

    async def _refuse(self, scope: str, spent: int, limit: int, now: datetime) -> None:
        """Record the refusal; the first one of the day is also logged."""
        day = local_date(now, self._tz).isoformat()
        async with self._db.transaction() as tx:
            changed = await tx.execute_rowcount(
                "UPDATE budget_pauses SET refused = refused + 1, last_refused_at = ?"
                " WHERE day = ? AND scope = ? AND budget >= ?",
                (to_iso(now), day, scope, limit),
            )
            if changed:
                return
            # New today, or the cap was raised since the last pause: a new pause.
            await tx.execute(
                "INSERT INTO budget_pauses (day, scope, paused_at, last_refused_at,"
                " refused, spent, budget) VALUES (?, ?, ?, ?, 1, ?, ?)"
                " ON CONFLICT (day, scope) DO UPDATE SET paused_at = excluded.paused_at,"
                " last_refused_at = excluded.last_refused_at, refused = 1,"
                " spent = excluded.spent, budget = excluded.budget",
                (day, scope, to_iso(now), to_iso(now), spent, limit),
            )
        who = "all users" if scope == ALL_USERS else repr(scope)
        log.warning(
            "today's background budget for %s is spent (%s of %s tokens): work that does not"
            " fit waits for midnight",
            who,
            f"{spent:,}",
            f"{limit:,}",
        )

    async def state(self, user_id: str) -> BudgetState:
        now = self._clock.now()
        today = local_date(now, self._tz)
        midnight, resumes_at = day_bounds(today, self._tz)
        paused = [
            p
            for p in await self.pauses(today, today)
            if p.scope in (ALL_USERS, user_id) and p.budget >= self._limit(p.scope)
        ]
        return BudgetState(
            day=today,
            spent=await self._usage.background_tokens_since(midnight),
            daily_tokens=self._settings.daily_tokens,
            user_id=user_id,
            user_spent=await self._usage.background_tokens_since(midnight, user_id),
            user_daily_tokens=self._settings.user_daily_tokens,
            paused_at=min((p.paused_at for p in paused), default=None),
            resumes_at=resumes_at,
        )

    def _limit(self, scope: str) -> int:
        if scope == ALL_USERS:
            return self._settings.daily_tokens
        return self._settings.user_daily_tokens or self._settings.daily_tokens

    async def pauses(self, first: date, last: date) -> list[Pause]:
        """Pauses recorded from `first` to `last` (local days), oldest first."""
        rows = await self._db.fetchall(
            "SELECT day, scope, paused_at, refused, spent, budget FROM budget_pauses"
            " WHERE day >= ? AND day <= ? ORDER BY day, scope",
            (first.isoformat(), last.isoformat()),
        )
        return [
            Pause(date.fromisoformat(r[0]), r[1], from_iso(r[2]), int(r[3]), int(r[4]), int(r[5]))
            for r in rows
        ]

    async def recent_pauses(self, days: int = 7) -> list[Pause]:
        today = local_date(self._clock.now(), self._tz)
        return await self.pauses(today - timedelta(days=days - 1), today)
