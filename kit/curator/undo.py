"""Undoing a pass: every fact it touched goes back to its before-snapshot, every fact it
inserted is deactivated, all in one transaction recorded as an `undo` pass with history rows.

Undo refuses (saying which) when a later change touched the same facts: putting the old
snapshot back would silently throw that later change away. Undo those first, newest first.
"""

from __future__ import annotations

import json
from typing import Any

from kit.curator.records import PassLog, PassRecord
from kit.curator.reports import UndoResult
from kit.errors import InputError
from kit.memory.db import Database, Transaction
from kit.memory.facts import Facts, Provenance


class PassUndo:
    def __init__(self, db: Database, facts: Facts, passes: PassLog) -> None:
        self._db = db
        self._facts = facts
        self._passes = passes

    async def undo(self, user_id: str, pass_id: int) -> UndoResult:
        record = await self._passes.get(user_id, pass_id)
        await self._check_undoable(user_id, record)
        async with self._db.transaction() as tx:
            # Read inside the transaction: nothing can change the facts between check and write.
            befores, last_row = await self._befores(tx, user_id, pass_id)
            await self._refuse_later_changes(tx, user_id, pass_id, befores, last_row)
            undo_id = await self._passes.add(
                tx,
                user_id=user_id,
                kind="undo",
                category=record.category,
                status="applied",
                reason=f"undoes pass {pass_id}",
                detail={"undoes": pass_id, "fact_ids": sorted(befores)},
            )
            provenance = Provenance(
                actor="owner", reason=f"undo of pass {pass_id}", pass_id=undo_id
            )
            writer = self._facts.writer(tx, user_id)
            restored: list[int] = []
            deactivated: list[int] = []
            for fact_id, before in sorted(befores.items()):
                if before is None:  # the pass created it
                    await writer.deactivate(fact_id, provenance=provenance, operation="undo")
                    deactivated.append(fact_id)
                else:
                    await writer.restore(fact_id, before, provenance)
                    restored.append(fact_id)
            await self._passes.set_status(tx, pass_id, "undone")
        return UndoResult(pass_id, tuple(restored), tuple(deactivated))

    async def _check_undoable(self, user_id: str, record: PassRecord) -> None:
        if record.kind == "undo":
            raise InputError(
                f"pass {record.id} is itself an undo (of pass {record.detail.get('undoes')}); "
                "an undo cannot be undone"
            )
        if record.status == "undone":
            by = await self._passes.undo_of(user_id, record.id)
            raise InputError(f"pass {record.id} was already undone (by pass {by}); nothing to do")
        if record.status != "applied":
            raise InputError(
                f"pass {record.id} was {record.status}: nothing of it was applied, so there is "
                "nothing to undo"
            )

    @staticmethod
    async def _befores(
        tx: Transaction, user_id: str, pass_id: int
    ) -> tuple[dict[int, dict[str, Any] | None], int]:
        """Each touched fact's state before the pass (None: the pass inserted it), and the id
        of the pass's last history row."""
        rows = await tx.fetchall(
            "SELECT id, fact_id, before_json FROM fact_history"
            " WHERE user_id = ? AND pass_id = ? ORDER BY id",
            (user_id, pass_id),
        )
        befores: dict[int, dict[str, Any] | None] = {}
        for _, fact_id, before_json in rows:
            if fact_id not in befores:  # the first change of the pass holds the earlier state
                befores[fact_id] = None if before_json is None else json.loads(before_json)
        return befores, max((r[0] for r in rows), default=0)

    @staticmethod
    async def _refuse_later_changes(
        tx: Transaction,
        user_id: str,
        pass_id: int,
        befores: dict[int, dict[str, Any] | None],
        last_row: int,
    ) -> None:
        if not befores:
            return
        marks = ",".join("?" * len(befores))
        # A later pass that was itself undone, and its undo, cancel out: they do not block.
        rows = await tx.fetchall(
            "SELECT h.fact_id, h.pass_id, h.actor, h.operation, h.at FROM fact_history h"
            " LEFT JOIN passes p ON p.id = h.pass_id"
            f" WHERE h.user_id = ? AND h.id > ? AND h.fact_id IN ({marks})"
            " AND (h.pass_id IS NULL OR (p.status != 'undone' AND p.kind != 'undo'))"
            " ORDER BY h.id",
            (user_id, last_row, *befores),
        )
        if not rows:
            return
        later: dict[int, str] = {}
        for fact_id, later_pass, actor, operation, at in rows:
            if fact_id not in later:
                by = f"pass {later_pass}" if later_pass is not None else f"{actor} ({operation})"
                later[fact_id] = f"#{fact_id} by {by} at {at[:16].replace('T', ' ')}"
        passes = sorted({r[1] for r in rows if r[1] is not None}, reverse=True)
        hint = (
            f"undo pass {', then '.join(str(p) for p in passes)} first"
            if passes
            else "change those facts back by hand if you still want this undo"
        )
        raise InputError(
            f"cannot undo pass {pass_id}: later changes touched the same facts "
            f"({'; '.join(later.values())}); {hint}"
        )
