"""The curator: after a conversation is over, the small model curates long-term facts from the
messages not yet curated, one pass per category, each pass one transaction.

A conversation is over after `curation.idle_minutes` without messages, and at day end (its
messages from earlier days are curated even if it goes on). `sweep_idle` is what the scheduler
calls every few minutes; `curate_user` is `kit curate`. Neither runs inside a turn, so a reply
never waits for curation, and no database transaction is open while the model thinks.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import date, datetime, timedelta, tzinfo
from typing import Any

from kit.clock import Clock, local_date
from kit.config import CATEGORIES, Settings
from kit.curator.apply import Applier
from kit.curator.grounding import Grounding
from kit.curator.ops import (
    TOOL_NAME,
    InvalidOperations,
    Operation,
    operations_from_reply,
    operations_tool,
)
from kit.curator.pass_fit import PassFit, pass_fit
from kit.curator.progress import Batch, CurationProgress, LostRace
from kit.curator.questions import InboxStore
from kit.curator.records import PassLog
from kit.curator.render import fact_lines, transcript
from kit.curator.reports import PassOutcome, UndoResult
from kit.curator.shown import FactSelector, ShownFacts
from kit.curator.undo import PassUndo
from kit.errors import BudgetSpent, InputError, KitError, LLMTimeout, LLMUnavailable
from kit.llm.base import LLM, ChatMessage, LLMReply, LLMRequest, SystemBlock
from kit.llm.tokens import estimate_tokens
from kit.memory.facts import Facts
from kit.memory.messages import Messages
from kit.model_settings import model_role
from kit.prompts import Prompts
from kit.retrieval.search import MemorySearch
from kit.store.db import Database
from kit.untrusted.fingerprint import frames

OnPass = Callable[[PassOutcome], object]  # hears of each pass as it ends (a progress bar)

log = logging.getLogger(__name__)

KIND = "curate"
MAX_TOKENS = 4096


class _DryRun(Exception):
    """Carries a dry run's outcome out of its transaction, which then rolls back."""

    def __init__(self, outcome: PassOutcome) -> None:
        super().__init__("dry run")
        self.outcome = outcome


class Curator:
    def __init__(
        self,
        *,
        db: Database,
        facts: Facts,
        messages: Messages,
        search: MemorySearch,
        llm: LLM,
        prompts: Prompts,
        settings: Settings,
        clock: Clock,
        tz: tzinfo,
        inbox: InboxStore,
    ) -> None:
        self._db = db
        self._facts = facts
        self._messages = messages
        self._llm = llm
        self._prompts = prompts
        self._settings = settings
        self._role = model_role(settings.llm, "background")
        self._clock = clock
        self._tz = tz
        self.passes = PassLog(db, clock)
        self.progress = CurationProgress(db, messages, clock)
        self._applier = Applier(
            facts,
            self.passes,
            settings.curation,
            stale_days=settings.rem.stale_days,
            clock=clock,
            inbox=inbox,
            inbox_settings=settings.inbox,
        )
        self._undo = PassUndo(db, facts, self.passes, inbox)
        self._shown = FactSelector(
            facts,
            search,
            settings.curation.facts_budget_tokens,
            line_tokens=lambda fact: estimate_tokens(fact_lines([fact], tz)) + 1,
        )
        self._lock = asyncio.Lock()  # one curation run at a time in this process
        self._pass_fit: PassFit | None = None

    def _fit(self) -> PassFit:
        """What a pass may show to fit llm.background.context_tokens (computed once)."""
        if self._pass_fit is None:
            self._pass_fit = pass_fit(
                self._prompts, self._role, self._settings, self._role.output(MAX_TOKENS)
            )
        return self._pass_fit

    # -- the shared machinery (REM's fact review applies through this too) ---------------------

    async def apply_ops(
        self,
        user_id: str,
        category: str,
        ops: Sequence[Operation],
        *,
        kind: str,
        source_message_ids: Sequence[int],
        dry_run: bool = False,
        actor: str | None = None,
        started_at: datetime | None = None,
        detail: dict[str, Any] | None = None,
        ground: bool = False,
    ) -> PassOutcome:
        """Guard + apply in one transaction + pass record. With `dry_run`, the outcome says
        what would happen (status "planned" instead of "applied") and nothing is written.
        With `ground`, what the operations would store is held against the messages they cite
        (kit/curator/grounding.py), as a curation pass's answer always is."""
        if category not in CATEGORIES:
            raise InputError(f"unknown category {category!r}; use one of: {', '.join(CATEGORIES)}")
        grounding = None
        if ground:
            cited = sorted({i for op in ops for i in op.sources})
            found = await self._messages.get_many(user_id, cited)
            grounding = Grounding(found, source_message_ids, self._settings.owner.name)
        try:
            async with self._db.transaction() as tx:
                outcome = await self._applier.apply_in(
                    tx,
                    user_id,
                    category,
                    ops,
                    kind=kind,
                    actor=actor or ("rem" if kind.startswith("rem") else "curator"),
                    source_message_ids=source_message_ids,
                    started_at=started_at,
                    detail=detail,
                    grounding=grounding,
                )
                if dry_run:
                    raise _DryRun(outcome)
        except _DryRun as planned:
            status = "planned" if planned.outcome.status == "applied" else planned.outcome.status
            return replace(planned.outcome, pass_id=None, status=status)
        return outcome

    async def undo(self, user_id: str, pass_id: int) -> UndoResult:
        """Put back every fact the pass touched as it was before; see kit/curator/undo.py."""
        return await self._undo.undo(user_id, pass_id)

    # -- curation runs -------------------------------------------------------------------------

    async def curate_user(
        self, user_id: str, *, on_pass: OnPass | None = None
    ) -> list[PassOutcome]:
        """Curate every uncurated message of `user_id` now, conversation by conversation."""
        outcomes: list[PassOutcome] = []
        async with self._lock:
            try:
                for pending in await self.progress.pending(user_id):
                    try:
                        await self._curate_conversation(
                            user_id, pending.conversation_id, outcomes, on_pass=on_pass
                        )
                    except LLMUnavailable:
                        raise
                    except Exception as exc:
                        reason = _conversation_crashed(pending.conversation_id, exc)
                        outcomes.append(PassOutcome(None, KIND, "", "failed", reason=reason))
            except PassTimedOut:
                pass  # its outcome is in `outcomes` already
            except LLMUnavailable as exc:
                outcomes.append(PassOutcome(None, KIND, "", "failed", reason=str(exc)))
        return outcomes

    async def sweep_idle(self, now: datetime) -> int:
        """Curate every conversation that is over: idle for `curation.idle_minutes`, or with
        messages from a day before today. Returns how many passes ran.

        A user whose background budget is spent is passed over until midnight; when the
        budget of all users is spent, or the model is down, the sweep stops. A conversation
        whose curation crashes does not stop the others (nor other users'): they are all
        curated, then `CurationCrashed` says which crashed, so the run is recorded as failed
        and `kit doctor` reports it."""
        idle_since = now - timedelta(minutes=self._settings.curation.idle_minutes)
        today = local_date(now, self._tz)
        outcomes: list[PassOutcome] = []
        paused: set[str] = set()
        crashed: list[str] = []
        async with self._lock:
            try:
                for pending in await self.progress.pending():
                    if pending.user_id in paused:
                        continue
                    last = pending.last_message_at
                    over = last is None or last <= idle_since
                    try:
                        await self._curate_conversation(
                            pending.user_id,
                            pending.conversation_id,
                            outcomes,
                            before_day=None if over else today,
                            backoff_from=now,  # `kit curate` does not wait; sweeps do
                        )
                    except BudgetSpent as exc:
                        if exc.user_id is None:
                            raise
                        paused.add(exc.user_id)
                    except LLMUnavailable:
                        raise
                    except Exception as exc:
                        crashed.append(_conversation_crashed(pending.conversation_id, exc))
            except BudgetSpent:
                log.info("curation sweep stopped: today's background budget is spent")
            except LLMUnavailable as exc:
                log.warning("curation paused, the model is unavailable: %s", exc)
        if crashed:
            raise CurationCrashed(
                f"{len(crashed)} conversation(s) could not be curated ({'; '.join(crashed)}); "
                "the others were; `kit curate` shows the failure"
            )
        return len(outcomes)

    async def retry_parked(
        self, user_id: str, *, on_pass: OnPass | None = None
    ) -> list[PassOutcome]:
        """Try the batches given up on once more (`kit curate --retry-parked`)."""
        outcomes: list[PassOutcome] = []
        async with self._lock:
            try:
                for parked in await self.progress.parked(user_id):
                    batch = await self.progress.parked_batch(user_id, parked)
                    try:
                        outcome = await self.run_batch(batch)
                    except PassTimedOut as exc:
                        outcome = exc.outcome
                    if outcome is not None:
                        outcomes.append(outcome)
                        if on_pass is not None:
                            on_pass(outcome)
            except LLMUnavailable as exc:
                outcomes.append(PassOutcome(None, KIND, "", "failed", reason=str(exc)))
        return outcomes

    async def _curate_conversation(
        self,
        user_id: str,
        conversation_id: int,
        outcomes: list[PassOutcome],
        *,
        before_day: date | None = None,
        backoff_from: datetime | None = None,
        on_pass: OnPass | None = None,
    ) -> None:
        """Batch by batch, each batch through every category in turn (so the seven calls
        share the transcript prefix the model API can cache). A category whose pass fails
        stops for this run; it is retried on a later one (after `retry_delay`, for sweeps)."""
        active = list(CATEGORIES)
        while active:
            for category in list(active):
                batch = await self.progress.next_batch(
                    user_id,
                    conversation_id,
                    category,
                    before_day=before_day,
                    backoff_from=backoff_from,
                    max_chars=self._fit().transcript_chars,
                )
                try:
                    outcome = None if batch is None else await self.run_batch(batch)
                except PassTimedOut as exc:
                    outcomes.append(exc.outcome)
                    if on_pass is not None:
                        on_pass(exc.outcome)
                    raise  # a model this slow: the other passes wait for the next run
                if outcome is not None:
                    outcomes.append(outcome)
                    if on_pass is not None:
                        on_pass(outcome)
                if batch is None or (outcome is not None and outcome.status not in _GOOD):
                    active.remove(category)

    async def run_batch(self, batch: Batch) -> PassOutcome | None:
        """One pass: one category over one batch of messages. None when the batch held
        nothing the owner said (it is stepped over without asking the model)."""
        started = self._clock.now()
        if not batch.owner_message_ids:
            try:
                async with self._db.transaction() as tx:
                    await self.progress.advance(tx, batch)
            except LostRace:
                pass
            return None
        fit = self._fit()
        shown = await self._shown.select(batch, started, fit.facts_tokens)
        request = self._request(batch, shown, started)
        try:
            reply = await self._llm.complete(request)
        except LLMTimeout as exc:  # counted, backed off: never resent at once (kit/llm/retry.py)
            reason = (
                f"the model did not answer within {self._role.timeout_seconds:g} s "
                f"({self._role.setting('timeout_seconds')}); tried again after a backoff"
            )
            outcome = await self._failed(batch, started, reason, fit.detail(batch))
            raise PassTimedOut(outcome) from exc
        except LLMUnavailable:
            raise
        except Exception as exc:  # a broken adapter or model reply: count it, keep the rest going
            log.exception("curation model call for %s failed", batch.category)
            return await self._failed(batch, started, _crash_reason("the model call", exc), {})
        detail = {
            "conversation_id": batch.conversation_id,
            "model": reply.model or request.model,
            "input_tokens": reply.usage.input_tokens,
            "output_tokens": reply.usage.output_tokens,
            "facts_shown": len(shown.facts),
            "facts_total": shown.total,
            **fit.detail(batch),
        }
        try:
            try:
                ops = operations_from_reply(reply, now=self._clock.now(), tz=self._tz)
            except InvalidOperations as exc:
                if not exc.unreadable:
                    raise
                # Nothing could be read (no call, no JSON): asked once more, saying why. A
                # timed-out call never gets here: it is backed off (kit/llm/retry.py).
                reply = await self._ask_again(request, str(exc), detail)
                ops = operations_from_reply(reply, now=self._clock.now(), tz=self._tz)
        except InvalidOperations as exc:
            log.info(
                "curation pass on %s rejected: %s", batch.category, exc
            )  # reported by its caller
            return await self._failed(batch, started, str(exc), detail, status="rejected")
        except Exception as exc:  # a value no check foresaw: counted like any bad answer
            log.error(
                "reading the curation answer for %s crashed (%s)%s",
                batch.category,
                type(exc).__name__,
                frames(exc),
            )
            reason = _crash_reason("reading the answer", exc)
            return await self._failed(batch, started, reason, detail, status="rejected")
        return await self._apply(batch, ops, started, detail, reply, shown)

    async def _ask_again(self, request: LLMRequest, why: str, detail: dict[str, Any]) -> LLMReply:
        """The same request once more, with what was wrong with the first answer; its tokens
        are added to the pass's. A failure of this call is the pass's failure."""
        again = replace(
            request,
            messages=(
                *request.messages,
                ChatMessage.text(
                    "user",
                    f"Your answer could not be read: {why}. Call {TOOL_NAME} once now, or "
                    'answer with only the JSON object {"operations": [...]} and nothing else.',
                ),
            ),
        )
        try:
            reply = await self._llm.complete(again)
        except LLMTimeout as exc:
            raise InvalidOperations(f"{why}; asked again, it did not answer in time") from exc
        detail["asked_again"] = True
        detail["input_tokens"] = int(detail.get("input_tokens", 0)) + reply.usage.input_tokens
        detail["output_tokens"] = int(detail.get("output_tokens", 0)) + reply.usage.output_tokens
        return reply

    async def _apply(
        self,
        batch: Batch,
        ops: list[Operation],
        started: datetime,
        detail: dict[str, Any],
        reply: LLMReply,
        shown: ShownFacts,
    ) -> PassOutcome:
        try:
            async with self._db.transaction() as tx:
                outcome = await self._applier.apply_in(
                    tx,
                    batch.user_id,
                    batch.category,
                    ops,
                    kind=KIND,
                    actor="curator",
                    source_message_ids=batch.owner_message_ids,
                    started_at=started,
                    detail=detail,
                    shown=None if shown.complete else shown.ids,
                    grounding=Grounding(
                        batch.messages, batch.owner_message_ids, self._settings.owner.name
                    ),
                )
                if outcome.status == "rejected":
                    note = await self.progress.failed(
                        tx, batch, outcome.reason, self._settings.curation.max_attempts
                    )
                    if note:
                        outcome = replace(outcome, reason=f"{outcome.reason}; {note}")
                else:
                    await self.progress.advance(tx, batch)
        except LostRace as exc:
            return PassOutcome(None, KIND, batch.category, "skipped", reason=str(exc))
        except Exception as exc:
            log.exception("curation pass on %s crashed; nothing of it was applied", batch.category)
            return await self._failed(batch, started, _crash_reason("applying", exc), detail)
        return outcome

    async def _failed(
        self,
        batch: Batch,
        started: datetime,
        reason: str,
        detail: dict[str, Any],
        *,
        status: str = "failed",
    ) -> PassOutcome:
        """Record a pass that could not be applied and count the attempt (one transaction)."""
        try:
            async with self._db.transaction() as tx:
                pass_id = await self.passes.add(
                    tx,
                    user_id=batch.user_id,
                    kind=KIND,
                    category=batch.category,
                    status=status,
                    started_at=started,
                    reason=reason,
                    detail={
                        **detail,
                        "conversation_id": batch.conversation_id,
                        "source_message_ids": list(batch.owner_message_ids),
                    },
                )
                note = await self.progress.failed(
                    tx, batch, reason, self._settings.curation.max_attempts
                )
        except LostRace as exc:  # forgotten meanwhile: its record must not quote them
            return PassOutcome(None, KIND, batch.category, "skipped", reason=str(exc))
        return PassOutcome(
            pass_id,
            KIND,
            batch.category,
            "rejected" if status == "rejected" else "failed",
            reason=f"{reason}; {note}" if note else reason,
            source_message_ids=batch.owner_message_ids,
        )

    def _request(self, batch: Batch, shown: ShownFacts, now: datetime) -> LLMRequest:
        owner = self._settings.owner.name or "the owner"
        shared = self._prompts.render(
            "curate/base",
            owner_name=owner,
            today=local_date(now, self._tz).isoformat(),
            messages=transcript(
                batch.messages, self._tz, owner, max_chars=self._fit().transcript_chars
            ),
        )
        facts = fact_lines(shown.facts, self._tz) if shown.facts or shown.complete else "(none)"
        if not shown.complete:  # so the model does not take what it cannot see for unknown
            note = self._prompts.render(
                "curate/partial",
                shown=len(shown.facts),
                total=shown.total,
                category=batch.category,
            )
            facts = f"{note}\n\n{facts}"
        rules = self._prompts.render(f"curate/{batch.category}", owner_name=owner, facts=facts)
        return LLMRequest(
            model=self._role.model,
            # The transcript block is the same for all seven categories: cached once.
            system=(SystemBlock(shared, cache=True), SystemBlock(rules)),
            messages=(
                ChatMessage.text(
                    "user",
                    f"Curate the `{batch.category}` facts from this conversation now.",
                ),
            ),
            max_tokens=self._role.output(MAX_TOKENS),
            tools=(operations_tool(),),
            tool_choice=TOOL_NAME,
            purpose=f"curate:{batch.category}",
            user_id=batch.user_id,
        )


_GOOD = ("applied", "noop")


class PassTimedOut(LLMTimeout):
    """A pass's model call timed out; it was recorded (and counted) as `outcome`."""

    def __init__(self, outcome: PassOutcome) -> None:
        super().__init__(outcome.reason)
        self.outcome = outcome


class CurationCrashed(KitError):
    """Some conversations could not be curated at all (not even recorded as a failed pass)."""


def _conversation_crashed(conversation_id: int, exc: BaseException) -> str:
    log.error(
        "curating conversation %d crashed (%s); the others go on%s",
        conversation_id,
        type(exc).__name__,
        frames(exc),
    )
    return f"conversation {conversation_id}: {_crash_reason('curating', exc)}"


def _crash_reason(stage: str, exc: BaseException) -> str:
    # KitError messages are written to be shown; anything else may carry data: name it only.
    what = str(exc) if isinstance(exc, KitError) else type(exc).__name__
    return f"{stage} failed ({what}); nothing of the pass was applied"
