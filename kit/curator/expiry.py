"""Retiring facts past their expiry (REM's expire step), under the same limit as a curation pass.

Facts past their expiry are deactivated with reason "expired" (kept, with history), category by
category. A category where that would retire more than `guard.limit` of its active facts is
*held*: nothing of it is deactivated (its expired facts stay out of the prompt all the same),
and the REM report names the facts and the passes that set their expiries, so the owner can
bring them back (`kit facts undo PASS`) or let them go (`kit facts expire CATEGORY`).
A pass that sets many expiries at once is stopped by the guard; this stops the slower route,
expiries set a few at a time that all fall due on the same night.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kit.clock import Clock
from kit.curator import guard
from kit.memory.fact_rows import Fact, check_category
from kit.memory.fact_writer import Provenance
from kit.memory.facts import Facts
from kit.store.db import Database

_SHOWN_IDS = 10  # fact ids named in one report line


@dataclass(frozen=True)
class HeldExpiry:
    """A category whose expired facts were not retired: too many at once."""

    category: str
    fact_ids: tuple[int, ...]
    active: int  # the category's active facts, the expired ones included
    allowed: int
    set_by_passes: tuple[int, ...]  # passes that set those expiries (undoable)

    def describe(self) -> str:
        ids = ", ".join(f"#{i}" for i in self.fact_ids[:_SHOWN_IDS])
        if len(self.fact_ids) > _SHOWN_IDS:
            ids += ", ..."
        line = (
            f"expire {self.category}: held {len(self.fact_ids)} of {self.active} facts past "
            f"their expiry ({ids}), more than the {self.allowed} one night may retire "
            "(curation.max_deactivate_fraction); they stay out of the prompt but active"
        )
        if self.set_by_passes:
            passes = ", ".join(str(p) for p in self.set_by_passes)
            line += (
                f"; their expiries came from pass {passes}: `kit facts undo PASS` brings them back"
            )
        return line + f"; `kit facts expire {self.category}` retires them"


@dataclass(frozen=True)
class ExpiryPlan:
    due: tuple[Fact, ...]  # to deactivate
    held: tuple[HeldExpiry, ...]


class Expiry:
    def __init__(self, db: Database, facts: Facts, max_fraction: float, clock: Clock) -> None:
        self._db = db
        self._facts = facts
        self._max_fraction = max_fraction
        self._clock = clock

    async def plan(self, user_id: str, *, release: str | None = None) -> ExpiryPlan:
        """What expiring would do now. `release`: a category whose held facts the owner lets
        go (only that category is planned then, whatever its share)."""
        now = self._clock.now()
        by_category: dict[str, list[Fact]] = {}
        for fact in await self._facts.listing(user_id, category=release):
            by_category.setdefault(fact.category, []).append(fact)
        due: list[Fact] = []
        held: list[HeldExpiry] = []
        for category, active in by_category.items():
            expired = [f for f in active if f.expires_at is not None and f.expires_at <= now]
            allowed = guard.limit(len(active), self._max_fraction)
            if len(expired) <= allowed or category == release:
                due += expired
            else:
                setters = await self._setters(user_id, expired)
                held.append(
                    HeldExpiry(
                        category, tuple(f.id for f in expired), len(active), allowed, setters
                    )
                )
        return ExpiryPlan(tuple(due), tuple(held))

    async def retire(
        self, user_id: str, facts: Sequence[Fact], provenance: Provenance | None = None
    ) -> None:
        """Deactivate `facts` in one transaction (one still active, inside it, only). Each
        held until its expiry, not until the night REM noticed."""
        provenance = provenance or Provenance(actor="rem", reason="expired")
        async with self._db.transaction() as tx:
            writer = self._facts.writer(tx, user_id)
            for fact in facts:
                current = await writer.get(fact.id)
                if current.active:
                    await writer.deactivate(fact.id, provenance=provenance, at=current.expires_at)

    async def release(self, user_id: str, category: str) -> list[int]:
        """`kit facts expire CATEGORY`: retire every fact of it past its expiry now, held or
        not. Returns their ids. Recorded as the owner's decision."""
        check_category(category)
        plan = await self.plan(user_id, release=category)
        await self.retire(user_id, plan.due, Provenance(actor="owner", reason="expired"))
        return [f.id for f in plan.due]

    async def _setters(self, user_id: str, facts: Sequence[Fact]) -> tuple[int, ...]:
        """The passes whose changes gave these facts their current expiry."""
        passes: set[int] = set()
        for fact in facts:
            for entry in reversed(await self._facts.history(user_id, fact.id)):
                before = entry.before or {}
                after = entry.after or {}
                if before.get("expires_at") != after.get("expires_at"):
                    if entry.pass_id is not None:
                        passes.add(entry.pass_id)
                    break
        return tuple(sorted(passes))
