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
from typing import Any, TypeVar

from kit.clock import Clock, local_date
from kit.config import CATEGORIES, Settings
from kit.curator.apply import Applier
from kit.curator.extract import (
    AGAIN_EXTRACT,
    Extracted,
    candidates_from_reply,
    extract_request,
    plan,
    speakers_of,
    style_of,
)
from kit.curator.failures import (
    CurationCrashed,
    PassTimedOut,
    conversation_crashed,
    crash_reason,
)
from kit.curator.grounding import Grounding
from kit.curator.ops import (
    InvalidOperations,
    Operation,
    operations_from_reply,
)
from kit.curator.ops_request import AGAIN_OPS, operations_request
from kit.curator.pass_ends import KIND, PassEnds
from kit.curator.pass_fit import PassFit, pass_fit
from kit.curator.progress import Batch, CurationProgress, LostRace
from kit.curator.questions import InboxStore
from kit.curator.records import PassLog
from kit.curator.render import fact_lines
from kit.curator.reports import PassOutcome, UndoResult
from kit.curator.shown import FactSelector, ShownFacts
from kit.curator.undo import PassUndo
from kit.errors import BudgetSpent, InputError, LLMTimeout, LLMUnavailable
from kit.llm.base import LLM, ChatMessage, LLMReply, LLMRequest
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
T = TypeVar("T")

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
        self._search = search
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
        self._ends = PassEnds(
            db, self._applier, self.passes, self.progress, settings, search.vectors.loaded
        )
        self._shown = FactSelector(
            facts,
            search,
            settings.curation.facts_budget_tokens,
            line_tokens=lambda fact: estimate_tokens(fact_lines([fact], tz)) + 1,
        )
        self._lock = asyncio.Lock()  # one curation run at a time in this process
        self._pass_fit: PassFit | None = None
        self._style = style_of(settings.curation.style, settings.llm.preset)
        # The extract style's answer for the batch being curated: one call for every category
        # (or why it was rejected, for the batch's other passes)
        self._extracted: tuple[tuple[str, int, tuple[int, ...]], Extracted | str] | None = None

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
            grounding = Grounding(
                found, source_message_ids, self._settings.owner.name, await self._ends.meanings()
            )
            await grounding.weigh(ops, {})  # before the facts are read: see Grounding.weigh
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
                        reason = conversation_crashed(pending.conversation_id, exc)
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
                        crashed.append(conversation_crashed(pending.conversation_id, exc))
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
        if self._style == "extract":
            return await self._extract_pass(batch, shown, started, fit)
        request = operations_request(
            self._prompts, self._role, batch, shown, self._settings.owner.name, started,
            self._tz, fit.transcript_chars, self._role.output(MAX_TOKENS),
        )  # fmt: skip
        got = await self._call(batch, started, request, fit, shown, self._read_ops, AGAIN_OPS)
        if isinstance(got, PassOutcome):
            return got
        ops, detail = got
        return await self._ends.apply(batch, ops, started, detail, shown)

    def _read_ops(self, reply: LLMReply) -> list[Operation]:
        return operations_from_reply(reply, now=self._clock.now(), tz=self._tz)

    async def _call(
        self,
        batch: Batch,
        started: datetime,
        request: LLMRequest,
        fit: PassFit,
        shown: ShownFacts,
        read: Callable[[LLMReply], T],
        again: str,
    ) -> tuple[T, dict[str, Any]] | PassOutcome:
        """Ask the model and read its answer with `read`: (what was read, the pass's detail),
        or the outcome of a pass that failed (recorded). An answer that could not be read at
        all is asked for once more, saying why and `again`."""
        try:
            reply = await self._llm.complete(request)
        except LLMTimeout as exc:  # counted, backed off: never resent at once (kit/llm/retry.py)
            reason = (
                f"the model did not answer within {self._role.timeout_seconds:g} s "
                f"({self._role.setting('timeout_seconds')}); tried again after a backoff"
            )
            outcome = await self._ends.failed(batch, started, reason, fit.detail(batch))
            raise PassTimedOut(outcome) from exc
        except LLMUnavailable:
            raise
        except Exception as exc:  # a broken adapter or model reply: count it, keep the rest going
            log.exception("curation model call for %s failed", batch.category)
            return await self._ends.failed(batch, started, crash_reason("the model call", exc), {})
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
                return read(reply), detail
            except InvalidOperations as exc:
                if not exc.unreadable:
                    raise
                # Nothing could be read (no call, no JSON): asked once more, saying why. A
                # timed-out call never gets here: it is backed off (kit/llm/retry.py).
                reply = await self._ask_again(request, f"{exc}. {again}", detail)
                return read(reply), detail
        except InvalidOperations as exc:
            log.info(
                "curation pass on %s rejected: %s", batch.category, exc
            )  # reported by its caller
            return await self._ends.failed(batch, started, str(exc), detail, status="rejected")
        except Exception as exc:  # a value no check foresaw: counted like any bad answer
            log.error(
                "reading the curation answer for %s crashed (%s)%s",
                batch.category,
                type(exc).__name__,
                frames(exc),
            )
            reason = crash_reason("reading the answer", exc)
            return await self._ends.failed(batch, started, reason, detail, status="rejected")

    async def _extract_pass(
        self, batch: Batch, shown: ShownFacts, started: datetime, fit: PassFit
    ) -> PassOutcome:
        """A pass of the "extract" style (kit/curator/extract.py): the batch's one answer, asked
        for by its first category's pass and kept for the others, planned into this
        category's INSERTs, applied like any pass's operations."""
        key = (batch.user_id, batch.conversation_id, tuple(m.id for m in batch.messages))
        dropped_before: tuple[str, ...] = ()
        if self._extracted is not None and self._extracted[0] == key:
            extracted = self._extracted[1]
            detail: dict[str, Any] = {
                "conversation_id": batch.conversation_id,
                "answer": "the batch's one answer, asked for by an earlier pass",
                "facts_shown": len(shown.facts),
                "facts_total": shown.total,
                **fit.detail(batch),
            }
            if isinstance(extracted, str):  # that answer was rejected: so is this pass, unasked
                return await self._ends.failed(batch, started, extracted, detail, status="rejected")
        else:
            request = extract_request(
                self._prompts, self._role, batch, self._settings.owner.name, started, self._tz,
                self._fit().transcript_chars, self._role.output(MAX_TOKENS),
            )  # fmt: skip
            wrong: list[str] = []

            def read(reply: LLMReply) -> Extracted:
                try:
                    return candidates_from_reply(reply)
                except InvalidOperations as exc:
                    wrong.append(str(exc))
                    raise

            got = await self._call(batch, started, request, fit, shown, read, AGAIN_EXTRACT)
            if isinstance(got, PassOutcome):
                if got.status == "rejected" and wrong:  # the other categories are not asked
                    self._extracted = (key, f"{wrong[-1]} (the batch's one answer)")
                return got
            extracted, detail = got
            self._extracted = (key, extracted)
            dropped_before = extracted.dropped  # recorded once, by the pass that asked
        grounding = await self._ends.grounding(batch)  # read once: planning and applying
        planned = plan(
            extracted,
            batch.category,
            grounding=grounding,
            people_ids=batch.owner_message_ids,
            speakers=speakers_of(batch, self._settings.owner.name),
            known=shown.facts,
        )
        detail["style"] = "extract"
        if planned.recited:
            detail["recited"] = list(planned.recited)
        return await self._ends.apply(
            batch,
            list(planned.inserts),
            started,
            detail,
            shown,
            dropped_before=(*dropped_before, *planned.dropped),
            grounding=grounding,
        )

    async def _ask_again(self, request: LLMRequest, why: str, detail: dict[str, Any]) -> LLMReply:
        """The same request once more, with what was wrong with the first answer; its tokens
        are added to the pass's. A failure of this call is the pass's failure."""
        again = replace(
            request,
            messages=(
                *request.messages,
                ChatMessage.text("user", f"Your answer could not be read: {why}"),
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


_GOOD = ("applied", "noop")
