"""A token bucket per access token: at most `per_minute` calls a minute, in bursts of as many.

Kept in the memory of the process that checks the tokens (the daemon, or a standalone `kit
mcp --http`): a restart gives every token a full bucket, and on a PostgreSQL store shared by
several workers each worker counts its own calls.
"""

from __future__ import annotations

from datetime import datetime


class RateLimit:
    def __init__(self, per_minute: int) -> None:
        if per_minute < 1:
            raise ValueError("a rate limit allows at least one call a minute")
        self.per_minute = per_minute
        self._buckets: dict[int, tuple[float, datetime]] = {}  # token id -> (calls left, when)

    def take(self, key: int, now: datetime) -> float:
        """Spend one call of `key`'s bucket: 0.0 when it had one, else the seconds until it
        will have one again (nothing is spent)."""
        rate = self.per_minute / 60.0  # calls a second
        left, then = self._buckets.get(key, (float(self.per_minute), now))
        elapsed = max(0.0, (now - then).total_seconds())
        left = min(float(self.per_minute), left + elapsed * rate)
        if left < 1.0:
            self._buckets[key] = (left, now)
            return (1.0 - left) / rate
        self._buckets[key] = (left - 1.0, now)
        return 0.0

    def forget(self, key: int) -> None:
        self._buckets.pop(key, None)
