"""How many times a local day Kit was allowed to offer a follow-up, per memory: the cap
(`followups.per_day`) holds across turns, restarts and workers because the count is taken in
one statement that only counts while under it."""

from __future__ import annotations

from datetime import date

from kit.store.db import Database


class FollowupOffers:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def take(self, user_id: str, day: date, per_day: int) -> bool:
        """Count one offer for `day` if fewer than `per_day` were made; whether it was."""
        if per_day < 1:
            return False
        async with self._db.transaction() as tx:
            counted = await tx.execute_rowcount(
                "INSERT INTO followup_offers (user_id, day, offers) VALUES (?, ?, 1)"
                " ON CONFLICT (user_id, day) DO UPDATE"
                " SET offers = followup_offers.offers + 1 WHERE followup_offers.offers < ?",
                (user_id, day.isoformat(), per_day),
            )
        return counted == 1

    async def count(self, user_id: str, day: date) -> int:
        value = await self._db.scalar(
            "SELECT offers FROM followup_offers WHERE user_id = ? AND day = ?",
            (user_id, day.isoformat()),
        )
        return 0 if value is None else int(value)
