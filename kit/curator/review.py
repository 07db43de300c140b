"""REM's review of stale facts: facts nobody has used for `rem.stale_days` are shown to the small
model, which may lower a fact's confidence, set an expiry, or deactivate it.

The answer is validated here (the `review_facts` tool input); a batch with anything invalid is
rejected whole. Valid changes become curation operations applied by the curator's `apply_ops`,
so the same mass-deletion guard, one-transaction apply, pass record, history and undo hold.
A reviewed fact is not shown again for another `stale_days` days.

The guard judges one batch of one category, and its floor of one lets a category lose its
only fact; so a run also keeps its own count (`RunLimit`): across all of a category's batches,
and across every category, it retires at most the guard's limit of the facts in lasting use
when it began. Seven single-fact categories lose at most three facts in one night, not seven.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta, tzinfo
from typing import Any, Protocol

from kit.clock import Clock, to_iso
from kit.config import OwnerSettings
from kit.curator import guard
from kit.curator.ops import MAX_REASON_CHARS, Deactivate, Operation, Update, parse_expiry
from kit.curator.reports import PassOutcome
from kit.errors import LLMOutputError, LLMTimeout
from kit.llm.base import LLM, ChatMessage, LLMRequest, SystemBlock, ToolSpec, Usage
from kit.llm.fit import room
from kit.llm.tokens import estimate_tokens
from kit.memory.fact_rows import Fact
from kit.memory.facts import Facts
from kit.model_settings import ModelRole
from kit.prompts import Prompts
from kit.store.db import Database
from kit.untrusted.fingerprint import fingerprint
from kit.untrusted.neutralise import neutralise

log = logging.getLogger(__name__)

TOOL_NAME = "review_facts"
BATCH = 40  # facts per model call (fewer when llm.background.context_tokens is small)
REVIEW_MAX_TOKENS = 2048
ACTIONS = ("keep", "lower_confidence", "set_expiry", "deactivate")
PASS_KIND = "rem_review"
_SYSTEM = "You review an assistant's long-term memory, carefully."


class OpsApplier(Protocol):
    """The curator's guarded apply (kit/curator/passes.py `Curator.apply_ops`)."""

    async def apply_ops(
        self,
        user_id: str,
        category: str,
        ops: Sequence[Operation],
        *,
        kind: str,
        source_message_ids: Sequence[int],
        dry_run: bool = False,
    ) -> PassOutcome: ...


def review_tool() -> ToolSpec:
    return ToolSpec(
        TOOL_NAME,
        "Record your review of the stale facts. Call it once; list only facts to change "
        "(or to keep explicitly); an empty list keeps them all.",
        {
            "type": "object",
            "properties": {
                "reviews": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {
                            "id": {"type": "integer", "description": "the fact's id"},
                            "action": {"type": "string", "enum": list(ACTIONS)},
                            "confidence": {
                                "type": "number",
                                "minimum": 0,
                                "maximum": 1,
                                "description": "lower_confidence: the new, lower value",
                            },
                            "expires_at": {
                                "type": "string",
                                "description": "set_expiry: YYYY-MM-DD, the last day it holds",
                            },
                            "reason": {"type": "string", "description": "why, in a few words"},
                        },
                        "required": ["id", "action", "reason"],
                        "additionalProperties": False,
                    },
                }
            },
            "required": ["reviews"],
            "additionalProperties": False,
        },
    )


@dataclass
class RunLimit:
    """What one review run may still take out of use, per category and in all (see above)."""

    max_fraction: float
    base: int
    by_category: dict[str, int]
    spent: int = 0
    spent_in: dict[str, int] = field(default_factory=dict)

    @classmethod
    def of(cls, facts: Sequence[Fact], max_fraction: float, horizon: datetime) -> RunLimit:
        lasting = [
            f
            for f in facts
            if guard.in_lasting_use(
                active=f.active, expires_at=f.expires_at, confidence=f.confidence, horizon=horizon
            )
        ]
        by_category: dict[str, int] = {}
        for fact in lasting:
            by_category[fact.category] = by_category.get(fact.category, 0) + 1
        return cls(max_fraction, len(lasting), by_category)

    def refusal(self, category: str, retiring: int) -> str | None:
        """Why `retiring` more facts of `category` would be too many for this run, or None."""
        if not retiring:
            return None
        share = f"curation.max_deactivate_fraction ({self.max_fraction:.0%})"
        base = self.by_category.get(category, 0)
        in_category = self.spent_in.get(category, 0) + retiring
        if in_category > guard.limit(base, self.max_fraction) and self.spent_in.get(category):
            return (
                f"with the batches before it, the run would take {in_category} of the {base} "
                f"{category} facts in use out of use, more than {share} allows across a "
                "category's batches; they are reviewed again next time"
            )
        total = self.spent + retiring
        if total > guard.limit(self.base, self.max_fraction):
            return (
                f"the run would take {total} of the {self.base} facts in use (every category) "
                f"out of use, more than the {guard.limit(self.base, self.max_fraction)} {share} "
                "allows across the whole run; they are reviewed again next time"
            )
        return None

    def spend(self, category: str, retiring: int) -> None:
        self.spent += retiring
        self.spent_in[category] = self.spent_in.get(category, 0) + retiring


@dataclass
class ReviewResult:
    reviewed: int = 0
    changes: list[str] = field(default_factory=list)
    rejected: list[str] = field(default_factory=list)
    pass_ids: list[int] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    passed: list[str] = field(default_factory=list)  # categories reviewed without a rejection
    failed: list[str] = field(default_factory=list)  # categories with a rejected batch
    waiting: list[str] = field(default_factory=list)  # categories left alone (`skip`)


def parse_review(
    raw: Mapping[str, Any], batch: Sequence[Fact], now: datetime, tz: tzinfo
) -> list[Operation]:
    """The tool input as operations on facts of `batch`, or `LLMOutputError` saying why not."""
    if not isinstance(raw, Mapping) or set(raw) != {"reviews"}:
        raise LLMOutputError('the review must be an object {"reviews": [...]}')
    items = raw["reviews"]
    if not isinstance(items, list):
        raise LLMOutputError("'reviews' must be a list")
    by_id = {f.id: f for f in batch}
    seen: set[int] = set()
    ops: list[Operation] = []
    for n, item in enumerate(items, 1):
        where = f"review {n}"
        if not isinstance(item, Mapping):
            raise LLMOutputError(f"{where}: must be an object")
        fact_id = item.get("id")
        if isinstance(fact_id, bool) or not isinstance(fact_id, int) or fact_id not in by_id:
            what = f"#{fact_id}" if isinstance(fact_id, int) else f"({fingerprint(fact_id)})"
            raise LLMOutputError(f"{where}: fact {what} is not one of the facts reviewed")
        if fact_id in seen:
            raise LLMOutputError(f"{where}: fact #{fact_id} is reviewed twice")
        seen.add(fact_id)
        op = _one(item, by_id[fact_id], f"{where} (#{fact_id})", now, tz)
        if op is not None:
            ops.append(op)
    return ops


def _one(
    item: Mapping[str, Any], fact: Fact, where: str, now: datetime, tz: tzinfo
) -> Operation | None:
    action = item.get("action")
    if action not in ACTIONS:
        raise LLMOutputError(
            f"{where}: unknown action ({fingerprint(action)}); use one of {list(ACTIONS)}"
        )
    allowed = {"id", "action", "reason"} | {
        "lower_confidence": {"confidence"},
        "set_expiry": {"expires_at"},
    }.get(str(action), set())
    if extra := set(item) - allowed:
        ours = sorted(k for k in extra if k in _FIELDS)
        named = f"{ours}" if len(ours) == len(extra) else f"{len(extra)} field(s)"
        raise LLMOutputError(f"{where}: {named} cannot go with {action!r}")
    reason = item.get("reason")
    if not isinstance(reason, str) or (action != "keep" and not reason.strip()):
        raise LLMOutputError(f"{where}: needs a short 'reason'")
    if len(reason) > MAX_REASON_CHARS:
        raise LLMOutputError(
            f"{where}: 'reason' has {len(reason)} characters, more than {MAX_REASON_CHARS}"
        )
    reason = f"REM review: {reason.strip()}"
    if action == "keep":
        return None
    if action == "deactivate":
        return Deactivate(fact.id, reason)
    if action == "lower_confidence":
        value = item.get("confidence")
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
            raise LLMOutputError(f"{where}: 'confidence' must be a number from 0 to 1")
        if value >= fact.confidence:
            raise LLMOutputError(
                f"{where}: confidence {value} is not lower than {fact.confidence:.2f}"
            )
        return Update(fact.id, confidence=float(value), reason=reason)
    # YYYY-MM-DD is the last day the fact holds: it expires at the next local midnight.
    expires_at = parse_expiry(item.get("expires_at"), where, now, tz, date_only=True)
    if expires_at is None:
        raise LLMOutputError(f"{where}: 'set_expiry' needs 'expires_at', a date like 2026-05-01")
    return Update(fact.id, expires_at=expires_at, reason=reason)


_FIELDS = frozenset({"id", "action", "reason", "confidence", "expires_at"})


@dataclass(frozen=True)
class _Guarded:
    """What a batch is counted against: the run's limit, its category's facts at the start."""

    limit: RunLimit
    facts: Sequence[Fact]
    horizon: datetime


def _fact_line(fact: Fact, tz: tzinfo) -> str:
    def day(value: datetime | None) -> str:
        return "never" if value is None else value.astimezone(tz).date().isoformat()

    subject = f"[{neutralise(fact.subject, inline=True)}] " if fact.subject else ""
    expiry = f"; expires {day(fact.expires_at)}" if fact.expires_at else ""
    return (
        f"#{fact.id} (confidence {fact.confidence:.2f}; written {day(fact.created_at)}; "
        f"last used {day(fact.last_accessed_at)}{expiry}) {subject}"
        + neutralise(fact.content, inline=True)
    )


class StaleReview:
    def __init__(
        self,
        db: Database,
        facts: Facts,
        llm: LLM,
        prompts: Prompts,
        background: ModelRole,
        owner: OwnerSettings,
        stale_days: int,
        clock: Clock,
        tz: tzinfo,
        max_fraction: float = 0.5,
    ) -> None:
        self._max_fraction = max_fraction  # curation.max_deactivate_fraction
        self._db = db
        self._facts = facts
        self._llm = llm
        self._prompts = prompts
        self._role = background  # the background model and its limits
        self._owner = owner
        self._stale_days = stale_days
        self._clock = clock
        self._tz = tz

    async def stale(self, user_id: str, now: datetime) -> list[Fact]:
        """Live facts unused for `stale_days` and not reviewed within that time; never the
        owner's (pinned or written by the owner: REM may not change them)."""
        cutoff = now - timedelta(days=self._stale_days)
        recent = {
            int(r[0])
            for r in await self._db.fetchall(
                "SELECT fact_id FROM fact_reviews WHERE user_id = ? AND reviewed_at > ?",
                (user_id, to_iso(cutoff)),
            )
        }
        return [
            f
            for f in await self._facts.live(user_id, now)
            if not f.owner_held
            and f.id not in recent
            and (f.last_accessed_at or f.created_at) <= cutoff
        ]

    async def run(
        self,
        user_id: str,
        applier: OpsApplier,
        *,
        dry_run: bool,
        now: datetime,
        skip: Collection[str] = (),
    ) -> ReviewResult:
        """Review every stale fact, category by category (but those in `skip`), in batches. A
        rejected batch is reported and its facts are tried again next time; `LLMUnavailable`
        propagates."""
        result = ReviewResult()
        live = await self._facts.live(user_id, now)
        horizon = now + timedelta(days=self._stale_days)  # as the curator's guard counts
        run_limit = RunLimit.of(live, self._max_fraction, horizon)
        by_category: dict[str, list[Fact]] = {}
        for fact in await self.stale(user_id, now):
            by_category.setdefault(fact.category, []).append(fact)
        for category, facts in sorted(by_category.items()):
            if category in skip:
                result.waiting.append(category)
                continue
            rejected = len(result.rejected)
            in_category = [f for f in live if f.category == category]
            for batch in self._batches(user_id, category, facts, now):
                guarded = _Guarded(run_limit, in_category, horizon)
                try:
                    await self._batch(
                        user_id, category, batch, applier, dry_run, now, result, guarded
                    )
                except LLMTimeout:  # a model this slow: the other batches wait a night
                    result.rejected.append(
                        f"review {category}: the model did not answer within "
                        f"{self._role.timeout_seconds:g} s "
                        f"({self._role.setting('timeout_seconds')})"
                    )
                    result.failed.append(category)
                    return result
            (result.failed if len(result.rejected) > rejected else result.passed).append(category)
        return result

    def _batches(
        self, user_id: str, category: str, facts: list[Fact], now: datetime
    ) -> list[list[Fact]]:
        """At most BATCH facts a call, fewer when their lines would not fit the model's
        window (llm.background.context_tokens)."""
        fixed = self._prompt(user_id, category, now, "")
        schema = json.dumps(dict(review_tool().input_schema))
        left = room(self._role, self._role.output(REVIEW_MAX_TOKENS), fixed, schema, _SYSTEM)
        batches: list[list[Fact]] = []
        used = 0
        for fact in facts:
            cost = estimate_tokens(_fact_line(fact, self._tz)) + 1
            if not batches or len(batches[-1]) >= BATCH or used + cost > left.tokens:
                batches.append([])
                used = 0
            batches[-1].append(fact)
            used += cost
        return batches

    def _prompt(self, user_id: str, category: str, now: datetime, facts: str) -> str:
        owner_name = self._owner.name if user_id == self._owner.user_id else ""
        return self._prompts.render(
            "rem_review",
            owner_name=f", {owner_name}" if owner_name else "",
            today=now.astimezone(self._tz).date().isoformat(),
            category=category,
            stale_days=self._stale_days,
            facts=facts,
        )

    async def _batch(
        self,
        user_id: str,
        category: str,
        batch: list[Fact],
        applier: OpsApplier,
        dry_run: bool,
        now: datetime,
        result: ReviewResult,
        guarded: _Guarded,
    ) -> None:
        prompt = self._prompt(
            user_id, category, now, "\n".join(_fact_line(f, self._tz) for f in batch)
        )
        reply = await self._llm.complete(
            LLMRequest(
                model=self._role.model,
                system=(SystemBlock(_SYSTEM),),
                messages=(ChatMessage.text("user", prompt),),
                max_tokens=self._role.output(REVIEW_MAX_TOKENS),
                tools=(review_tool(),),
                tool_choice=TOOL_NAME,
                purpose="rem_review",
                user_id=user_id,
            )
        )
        result.usage += reply.usage
        result.reviewed += len(batch)
        try:
            calls = [u for u in reply.tool_uses if u.name == TOOL_NAME]
            if len(calls) != 1:
                raise LLMOutputError(f"the model did not call {TOOL_NAME} exactly once")
            ops = parse_review(calls[0].input, batch, now, self._tz)
        except LLMOutputError as exc:
            log.info("REM review of %s facts for %s rejected: %s", category, user_id, exc)
            result.rejected.append(f"review {category}: {exc}")
            return
        # A batch too big on its own is the guard's to reject (with its pass record, in
        # apply_ops); one that fits is counted against what the run has taken already.
        verdict = guard.check(ops, guarded.facts, self._max_fraction, guarded.horizon)
        refusal = guarded.limit.refusal(category, verdict.retiring) if verdict.allowed else None
        if refusal is not None:
            log.warning("REM review of %s facts for %s held back: %s", category, user_id, refusal)
            result.rejected.append(f"review {category}: {refusal}")
            return
        if ops:
            outcome = await applier.apply_ops(
                user_id, category, ops, kind=PASS_KIND, source_message_ids=(), dry_run=dry_run
            )
            if outcome.status in ("rejected", "failed"):
                result.rejected.append(f"review {category}: {outcome.reason}")
                return
            guarded.limit.spend(category, verdict.retiring)
            result.changes.extend(f"{category}: {line}" for line in outcome.changes)
            if outcome.pass_id is not None:
                result.pass_ids.append(outcome.pass_id)
        if not dry_run:
            await self._mark_reviewed(user_id, batch, ops, now)

    async def _mark_reviewed(
        self, user_id: str, batch: list[Fact], ops: list[Operation], now: datetime
    ) -> None:
        changed = {
            op.fact_id: type(op).__name__.lower()
            for op in ops
            if isinstance(op, Update | Deactivate)
        }
        async with self._db.transaction() as tx:
            await tx.executemany(
                "INSERT INTO fact_reviews (fact_id, user_id, reviewed_at, outcome)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (fact_id) DO UPDATE SET"
                " reviewed_at = excluded.reviewed_at, outcome = excluded.outcome",
                [(f.id, user_id, to_iso(now), changed.get(f.id, "keep")) for f in batch],
            )
