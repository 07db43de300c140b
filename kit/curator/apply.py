"""Applying a pass: check the operations against the database, screen them, run the guard,
and write every change with its history row, all inside one transaction.

Each change's history row names the messages it was learned from: the operation's own cited
`sources`, which must all be messages of the batch (else the pass is rejected); a REPLACE's
new fact also inherits the sources of the facts it merges.

A rejected pass writes only its pass record (with the reason); an applied one writes the
record, the fact changes and their history together. An exception anywhere rolls back all of it.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

from kit.clock import Clock
from kit.config import CurationSettings
from kit.curator import guard
from kit.curator.ops import (
    Deactivate,
    Insert,
    Operation,
    Replace,
    Update,
    describe,
    op_json,
    op_name,
    touched_ids,
)
from kit.curator.records import PassLog
from kit.curator.reports import PassOutcome
from kit.curator.screen import screen_op
from kit.errors import NotFound
from kit.memory.db import Transaction
from kit.memory.facts import Fact, Facts, FactWriter, Provenance

log = logging.getLogger(__name__)


class Rejected(Exception):
    """The pass cannot be applied as a whole; `reason` says why (safe to log and show)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass
class _Applied:
    changes: list[str] = field(default_factory=list)
    inserted: list[int] = field(default_factory=list)
    changed: list[int] = field(default_factory=list)


class Applier:
    def __init__(
        self,
        facts: Facts,
        passes: PassLog,
        settings: CurationSettings,
        *,
        stale_days: int,
        clock: Clock,
    ) -> None:
        self._facts = facts
        self._passes = passes
        self._settings = settings
        self._soon = timedelta(days=stale_days)  # an expiry sooner than this retires a fact
        self._clock = clock

    async def apply_in(
        self,
        tx: Transaction,
        user_id: str,
        category: str,
        ops: Sequence[Operation],
        *,
        kind: str,
        actor: str,
        source_message_ids: Sequence[int],
        started_at: datetime | None = None,
        detail: dict[str, Any] | None = None,
        shown: Collection[int] | None = None,
    ) -> PassOutcome:
        """Apply `ops` to one category inside `tx`, or record why not. Never half-applies:
        a rejection writes nothing but the pass record, and errors propagate (rolling back).
        `source_message_ids` is the batch: the messages the operations may cite; `shown`, when
        the model saw only part of the category, the facts the operations may name."""
        writer = self._facts.writer(tx, user_id)
        sources = tuple(source_message_ids)
        unfit = [screen_op(op) for op in ops]
        record: dict[str, Any] = {
            **(detail or {}),
            # A screened operation is recorded without its text: it may hold a secret.
            "operations": [
                op_json(op) if why is None else {"op": op_name(op), "withheld": why}
                for op, why in zip(ops, unfit, strict=True)
            ],
            "source_message_ids": list(sources),
        }
        base = PassOutcome(None, kind, category, "rejected", source_message_ids=sources)
        try:
            active = await writer.active_in(category)
            facts = await self._check_ids(writer, category, ops)
            _check_shown(ops, shown)
            _check_sources(ops, sources)
            kept, dropped = self._screen(ops, unfit)
            verdict = guard.check(
                kept,
                active,
                self._settings.max_deactivate_fraction,
                horizon=self._clock.now() + self._soon,
            )
            if not verdict.allowed:
                raise Rejected(verdict.reason)
        except Rejected as exc:
            log.info("%s pass on %s rejected: %s", kind, category, exc.reason)  # in its outcome
            pass_id = await self._passes.add(
                tx,
                user_id=user_id,
                kind=kind,
                category=category,
                status="rejected",
                started_at=started_at,
                reason=exc.reason,
                detail=record,
            )
            return _with(base, pass_id=pass_id, reason=exc.reason)

        record["dropped"] = dropped
        status = "applied" if kept else "noop"
        quiet = "every operation was dropped" if dropped else "nothing to change"
        pass_id = await self._passes.add(
            tx,
            user_id=user_id,
            kind=kind,
            category=category,
            status=status,
            started_at=started_at,
            reason="" if kept else quiet,
            detail=record,
        )
        done = _Applied()
        for op in kept:
            provenance = Provenance(
                actor=actor, reason=op_reason(op), pass_id=pass_id, source_message_ids=op.sources
            )
            await self._apply_one(writer, category, op, provenance, facts, done)
        return _with(
            base,
            pass_id=pass_id,
            status=status,
            reason="" if kept else quiet,
            changes=tuple(done.changes),
            dropped=tuple(dropped),
            inserted_fact_ids=tuple(done.inserted),
            changed_fact_ids=tuple(done.changed),
        )

    async def _check_ids(
        self, writer: FactWriter, category: str, ops: Sequence[Operation]
    ) -> dict[int, Fact]:
        """Every fact an operation names exists, is active, belongs to this category and is not
        the owner's (pinned, or written by the owner: `Fact.owner_held`): an operation on one
        (a merge included) rejects the pass, so an owner's edit always wins."""
        found: dict[int, Fact] = {}
        for n, op in enumerate(ops, 1):
            for fact_id in touched_ids(op):
                where = f"operation {n} ({op_name(op)})"
                try:
                    fact = await writer.get(fact_id)
                except NotFound:
                    raise Rejected(f"{where}: unknown fact id #{fact_id}") from None
                if fact.category != category:
                    raise Rejected(
                        f"{where}: fact #{fact_id} is in '{fact.category}', not '{category}'"
                    )
                if not fact.active:
                    raise Rejected(f"{where}: fact #{fact_id} is no longer active")
                if fact.pinned:
                    raise Rejected(
                        f"{where}: fact #{fact_id} is pinned by the owner; the curator and REM "
                        "never change a pinned fact"
                    )
                if fact.owner_written:
                    raise Rejected(
                        f"{where}: fact #{fact_id} was written by the owner; the curator and "
                        "REM never change the owner's own facts"
                    )
                found[fact_id] = fact
        return found

    @staticmethod
    def _screen(
        ops: Sequence[Operation], unfit: Sequence[str | None]
    ) -> tuple[list[Operation], list[str]]:
        """Drop single operations that must not land (secrets, self-reference); the rest of
        the pass goes on. Reasons never quote the dropped text."""
        kept: list[Operation] = []
        dropped: list[str] = []
        for n, (op, why) in enumerate(zip(ops, unfit, strict=True), 1):
            if why is None:
                kept.append(op)
            else:
                dropped.append(f"operation {n} ({op_name(op)}) dropped: {why}")
        return kept, dropped

    @staticmethod
    async def _apply_one(
        writer: FactWriter,
        category: str,
        op: Operation,
        provenance: Provenance,
        facts: dict[int, Fact],
        done: _Applied,
    ) -> None:
        if isinstance(op, Insert):
            fact = await writer.insert(
                category=category,
                content=op.content,
                subject=op.subject,
                confidence=op.confidence,
                expires_at=op.expires_at,
                provenance=provenance,
            )
            done.inserted.append(fact.id)
            done.changes.append(f"#{fact.id} {describe(op)}")
        elif isinstance(op, Update):
            await writer.update(
                op.fact_id,
                provenance=provenance,
                content=op.content,
                subject=op.subject,
                confidence=op.confidence,
                expires_at=op.expires_at,
                clear_expiry=op.clear_expiry,
            )
            done.changed.append(op.fact_id)
            done.changes.append(describe(op))
        elif isinstance(op, Replace):
            inherited = await writer.sources(op.fact_ids)
            merged = await writer.insert(
                category=category,
                content=op.content,
                subject=guard.merged_subject(op, facts),
                confidence=op.confidence,
                expires_at=op.expires_at,
                provenance=replace(
                    provenance, source_message_ids=tuple(sorted({*inherited, *op.sources}))
                ),
            )
            # Retiring the old facts learns nothing from the messages: the new fact holds them.
            folded = replace(
                provenance,
                reason=f"merged into #{merged.id}" + _colon(op.reason),
                source_message_ids=(),
            )
            for old in op.fact_ids:
                await writer.deactivate(
                    old, provenance=folded, replaced_by=merged.id, operation="replace"
                )
            done.inserted.append(merged.id)
            done.changed.extend(op.fact_ids)
            done.changes.append(f"#{merged.id} {describe(op)}")
        else:
            assert isinstance(op, Deactivate)
            await writer.deactivate(op.fact_id, provenance=provenance)
            done.changed.append(op.fact_id)
            done.changes.append(describe(op))


def _check_shown(ops: Sequence[Operation], shown: Collection[int] | None) -> None:
    """Every fact named was shown to the model: it cannot know what an unshown fact says, so
    changing or merging one would be a guess."""
    if shown is None:
        return
    for n, op in enumerate(ops, 1):
        unseen = [i for i in touched_ids(op) if i not in shown]
        if unseen:
            raise Rejected(
                f"operation {n} ({op_name(op)}): fact #{unseen[0]} was not among the facts "
                "shown to this pass"
            )


def _check_sources(ops: Sequence[Operation], batch: Sequence[int]) -> None:
    """Every cited message is one of the batch's messages facts may come from."""
    allowed = set(batch)
    for n, op in enumerate(ops, 1):
        stray = [i for i in op.sources if i not in allowed]
        if stray:
            raise Rejected(
                f"operation {n} ({op_name(op)}): cites message {stray[0]}, which is not one of "
                "the messages of this batch a fact may come from (Kit's own lines are not)"
            )


def op_reason(op: Operation) -> str:
    """The history row's reason: the model's own, or what the operation did."""
    if isinstance(op, Replace):
        merged = ", ".join(f"#{i}" for i in op.fact_ids)
        return f"merges {merged}" + _colon(op.reason)
    return op.reason


def _colon(reason: str) -> str:
    return f": {reason}" if reason else ""


def _with(outcome: PassOutcome, **changes: Any) -> PassOutcome:
    return replace(outcome, **changes)
