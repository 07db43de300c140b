"""Undoing a pass: every fact it touched goes back to its before-snapshot (its interval of
validity too), every fact it inserted is retracted (deactivated, its interval emptied: it never
held), and the questions it set aside in the inbox that wait for an answer are withdrawn, all
in one transaction recorded as an `undo` pass with history rows.

"Exactly as before" holds even after REM acted on what the pass did. Later changes to the same
facts are judged one by one:
- REM's own (its review passes, its expire step) were made on top of what the pass did and
  have no owner behind them: they are rolled back with it, so the fact is exactly as it was
  before the pass (and the undo says so). Otherwise REM's nightly work would make a pass
  un-undoable for good;
- a later pass that was undone, with its undo, cancel out;
- an undo of an *earlier* pass that already put the fact back (rolling this pass's change back
  with REM's, above) means there is nothing left to undo on that fact: it is left alone;
- anything else (the owner's own change, `remember`, a later curation pass) makes undo
  refuse, naming it: putting the old snapshot back would silently throw that change away.
  Undo those passes first, newest first (the owner's changes are passes too: owner.py).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from kit.curator.questions import InboxStore
from kit.curator.records import PassLog, PassRecord
from kit.curator.reports import UndoResult
from kit.errors import InputError
from kit.memory.fact_times import SUPERSEDED
from kit.memory.fact_writer import Provenance
from kit.memory.facts import Facts
from kit.store.db import Database, Transaction

_AUTOMATIC = "rem"  # the actor whose later changes an undo takes back with the pass
KEPT = "keep"  # a history row recording that the owner kept a fact as it was (kit/inbox/)


@dataclass
class _Later:
    """How later history rows bear on undoing a pass."""

    blockers: dict[int, str] = field(default_factory=dict)  # fact id -> who changed it
    blocking_passes: set[int] = field(default_factory=set)
    rolled_back: set[int] = field(default_factory=set)  # facts REM changed since
    reverted: set[int] = field(default_factory=set)  # facts an earlier pass's undo put back


class PassUndo:
    def __init__(self, db: Database, facts: Facts, passes: PassLog, inbox: InboxStore) -> None:
        self._db = db
        self._facts = facts
        self._passes = passes
        self._inbox = inbox

    async def undo(self, user_id: str, pass_id: int) -> UndoResult:
        record = await self._passes.get(user_id, pass_id)
        await self._check_undoable(user_id, record)
        async with self._db.transaction() as tx:
            # Read inside the transaction: nothing can change the facts between check and write.
            befores, last_row, versions = await self._befores(tx, user_id, pass_id)
            later = await self._later_changes(tx, user_id, pass_id, befores, last_row)
            _refuse(pass_id, later)
            todo = {i: b for i, b in befores.items() if i not in later.reverted}
            undo_id = await self._passes.add(
                tx,
                user_id=user_id,
                kind="undo",
                category=record.category,
                status="applied",
                reason=f"undoes pass {pass_id}",
                detail={
                    "undoes": pass_id,
                    "fact_ids": sorted(todo),
                    "rem_changes_rolled_back": sorted(later.rolled_back),
                    "already_reverted": sorted(later.reverted),
                },
            )
            provenance = Provenance(
                actor="owner", reason=f"undo of pass {pass_id}", pass_id=undo_id
            )
            writer = self._facts.writer(tx, user_id)
            restored: list[int] = []
            deactivated: list[int] = []
            for fact_id, before in sorted(todo.items()):
                if before is None:  # the pass created it: it never held
                    fact = await writer.get(fact_id)
                    await writer.deactivate(
                        fact_id, provenance=provenance, operation="undo", at=fact.holds_since
                    )
                    if fact_id not in versions:  # an earlier version kept by a rewrite: its
                        deactivated.append(fact_id)  # fact is restored, it is no news
                else:
                    await writer.restore(fact_id, before, provenance)
                    restored.append(fact_id)
            withdrawn = await self._inbox.withdraw_pass(tx, user_id, pass_id)
            await self._passes.set_status(tx, pass_id, "undone")
        return UndoResult(
            pass_id,
            tuple(restored),
            tuple(deactivated),
            rem_changes_rolled_back=tuple(sorted(later.rolled_back)),
            already_reverted=tuple(sorted(later.reverted)),
            questions_withdrawn=tuple(withdrawn),
        )

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
    ) -> tuple[dict[int, dict[str, Any] | None], int, set[int]]:
        """Each touched fact's state before the pass (None: the pass inserted it), the id of
        the pass's last history row, and the facts that are earlier versions the pass kept of
        facts it rewrote (kit/memory/fact_times.py `supersede`)."""
        rows = await tx.fetchall(
            "SELECT id, fact_id, before_json, operation FROM fact_history"
            " WHERE user_id = ? AND pass_id = ? ORDER BY id",
            (user_id, pass_id),
        )
        befores: dict[int, dict[str, Any] | None] = {}
        versions: set[int] = set()
        for _, fact_id, before_json, operation in rows:
            if fact_id not in befores:  # the first change of the pass holds the earlier state
                befores[fact_id] = None if before_json is None else json.loads(before_json)
                if operation == SUPERSEDED:
                    versions.add(fact_id)
        return befores, max((r[0] for r in rows), default=0), versions

    @staticmethod
    async def _later_changes(
        tx: Transaction,
        user_id: str,
        pass_id: int,
        befores: dict[int, dict[str, Any] | None],
        last_row: int,
    ) -> _Later:
        later = _Later()
        if not befores:
            return later
        marks = ",".join("?" * len(befores))
        rows = await tx.fetchall(
            "SELECT h.fact_id, h.pass_id, h.actor, h.operation, h.at, p.kind, p.status,"
            " CAST(json_extract(p.detail_json, '$.undoes') AS BIGINT) FROM fact_history h"
            " LEFT JOIN passes p ON p.id = h.pass_id"
            f" WHERE h.user_id = ? AND h.id > ? AND h.fact_id IN ({marks}) ORDER BY h.id",
            (user_id, last_row, *befores),
        )
        for fact_id, by_pass, actor, operation, at, kind, status, undoes in rows:
            if fact_id in later.reverted or status == "undone":
                continue  # nothing of ours left on it / a later pass and its undo cancel out
            if operation == KEPT:
                continue  # a decision recorded on the fact, not a change to it
            if kind == "undo":
                if int(undoes) < pass_id:
                    later.reverted.add(fact_id)
                    later.blockers.pop(fact_id, None)
                    later.rolled_back.discard(fact_id)
                continue
            if actor == _AUTOMATIC:
                later.rolled_back.add(fact_id)
            else:
                who = f"pass {by_pass}" if by_pass is not None else f"{actor} ({operation})"
                if kind == "owner":
                    who = f"the owner (pass {by_pass}, {operation})"
                when = at[:16].replace("T", " ")
                later.blockers.setdefault(fact_id, f"#{fact_id} by {who} at {when}")
                if by_pass is not None:
                    later.blocking_passes.add(by_pass)
        later.rolled_back -= set(later.blockers)
        return later


def _refuse(pass_id: int, later: _Later) -> None:
    if not later.blockers:
        return
    passes = sorted(later.blocking_passes, reverse=True)
    hint = (
        f"undo pass {', then '.join(str(p) for p in passes)} first"
        if passes
        else "change those facts back by hand if you still want this undo"
    )
    raise InputError(
        f"cannot undo pass {pass_id}: later changes touched the same facts "
        f"({'; '.join(later.blockers.values())}); {hint}"
    )
