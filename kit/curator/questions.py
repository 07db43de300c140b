"""The `inbox` table (m026): the one module with its SQL.

A question holds the proposed operation (as the pass recorded it), the facts it concerns as
they were when Kit asked (an answer checks they still are), the answers it offers, and its
life: open -> answered | withdrawn (the pass that asked was undone); an open question past
`expires_at` has expired, the old facts kept. `announced_at`: when a channel took it to ask
the owner (each question is sent once).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from kit.clock import from_iso, to_iso
from kit.curator.contest import Contested
from kit.curator.ops import (
    Deactivate,
    Insert,
    Operation,
    Replace,
    Update,
    op_json,
)
from kit.errors import NotFound
from kit.store.db import Database, Transaction

_COLUMNS = (
    "id, user_id, pass_id, category, kind, reason, operation_json, old_json, choices,"
    " asked_at, expires_at, status, answer, answered_at, answer_pass_id"
)


@dataclass(frozen=True)
class FactAsAsked:
    """A fact a question concerns, as it was when Kit asked. `role`: "old" (what the change
    would replace, or what the new statement disagrees with) or "target" (the fact a
    disagreeing UPDATE rewrites)."""

    id: int
    role: str
    snapshot: dict[str, Any]

    @property
    def label(self) -> str:
        subject = self.snapshot.get("subject") or ""
        content = self.snapshot.get("content") or ""
        return f"[{subject}] {content}" if subject else content


@dataclass(frozen=True)
class Question:
    id: int
    user_id: str
    pass_id: int  # the pass that asked
    category: str
    kind: str  # change | conflict | grounding
    reason: str
    operation: dict[str, Any]  # the proposed operation (kit/curator/ops.py op_json)
    facts: tuple[FactAsAsked, ...]
    choices: tuple[str, ...]
    asked_at: datetime
    expires_at: datetime
    status: str  # open | answered | withdrawn | expired
    answer: str | None = None
    answered_at: datetime | None = None
    answer_pass_id: int | None = None  # the owner pass the answer wrote

    @property
    def old(self) -> tuple[FactAsAsked, ...]:
        return tuple(f for f in self.facts if f.role == "old")

    @property
    def is_open(self) -> bool:
        return self.status == "open"


def _question(row: Sequence[Any], now: datetime) -> Question:
    expires_at = from_iso(row[10])
    status = row[11]
    if status == "open" and expires_at <= now:
        status = "expired"
    return Question(
        id=row[0],
        user_id=row[1],
        pass_id=row[2],
        category=row[3],
        kind=row[4],
        reason=row[5],
        operation=json.loads(row[6]),
        facts=tuple(FactAsAsked(f["id"], f["role"], f["snapshot"]) for f in json.loads(row[7])),
        choices=tuple(row[8].split(",")),
        asked_at=from_iso(row[9]),
        expires_at=expires_at,
        status=status,
        answer=row[12],
        answered_at=None if row[13] is None else from_iso(row[13]),
        answer_pass_id=row[14],
    )


def operation_of(question: Question) -> Operation:
    """The proposed operation again, from its record (written by `op_json`, checked then)."""
    data = question.operation
    expiry = data.get("expires_at")
    expires_at = None if expiry is None else from_iso(expiry)
    sources = tuple(data.get("sources", ()))
    reason = data.get("reason", "")
    name = data["op"]
    if name == "INSERT":
        return Insert(
            data["content"], data["confidence"], data.get("subject", ""), expires_at, reason,
            sources,
        )  # fmt: skip
    if name == "UPDATE":
        return Update(
            data["fact_id"],
            data.get("content"),
            data.get("subject"),
            data.get("confidence"),
            expires_at,
            bool(data.get("clear_expiry", False)),
            reason,
            sources,
        )
    if name == "REPLACE":
        return Replace(
            tuple(data["fact_ids"]), data["content"], data["confidence"],
            data.get("subject", ""), expires_at, reason, sources,
        )  # fmt: skip
    return Deactivate(data["fact_id"], reason, sources)


def _key(operation: dict[str, Any], fact_ids: Sequence[int]) -> str:
    """The same proposal, whichever pass made it and from which messages."""
    same = {k: v for k, v in operation.items() if k not in ("reason", "sources")}
    return json.dumps([same, sorted(fact_ids)], sort_keys=True)


class InboxStore:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def ask(
        self,
        tx: Transaction,
        user_id: str,
        pass_id: int,
        category: str,
        contested: Sequence[Contested],
        now: datetime,
        expire_after: timedelta,
    ) -> list[tuple[int, bool]]:
        """Store a question per contested operation, inside the pass's transaction. The same
        proposal already waiting for an answer is not asked again. Returns (question id,
        whether it is new) per operation."""
        waiting = {
            _key(json.loads(op), [f["id"] for f in json.loads(old)]): qid
            for qid, op, old in await tx.fetchall(
                "SELECT id, operation_json, old_json FROM inbox"
                " WHERE user_id = ? AND status = 'open' AND expires_at > ?",
                (user_id, to_iso(now)),
            )
        }
        asked: list[tuple[int, bool]] = []
        for item in contested:
            operation = op_json(item.op)
            roles = [("old", f) for f in item.old] + [("target", f) for f in item.targets]
            facts = [{"id": f.id, "role": role, "snapshot": f.snapshot()} for role, f in roles]
            key = _key(operation, [f.id for _, f in roles])
            if key in waiting:
                asked.append((waiting[key], False))
                continue
            qid = await tx.insert(
                "INSERT INTO inbox (user_id, pass_id, category, kind, reason, operation_json,"
                " old_json, choices, asked_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    user_id,
                    pass_id,
                    category,
                    item.kind,
                    item.reason,
                    json.dumps(operation, ensure_ascii=False),
                    json.dumps(facts, ensure_ascii=False),
                    ",".join(item.choices),
                    to_iso(now),
                    to_iso(now + expire_after),
                ),
            )
            waiting[key] = qid
            asked.append((qid, True))
        return asked

    async def get(self, user_id: str, question_id: int, now: datetime) -> Question:
        row = await self._db.fetchone(
            f"SELECT {_COLUMNS} FROM inbox WHERE id = ? AND user_id = ?", (question_id, user_id)
        )
        if row is None:
            raise NotFound(
                f"inbox question {question_id} does not exist; `kit inbox` lists the open ones"
            )
        return _question(row, now)

    async def get_in(
        self, tx: Transaction, user_id: str, question_id: int, now: datetime
    ) -> Question:
        row = await tx.fetchone(
            f"SELECT {_COLUMNS} FROM inbox WHERE id = ? AND user_id = ?", (question_id, user_id)
        )
        if row is None:
            raise NotFound(
                f"inbox question {question_id} does not exist; `kit inbox` lists the open ones"
            )
        return _question(row, now)

    async def listing(
        self, user_id: str, now: datetime, *, waiting_only: bool = True, limit: int = 50
    ) -> list[Question]:
        """Questions waiting for an answer, oldest first; or every question, newest first."""
        if waiting_only:
            rows = await self._db.fetchall(
                f"SELECT {_COLUMNS} FROM inbox WHERE user_id = ? AND status = 'open'"
                " AND expires_at > ? ORDER BY id LIMIT ?",
                (user_id, to_iso(now), limit),
            )
        else:
            rows = await self._db.fetchall(
                f"SELECT {_COLUMNS} FROM inbox WHERE user_id = ? ORDER BY id DESC LIMIT ?",
                (user_id, limit),
            )
        return [_question(r, now) for r in rows]

    async def waiting_asked(
        self, user_id: str, now: datetime, *, after: datetime, until: datetime, limit: int
    ) -> list[Question]:
        """Questions waiting for an answer that were asked in (after, until], oldest first."""
        rows = await self._db.fetchall(
            f"SELECT {_COLUMNS} FROM inbox WHERE user_id = ? AND status = 'open'"
            " AND expires_at > ? AND asked_at > ? AND asked_at <= ? ORDER BY id LIMIT ?",
            (user_id, to_iso(now), to_iso(after), to_iso(until), limit),
        )
        return [_question(r, now) for r in rows]

    async def waiting_counts(
        self, user_id: str, now: datetime, *, after: datetime, until: datetime
    ) -> tuple[int, int]:
        """How many questions wait for an answer: (asked at or before `after`, asked in
        (after, until]); those asked later are in neither."""
        row = await self._db.fetchone(
            "SELECT SUM(CASE WHEN asked_at <= ? THEN 1 ELSE 0 END),"
            " SUM(CASE WHEN asked_at > ? THEN 1 ELSE 0 END) FROM inbox"
            " WHERE user_id = ? AND status = 'open' AND expires_at > ? AND asked_at <= ?",
            (to_iso(after), to_iso(after), user_id, to_iso(now), to_iso(until)),
        )
        return (0, 0) if row is None else (int(row[0] or 0), int(row[1] or 0))

    async def waiting(self, user_id: str, now: datetime) -> int:
        value = await self._db.scalar(
            "SELECT COUNT(*) FROM inbox WHERE user_id = ? AND status = 'open' AND expires_at > ?",
            (user_id, to_iso(now)),
        )
        return int(value or 0)

    async def close(
        self,
        tx: Transaction,
        question_id: int,
        answer: str,
        answer_pass_id: int,
        now: datetime,
    ) -> bool:
        """Record the answer; False if the question was no longer open (answered meanwhile)."""
        changed = await tx.execute_rowcount(
            "UPDATE inbox SET status = 'answered', answer = ?, answered_at = ?,"
            " answer_pass_id = ? WHERE id = ? AND status = 'open' AND expires_at > ?",
            (answer, to_iso(now), answer_pass_id, question_id, to_iso(now)),
        )
        return changed == 1

    async def withdraw_pass(self, tx: Transaction, user_id: str, pass_id: int) -> list[int]:
        """The open questions a pass asked, withdrawn with its undo. Returns their ids."""
        rows = await tx.fetchall(
            "SELECT id FROM inbox WHERE user_id = ? AND pass_id = ? AND status = 'open'",
            (user_id, pass_id),
        )
        await tx.execute(
            "UPDATE inbox SET status = 'withdrawn' WHERE user_id = ? AND pass_id = ?"
            " AND status = 'open'",
            (user_id, pass_id),
        )
        return [int(r[0]) for r in rows]

    async def claim_unannounced(
        self, now: datetime, reachable: Callable[[str], bool]
    ) -> list[Question]:
        """Open questions no channel has taken yet, of users a channel can reach, each taken
        once (across workers too)."""
        rows = await self._db.fetchall(
            f"SELECT {_COLUMNS} FROM inbox WHERE announced_at IS NULL AND status = 'open'"
            " AND expires_at > ? ORDER BY id",
            (to_iso(now),),
        )
        taken = []
        for row in (r for r in rows if reachable(r[1])):
            async with self._db.transaction() as tx:
                won = await tx.execute_rowcount(
                    "UPDATE inbox SET announced_at = ? WHERE id = ? AND announced_at IS NULL",
                    (to_iso(now), row[0]),
                )
            if won:
                taken.append(_question(row, now))
        return taken

    async def unclaim(self, question_id: int) -> None:
        """A question no channel could deliver: asked again at the next announcement."""
        async with self._db.transaction() as tx:
            await tx.execute("UPDATE inbox SET announced_at = NULL WHERE id = ?", (question_id,))
