"""Failed attempts at background model work, so no item is re-processed in a loop.

An item is one unit the small model works on unattended: a day to summarise or condense, a
category of stale facts to review, a conversation's window to fold. Each failed attempt (an
unusable answer, a crash) is counted; an unattended run leaves the item alone for
`retry_delay(attempts)` (10 min, 40 min, 160 min...), and after `MAX_ATTEMPTS` the item is
held: unattended runs skip it and `kit doctor` reports it. A run the owner starts (`kit
summarize`, `kit rem`) tries held items once more; a success clears the count. Window folds
are released by themselves the next day (`RetryPolicy.release_after`), because a window that
never folds makes every chat turn bigger.

Curation batches keep their own count and parking (kit/curator/progress.py), with the same
`retry_delay`. Reasons are stored without quoting model text (see `safe_reason`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from kit.clock import Clock, from_iso, to_iso
from kit.store.db import Database

MAX_ATTEMPTS = 3
RETRY_BASE = timedelta(minutes=10)

DAILY_SUMMARY = "daily_summary"
REM_CONDENSE = "rem_condense"
REM_REVIEW = "rem_review"
WINDOW_SUMMARY = "window_summary"


def retry_delay(attempts: int) -> timedelta:
    """How long unattended runs leave an item alone after its n-th failure: 10 min, 40 min,
    160 min... so a model that keeps answering badly is not asked every few minutes."""
    return RETRY_BASE * 4 ** (attempts - 1) if attempts > 0 else timedelta(0)


@dataclass(frozen=True)
class RetryPolicy:
    max_attempts: int = MAX_ATTEMPTS
    release_after: timedelta | None = None  # None: held until a run the owner starts


POLICIES = {
    DAILY_SUMMARY: RetryPolicy(),
    REM_CONDENSE: RetryPolicy(),
    REM_REVIEW: RetryPolicy(),
    WINDOW_SUMMARY: RetryPolicy(release_after=timedelta(days=1)),
}


@dataclass(frozen=True)
class Attempt:
    kind: str
    user_id: str
    item: str
    attempts: int
    last_error: str
    last_at: datetime
    held_at: datetime | None

    @property
    def held(self) -> bool:
        return self.held_at is not None


_QUOTE = re.compile(r"""\s*[('"`].*""", re.DOTALL)


def safe_reason(text: str) -> str:
    """A failure reason fit to store: our messages put what the model said in parentheses or
    quotes, and that part (it may hold a secret) is cut off."""
    return _QUOTE.sub("", text)[:200].strip() or "unusable answer"


def _attempt(row: Sequence[Any]) -> Attempt:
    return Attempt(
        kind=row[0],
        user_id=row[1],
        item=row[2],
        attempts=int(row[3]),
        last_error=row[4],
        last_at=from_iso(row[5]),
        held_at=None if row[6] is None else from_iso(row[6]),
    )


_COLUMNS = "kind, user_id, item, attempts, last_error, last_at, held_at"


def _holding(attempt: Attempt, now: datetime) -> bool:
    """Held and not yet released by its policy."""
    if attempt.held_at is None:
        return False
    release = POLICIES[attempt.kind].release_after
    return release is None or now < attempt.held_at + release


class Attempts:
    def __init__(self, db: Database, clock: Clock) -> None:
        self._db = db
        self._clock = clock

    async def blocked(self, kind: str, user_id: str) -> set[str]:
        """The items of `kind` an unattended run must leave alone now: held, or failed less
        than `retry_delay` ago."""
        now = self._clock.now()
        return {
            a.item
            for a in await self._rows(kind=kind, user_id=user_id)
            if _holding(a, now) or (a.held_at is None and now < a.last_at + retry_delay(a.attempts))
        }

    async def failed(self, kind: str, user_id: str, item: str, reason: str) -> Attempt:
        """Count a failed attempt; the item is held once it reaches the policy's maximum.
        An item its policy released starts counting again."""
        now = self._clock.now()
        (before,) = await self._rows(kind=kind, user_id=user_id, item=item) or (None,)
        attempts = 1
        if before is not None and (before.held_at is None or _holding(before, now)):
            attempts = before.attempts + 1
        held_at = now if attempts >= POLICIES[kind].max_attempts else None
        attempt = Attempt(kind, user_id, item, attempts, safe_reason(reason), now, held_at)
        async with self._db.transaction() as tx:
            await tx.execute(
                "INSERT INTO work_attempts (kind, user_id, item, attempts, last_error, last_at,"
                " held_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (kind, user_id, item) DO"
                " UPDATE SET attempts = excluded.attempts, last_error = excluded.last_error,"
                " last_at = excluded.last_at, held_at = excluded.held_at",
                (kind, user_id, item, attempts, attempt.last_error, to_iso(now),
                 None if held_at is None else to_iso(held_at)),
            )  # fmt: skip
        return attempt

    async def succeeded(self, kind: str, user_id: str, items: Sequence[str]) -> None:
        if not items:
            return
        async with self._db.transaction() as tx:
            await tx.executemany(
                "DELETE FROM work_attempts WHERE kind = ? AND user_id = ? AND item = ?",
                [(kind, user_id, item) for item in items],
            )

    async def held(self, user_id: str | None = None) -> list[Attempt]:
        """Items unattended runs have given up on (until released): every user's, or one's."""
        now = self._clock.now()
        return [a for a in await self._rows(user_id=user_id) if _holding(a, now)]

    async def _rows(
        self, *, kind: str | None = None, user_id: str | None = None, item: str | None = None
    ) -> list[Attempt]:
        rows = await self._db.fetchall(
            f"SELECT {_COLUMNS} FROM work_attempts WHERE (CAST(? AS TEXT) IS NULL OR kind = ?)"
            " AND (CAST(? AS TEXT) IS NULL OR user_id = ?)"
            " AND (CAST(? AS TEXT) IS NULL OR item = ?)"
            " ORDER BY user_id, kind, item",
            (kind, kind, user_id, user_id, item, item),
        )
        return [_attempt(r) for r in rows]
