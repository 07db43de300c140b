"""Applying a pass: check each operation against the database and the batch, screen it, hold
what it would store against the messages it cites (kit/curator/grounding.py), set aside the
ones the owner must decide (kit/inbox/), run the guard, and write every change with its
history row, all inside one transaction.

One bad operation never costs the pass: an operation naming a fact that does not exist, is
retired, is of another category or was not shown to the model, one citing a message that is
not one of the batch's people's (Kit's own lines included), one storing what an active fact of
any category already says (kit/curator/known.py), one holding a secret or speaking of the
assistant, and one its cited messages do not support is dropped on its own, with why,
in the pass record ("dropped"); the rest applies. One only partly supported is asked about.
Before any of it, a grounded pass's operation that goes on from a statement into a doubt or a
request ("..., but the owner is not sure if ...", "..., can you help ...") has that clause cut
(kit/curator/doubt.py; "trimmed" in the record says which).
Only the mass-retirement guard (guard.py) throws a pass out whole.

Each change's history row names the messages it was learned from: the operation's own cited
`sources`, all messages of the batch; a REPLACE's new fact also inherits the sources of the
facts it merges.

Each change takes effect when it was said (kit/memory/fact_times.py): at the time of the first
message it cites, else of the batch's last message (REM, which reads no messages: now). A new
fact holds from then; a REPLACE ends the facts it merges there (one that cites nothing only
merges what was known: it holds from the earliest of theirs); an UPDATE of what a fact says
keeps the old version as a closed fact; a DEACTIVATE ends the fact there.

An operation on a fact that is the owner's or held with high confidence, one stating what
disagrees with an active fact about the same subject (kit/curator/contest.py), and one its cited
messages support only in part (kit/curator/grounding.py) is not applied: it becomes a question
in the inbox, written in this transaction and named in the pass record
(undoing the pass withdraws it). The rest of the pass applies.

A rejected pass writes only its pass record (with the reason); an applied one writes the
record, the fact changes, the questions and their history together. An exception anywhere
rolls back all of it.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from kit.clock import Clock
from kit.config import CurationSettings, InboxSettings
from kit.curator import guard
from kit.curator.contest import Contested, contest, unsupported
from kit.curator.doubt import trim_doubt
from kit.curator.grounding import Grounding
from kit.curator.known import check_copies, check_known, probes, writes_text
from kit.curator.ops import (
    Operation,
    Replace,
    Update,
    describe,
    op_json,
    op_name,
    touched_ids,
)
from kit.curator.questions import InboxStore
from kit.curator.records import ALL_DROPPED, PassLog
from kit.curator.reports import PassOutcome
from kit.curator.screen import screen_op
from kit.curator.write_op import Written, rewrites, write_op
from kit.errors import NotFound
from kit.memory.fact_rows import Fact
from kit.memory.fact_times import earliest
from kit.memory.fact_writer import FactWriter, Provenance
from kit.memory.facts import Facts
from kit.memory.messages import said_at
from kit.store.db import Transaction
from kit.text import plural

log = logging.getLogger(__name__)


class Rejected(Exception):
    """The pass cannot be applied as a whole; `reason` says why (safe to log and show)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class _Times:
    """When each operation of a pass takes effect (see the module docstring)."""

    said: dict[int, datetime]
    fallback: datetime

    def of(self, op: Operation) -> datetime:
        return earliest(self.said, op.sources) or self.fallback


class Applier:
    def __init__(
        self,
        facts: Facts,
        passes: PassLog,
        settings: CurationSettings,
        *,
        stale_days: int,
        clock: Clock,
        inbox: InboxStore,
        inbox_settings: InboxSettings,
    ) -> None:
        self._facts = facts
        self._passes = passes
        self._settings = settings
        self._soon = timedelta(days=stale_days)  # an expiry sooner than this retires a fact
        self._clock = clock
        self._inbox = inbox
        self._inbox_settings = inbox_settings

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
        grounding: Grounding | None = None,
        dropped_before: Sequence[str] = (),
    ) -> PassOutcome:
        """Apply `ops` to one category inside `tx`, or record why not. Never half-applies:
        a rejection writes nothing but the pass record, and errors propagate (rolling back).
        `source_message_ids` is the batch: the messages the operations may cite; `shown`, when
        the model saw only part of the category, the facts the operations may name;
        `grounding`, the batch's messages, what the operations' text is held against;
        `dropped_before`, what the caller dropped of the model's answer before it became
        operations (kit/curator/extract.py), recorded with the pass's own drops."""
        writer = self._facts.writer(tx, user_id)
        sources = tuple(source_message_ids)
        cut: list[int] = []
        if grounding is not None:  # a model's fact: its doubt or request cut (doubt.py)
            ops, cut = _without_doubts(ops)
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
        if cut:  # which operations (never their text: it may hold a secret)
            record["trimmed"] = [
                f"operation {n + 1}: a clause of doubt or request cut from its text "
                "(what the owner asked or is unsure of is no fact)"
                for n in cut
            ]
        base = PassOutcome(None, kind, category, "rejected", source_message_ids=sources)
        try:
            active = await writer.active_in(category)
            facts, unfit = await self._check_ids(writer, category, ops, unfit)
            unfit = _check_changes(ops, facts, unfit)
            unfit = await check_copies(writer, ops, facts, unfit)
            unfit = _check_shown(ops, shown, unfit)
            unfit = _check_sources(ops, sources, unfit)
            if any(writes_text(op) for op in ops):
                unfit = check_known(ops, await writer.live(probes(ops)), unfit, facts)
            asked_first: list[Contested] = []
            if grounding is not None:
                unfit, asked_first = _ground(ops, unfit, grounding, facts)
            kept, dropped = self._screen(ops, unfit)
            dropped = [*dropped_before, *dropped]
            kept = [op for op in kept if not any(c.op is op for c in asked_first)]
            kept, contested = contest(kept, facts, active, self._inbox_settings.protect_confidence)
            contested = asked_first + contested
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
        status = "applied" if kept or contested else "noop"
        quiet = ALL_DROPPED if dropped else "nothing to change"
        reason = "" if kept or contested else quiet
        pass_id = await self._passes.add(
            tx,
            user_id=user_id,
            kind=kind,
            category=category,
            status=status,
            started_at=started_at,
            reason=reason,
            detail=record,
        )
        times = await self._times(tx, user_id, kept, sources)
        done = Written()
        for op in kept:
            provenance = Provenance(
                actor=actor, reason=op_reason(op), pass_id=pass_id, source_message_ids=op.sources
            )
            await write_op(writer, category, op, provenance, facts, times.of(op), done)
        asked, question_ids = await self._ask(tx, user_id, pass_id, category, contested, record)
        if asked:
            reason = f"{plural(len(asked), 'change')} set aside for the owner (`kit inbox`)"
        return _with(
            base,
            pass_id=pass_id,
            status=status,
            reason=reason,
            changes=tuple(done.changes),
            dropped=tuple(dropped),
            inserted_fact_ids=tuple(done.inserted),
            changed_fact_ids=tuple(done.changed),
            asked=tuple(asked),
            question_ids=tuple(question_ids),
        )

    async def _times(
        self, tx: Transaction, user_id: str, ops: Sequence[Operation], batch: Sequence[int]
    ) -> _Times:
        now = self._clock.now()
        said = await said_at(tx, user_id, {*batch, *(i for op in ops for i in op.sources)})
        said = {i: min(at, now) for i, at in said.items()}  # a message stamped ahead: now
        last = max((said[i] for i in batch if i in said), default=now)
        return _Times(said, last)

    async def _ask(
        self,
        tx: Transaction,
        user_id: str,
        pass_id: int,
        category: str,
        contested: Sequence[Contested],
        record: dict[str, Any],
    ) -> tuple[list[str], list[int]]:
        """Set the contested operations aside as questions; name them in the pass record.
        Returns a line per operation and the questions' ids."""
        if not contested:
            return [], []
        ids = await self._inbox.ask(
            tx,
            user_id,
            pass_id,
            category,
            contested,
            self._clock.now(),
            timedelta(days=self._inbox_settings.expire_days),
        )
        lines = []
        record["asked"] = []
        for item, (question_id, new) in zip(contested, ids, strict=True):
            again = "" if new else ", already waiting"
            lines.append(f"ASKED {describe(item.op)}: {item.reason} (inbox {question_id}{again})")
            record["asked"].append(
                {"question": question_id, "op": op_name(item.op), "reason": item.reason}
            )
        reason = f"{plural(len(contested), 'change')} set aside for the owner (`kit inbox`)"
        await self._passes.describe(tx, pass_id, reason=reason, detail=record)
        return lines, list(dict.fromkeys(q for q, _ in ids))

    async def _check_ids(
        self,
        writer: FactWriter,
        category: str,
        ops: Sequence[Operation],
        unfit: Sequence[str | None],
    ) -> tuple[dict[int, Fact], list[str | None]]:
        """Every fact an operation names exists, is active and belongs to this category; an
        operation naming one that does not is dropped. An operation on the owner's own facts
        is not dropped but asked about (kit/curator/contest.py): an owner's word changes only
        when the owner says so."""
        found: dict[int, Fact] = {}
        why = list(unfit)
        for n, op in enumerate(ops):
            for fact_id in touched_ids(op):
                try:
                    fact = await writer.get(fact_id)
                except NotFound:
                    why[n] = why[n] or f"unknown fact id #{fact_id}"
                    continue
                if fact.category != category:
                    why[n] = why[n] or f"fact #{fact_id} is in '{fact.category}', not '{category}'"
                elif not fact.active:
                    why[n] = why[n] or f"fact #{fact_id} is no longer active"
                else:
                    found[fact_id] = fact
        return found, why

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


def _check_changes(
    ops: Sequence[Operation], facts: Mapping[int, Fact], unfit: Sequence[str | None]
) -> list[str | None]:
    """An UPDATE that changes nothing of its fact (no field, or each as the fact has it: a
    small model rewrites a fact as it is) is dropped alone; the rest of the pass goes on."""
    why = list(unfit)
    for n, op in enumerate(ops):
        if why[n] is None and isinstance(op, Update) and op.fact_id in facts:
            if not changes(op, facts[op.fact_id]):
                why[n] = f"it changes nothing: fact #{op.fact_id} already says that"
    return why


def changes(op: Update, fact: Fact) -> bool:
    """Whether an UPDATE changes anything of `fact`: what it says, how sure, its expiry."""
    return (
        rewrites(op, fact)
        or (op.confidence is not None and op.confidence != fact.confidence)
        or (op.expires_at is not None and op.expires_at != fact.expires_at)
        or (op.clear_expiry and fact.expires_at is not None)
    )


def _check_shown(
    ops: Sequence[Operation], shown: Collection[int] | None, unfit: Sequence[str | None]
) -> list[str | None]:
    """Every fact named was shown to the model: it cannot know what an unshown fact says, so
    changing or merging one would be a guess (dropped)."""
    why = list(unfit)
    if shown is None:
        return why
    for n, op in enumerate(ops):
        unseen = [i for i in touched_ids(op) if i not in shown]
        if unseen and why[n] is None:
            why[n] = f"fact #{unseen[0]} was not among the facts shown to this pass"
    return why


def _check_sources(
    ops: Sequence[Operation], batch: Sequence[int], unfit: Sequence[str | None]
) -> list[str | None]:
    """Every cited message is one of the batch's messages facts may come from (an operation
    citing anything else, Kit's own lines included, is dropped)."""
    allowed = set(batch)
    why = list(unfit)
    for n, op in enumerate(ops):
        stray = [i for i in op.sources if i not in allowed]
        if stray and why[n] is None:
            why[n] = (
                f"it cites message {stray[0]}, which is not one of the messages of this batch a "
                "fact may come from (Kit's own lines are not)"
            )
    return why


def _ground(
    ops: Sequence[Operation],
    unfit: Sequence[str | None],
    grounding: Grounding,
    facts: dict[int, Fact],
) -> tuple[list[str | None], list[Contested]]:
    """Hold each operation that stores text against the messages it cites: one they do not
    support is dropped, one they support in part is asked about."""
    why = list(unfit)
    asked: list[Contested] = []
    for n, op in enumerate(ops):
        if why[n] is not None:
            continue
        verdict = grounding.check(op, facts)
        if verdict.status == "unsupported":
            why[n] = f"not supported by its cited messages: {verdict.reason}"
        elif verdict.status == "partial":
            old = tuple(facts[i] for i in touched_ids(op) if i in facts)
            asked.append(unsupported(op, old, f"only partly supported: {verdict.reason}"))
    return why, asked


def _without_doubts(ops: Sequence[Operation]) -> tuple[list[Operation], list[int]]:
    """`ops` with each one's doubt or request cut (kit/curator/doubt.py), and which were."""
    out: list[Operation] = []
    cut: list[int] = []
    for n, op in enumerate(ops):
        trimmed = trim_doubt(op)
        out.append(op if trimmed is None else trimmed)
        if trimmed is not None:
            cut.append(n)
    return out, cut


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
