"""REM, the nightly consolidation, in four steps:

1. condense: each detailed daily summary not yet condensed becomes 10-15 bullets of outcomes and
   decisions (the detailed one stays; the context shows the condensed one);
2. review: facts unused for `rem.stale_days` go to the small model, which may lower confidence,
   set an expiry or deactivate, through the curator's guarded `apply_ops` (see review.py);
3. copies: a fact stored twice (the same words, kit/memory/same_fact.py) is kept once, the
   copies retired through the same guarded `apply_ops`, one undoable pass a category (see
   copies.py);
4. expire: active facts past their expiry are deactivated with reason "expired" (never deleted),
   unless that would retire more of a category than a curation pass may: then that category
   is held and reported (see expiry.py).

Each step lands whole (one transaction, or one guarded pass per reviewed batch); a step that
fails is reported and the next one still runs. The report (what was condensed, changed and
rejected, tokens used) is stored, except for a dry run, which only plans and applies nothing.

Nothing is re-processed in a loop: a day whose condensed answer was unusable, or a category
whose review was rejected, is counted (kit/jobs/attempts.py); the nightly run retries it at
most three times in all, then holds it (`kit rem` tries held work again). When the background
budget is spent, the model steps stop, keep what they finished, and wait for the next night.

Never two at once: a run holds the "rem" job lease (kit/jobs/runs.py). A manual run while
another is going (the nightly one, or one in another process) is refused with `JobBusy`.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, field
from datetime import date, datetime, tzinfo
from typing import Any

from kit.clock import Clock, from_iso, to_iso
from kit.curator.copies import CopySweep
from kit.curator.expiry import Expiry
from kit.curator.reports import REM_STEPS, RemProgress, RemReport, StepStatus
from kit.curator.review import OpsApplier, StaleReview
from kit.errors import BudgetSpent, KitError, LLMOutputError, LLMTimeout, NotFound
from kit.jobs.attempts import REM_CONDENSE, REM_REVIEW, Attempts
from kit.jobs.runs import JobRuns, known_users
from kit.llm.base import LLM, ChatMessage, LLMRequest, SystemBlock, Usage
from kit.llm.bullets import ask, count_bullets, merge_bullets, parse_bullets
from kit.llm.fit import room, split_lines
from kit.memory.days import Day, Days
from kit.memory.facts import Facts
from kit.model_settings import ModelRole
from kit.prompts import Prompts
from kit.store.db import Database
from kit.text import plural
from kit.untrusted.fingerprint import frames
from kit.untrusted.neutralise import neutralise

log = logging.getLogger(__name__)

JOB = "rem"
PAUSED = "paused until midnight: today's background token budget is spent"
CRASHED = "crashed"
MAX_CONDENSED_BULLETS = 20  # the prompt asks for 10-15
CONDENSE_MAX_TOKENS = 1500
KEPT_AS_IS = "kept as it was: the model's answer had more bullets than the day"
_CONDENSE_SYSTEM = "You condense journal entries without losing outcomes."
ProgressSink = Callable[[RemProgress], Awaitable[None]]


class RemCrashed(KitError):
    """A REM step crashed; its report is stored, the run is recorded as failed."""


@dataclass
class _Draft:
    """The report as it is being built."""

    condensed: list[date] = field(default_factory=list)
    reviewed: int = 0
    changes: list[str] = field(default_factory=list)
    rejected: list[str] = field(default_factory=list)
    expired: list[int] = field(default_factory=list)
    held: list[int] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    steps: list[RemProgress] = field(default_factory=list)


class Rem:
    def __init__(
        self,
        db: Database,
        days: Days,
        facts: Facts,
        llm: LLM,
        prompts: Prompts,
        background: ModelRole,
        review: StaleReview,
        clock: Clock,
        tz: tzinfo,
        job_runs: JobRuns,
        applier: OpsApplier,
        attempts: Attempts,
        expiry: Expiry,
        copies: CopySweep,
    ) -> None:
        self._attempts = attempts
        self._db = db
        self._days = days
        self._facts = facts
        self._llm = llm
        self._prompts = prompts
        self._role = background  # the background model and its limits
        self._review = review
        self._clock = clock
        self._tz = tz
        self._job_runs = job_runs
        self._applier = applier
        self.expiry = expiry
        self._copies = copies

    async def run(
        self,
        user_id: str,
        *,
        dry_run: bool = False,
        only_date: date | None = None,
        on_progress: ProgressSink | None = None,
    ) -> RemReport:
        """Consolidate one user's memory now. With `only_date`, the condense step handles just
        that day (condensing it again if it already was); review and expire run as usual.
        Raises `JobBusy` if REM is already running, here or in another process."""
        if only_date is not None and await self._days.get(user_id, only_date) is None:
            raise NotFound(
                f"{only_date}: no daily summary to condense; `kit summarize --date "
                f"{only_date}` writes it first"
            )
        async with self._job_runs.lease(JOB, label="REM", user_id=user_id) as run:
            return await self._consolidate(
                user_id, dry_run, only_date, on_progress, run.id, unattended=False
            )

    async def nightly(self, scheduled_for: datetime) -> list[RemReport]:
        """The scheduled run: every user, recorded as the run for `scheduled_for`. A step that
        crashed (a bug, not a model or disk problem) does not stop the others, but the run is
        then recorded as failed, so `kit doctor` says so and the next start runs it again."""
        reports = []
        async with self._job_runs.lease(JOB, label="REM", scheduled_for=scheduled_for) as run:
            crashed: list[str] = []
            for user_id in await known_users(self._db):
                report = await self._consolidate(
                    user_id, False, None, None, run.id, unattended=True
                )
                reports.append(report)
                crashed += [
                    f"{s.step} for {user_id}" for s in report.steps if s.detail.startswith(CRASHED)
                ]
            if crashed:
                raise RemCrashed(f"REM crashed in {', '.join(crashed)}; see the log")
        return reports

    async def _consolidate(
        self,
        user_id: str,
        dry_run: bool,
        only_date: date | None,
        on_progress: ProgressSink | None,
        run_id: int,
        *,
        unattended: bool,
    ) -> RemReport:
        """With `unattended` (the nightly run), work that failed lately or is held is left
        alone; a run the owner starts tries it all."""
        started = self._clock.now()
        draft = _Draft()
        steps = {
            "condense": lambda: self._condense(user_id, dry_run, only_date, draft, unattended),
            "review": lambda: self._review_stale(user_id, dry_run, draft, unattended),
            "copies": lambda: self._retire_copies(user_id, dry_run, draft),
            "expire": lambda: self._expire(user_id, dry_run, draft),
        }
        for name in REM_STEPS:
            await _emit(on_progress, RemProgress(name, "running"))
            try:
                status, detail = await steps[name]()
            except BudgetSpent as exc:
                log.info("REM %s step for %s paused: %s", name, user_id, exc)
                status, detail = "skipped", PAUSED
            except KitError as exc:  # the model unreachable, the disk full: say so, go on
                log.warning("REM %s step for %s failed: %s", name, user_id, exc)
                status, detail = "failed", str(exc)
            except Exception as exc:  # a bug: the other steps and users still run
                log.error(
                    "REM %s step for %s crashed (%s)%s",
                    name,
                    user_id,
                    type(exc).__name__,
                    frames(exc),
                )
                status, detail = "failed", f"{CRASHED} ({type(exc).__name__}); see the log"
            event = RemProgress(name, status, detail)
            draft.steps.append(event)
            await _emit(on_progress, event)
        report = RemReport(
            started_at=started,
            finished_at=self._clock.now(),
            dry_run=dry_run,
            condensed_days=tuple(draft.condensed),
            reviewed_facts=draft.reviewed,
            changes=tuple(draft.changes),
            rejected=tuple(draft.rejected),
            expired_fact_ids=tuple(draft.expired),
            held_fact_ids=tuple(draft.held),
            input_tokens=draft.usage.input_tokens,
            output_tokens=draft.usage.output_tokens,
            steps=tuple(draft.steps),
        )
        if not dry_run:
            await self._store(user_id, report, run_id)
        return report

    # -- step 1: condense -------------------------------------------------------------------

    async def _condense(
        self, user_id: str, dry_run: bool, only_date: date | None, draft: _Draft, unattended: bool
    ) -> tuple[StepStatus, str]:
        if only_date is not None:
            day = await self._days.get(user_id, only_date)
            todo = [day] if day is not None else []
        else:
            todo = await self._days.uncondensed(user_id)
        waiting = await self._attempts.blocked(REM_CONDENSE, user_id) if unattended else set()
        todo = [day for day in todo if day.day.isoformat() not in waiting]
        if not todo:
            return "skipped", "no day waiting to be condensed"
        done: list[tuple[Day, str]] = []
        paused = False
        rejected_before = len(draft.rejected)
        notes: dict[date, str] = {}
        for day in todo:
            try:
                text, notes[day.day] = await self._condense_one(user_id, day, draft)
                done.append((day, text))
            except BudgetSpent:
                paused = True  # keep what is done; the rest waits for the next night
                break
            except LLMTimeout:  # counted like a bad answer; the other days wait a night
                reason = (
                    f"the model did not answer within {self._role.timeout_seconds:g} s "
                    f"({self._role.setting('timeout_seconds')})"
                )
                log.warning("REM: condensing %s for %s: %s", day.day, user_id, reason)
                draft.rejected.append(f"condense {day.day}: {reason}")
                if not dry_run:
                    await self._attempts.failed(REM_CONDENSE, user_id, day.day.isoformat(), reason)
                break
            except LLMOutputError as exc:
                log.info(  # in the report's rejected lines, which kit rem and /rem print
                    "REM: condensed summary of %s for %s rejected: %s", day.day, user_id, exc
                )
                draft.rejected.append(f"condense {day.day}: {exc}")
                if not dry_run:
                    await self._attempts.failed(
                        REM_CONDENSE, user_id, day.day.isoformat(), str(exc)
                    )
        if not dry_run and done:
            async with self._db.transaction() as tx:
                for day, text in done:
                    await self._days.put_condensed(user_id, day.day, text, tx)
            await self._attempts.succeeded(
                REM_CONDENSE, user_id, [day.day.isoformat() for day, _ in done]
            )
        verb = "would condense" if dry_run else "condensed"
        for day, text in done:
            draft.condensed.append(day.day)
            split = f", {notes[day.day]}" if notes.get(day.day) else ""
            draft.changes.append(
                f"{verb} {day.day} ({count_bullets(day.detailed)} -> {count_bullets(text)} "
                f"bullets{split})"
            )
        failed = len(draft.rejected) - rejected_before
        detail = f"{len(done)} day(s) {verb}" + (f", {failed} rejected" if failed else "")
        if paused:
            return ("done" if done else "skipped"), f"{detail}; the rest {PAUSED}"
        return ("failed" if not done else "done"), detail

    async def _condense_one(self, user_id: str, day: Day, draft: _Draft) -> tuple[str, str]:
        """The condensed text and, when the day was too long for the model's window, how it
        was split (each part condensed on its own, the bullets merged under their headings)."""
        named = f"{day.day.isoformat()} ({day.day.strftime('%A')})"
        output = self._role.output(CONDENSE_MAX_TOKENS)
        fixed = self._prompts.render("rem_condense", day=named + ", part 10 of 10", detailed="")
        left = room(self._role, output, fixed, _CONDENSE_SYSTEM)
        parts = split_lines(neutralise(day.detailed).splitlines(), left.tokens)
        texts = []
        for number, part in enumerate(parts, 1):
            label = named if len(parts) == 1 else f"{named}, part {number} of {len(parts)}"
            request = LLMRequest(
                model=self._role.model,
                system=(SystemBlock(_CONDENSE_SYSTEM),),
                messages=(
                    ChatMessage.text(
                        "user",
                        self._prompts.render("rem_condense", day=label, detailed="\n".join(part)),
                    ),
                ),
                max_tokens=output,
                purpose="rem_condense",
                user_id=user_id,
            )
            what = f"the condensed summary of {day.day}"
            reply = await ask(self._llm, request, what=what)
            draft.usage += reply.usage
            bullets = count_bullets("\n".join(part))
            limit = min(MAX_CONDENSED_BULLETS, bullets or MAX_CONDENSED_BULLETS)
            answer = parse_bullets(reply, what=what)
            if answer.bullets > limit:
                if len(parts) == 1 and limit == bullets and answer.bullets <= MAX_CONDENSED_BULLETS:
                    # A day already as short as the model makes it: asking again each night
                    # would leave it uncondensed for good, so it is kept word for word. (An
                    # answer longer than any condensed day is broken: rejected, tried again.)
                    return day.detailed, KEPT_AS_IS
                raise LLMOutputError(
                    f"{what} has {answer.bullets} bullets; at most {limit} were asked for"
                )
            texts.append(answer.text)
        return merge_bullets(texts), left.note(len(parts), "condensed")

    # -- step 2: review stale facts ---------------------------------------------------------

    async def _review_stale(
        self, user_id: str, dry_run: bool, draft: _Draft, unattended: bool
    ) -> tuple[StepStatus, str]:
        now = self._clock.now()
        waiting = await self._attempts.blocked(REM_REVIEW, user_id) if unattended else set()
        result = await self._review.run(
            user_id, self._applier, dry_run=dry_run, now=now, skip=waiting
        )
        if not dry_run:
            for category in result.failed:
                await self._attempts.failed(
                    REM_REVIEW, user_id, category, "the review was rejected (see the report)"
                )
            await self._attempts.succeeded(REM_REVIEW, user_id, result.passed)
        draft.usage += result.usage
        draft.reviewed += result.reviewed
        draft.changes.extend(result.changes)
        draft.rejected.extend(result.rejected)
        if result.reviewed == 0:
            return "skipped", "no stale facts"
        verb = "planned" if dry_run else "applied"
        detail = f"{result.reviewed} reviewed, {len(result.changes)} change(s) {verb}"
        if result.rejected:
            detail += f", {len(result.rejected)} batch(es) rejected"
        return "done", detail

    # -- step 3: copies ---------------------------------------------------------------------

    async def _retire_copies(
        self, user_id: str, dry_run: bool, draft: _Draft
    ) -> tuple[StepStatus, str]:
        result = await self._copies.run(user_id, self._applier, dry_run=dry_run)
        draft.changes.extend(result.changes)
        draft.rejected.extend(result.rejected)
        if not result.copies:
            return "skipped", "no fact stored twice"
        verb = "would retire" if dry_run else "retired"
        detail = f"{len(result.changes)} of {result.copies} copies {verb}"
        if result.rejected:
            held = plural(len(result.rejected), "category", "categories")
            detail += f", {held} held (see the report)"
        return "done", detail

    # -- step 4: expire ---------------------------------------------------------------------

    async def _expire(self, user_id: str, dry_run: bool, draft: _Draft) -> tuple[StepStatus, str]:
        plan = await self.expiry.plan(user_id)
        if not plan.due and not plan.held:
            return "skipped", "no expired facts"
        if not dry_run and plan.due:
            await self.expiry.retire(user_id, plan.due)
        verb = "would deactivate" if dry_run else "deactivated"
        for fact in plan.due:
            draft.expired.append(fact.id)
            when = fact.expires_at.astimezone(self._tz).date() if fact.expires_at else "?"
            draft.changes.append(f"{verb} #{fact.id} (expired {when}): {_short(fact.content)}")
        for held in plan.held:
            log.warning(
                "REM held the expiry of %d %s facts for %s: more than one night may retire",
                len(held.fact_ids),
                held.category,
                user_id,
            )
            draft.held.extend(held.fact_ids)
            draft.rejected.append(held.describe())
        detail = f"{len(plan.due)} expired fact(s) {verb}"
        if plan.held:
            detail += f", {sum(len(h.fact_ids) for h in plan.held)} held (see the report)"
        return "done", detail

    # -- reports ----------------------------------------------------------------------------

    async def _store(self, user_id: str, report: RemReport, run_id: int) -> None:
        async with self._db.transaction() as tx:
            await tx.execute(
                "INSERT INTO rem_reports (user_id, job_run_id, started_at, finished_at,"
                " report_json) VALUES (?, ?, ?, ?, ?)",
                (
                    user_id,
                    run_id,
                    to_iso(report.started_at),
                    to_iso(report.finished_at),
                    json.dumps(report_json(report)),
                ),
            )

    async def last_report(self, user_id: str) -> RemReport | None:
        """The latest stored report (dry runs are never stored)."""
        text = await self._db.scalar(
            "SELECT report_json FROM rem_reports WHERE user_id = ? ORDER BY id DESC LIMIT 1",
            (user_id,),
        )
        return None if text is None else report_from_json(json.loads(text))


def _short(text: str) -> str:
    return text if len(text) <= 70 else text[:67] + "..."


async def _emit(sink: ProgressSink | None, event: RemProgress) -> None:
    if sink is not None:
        await sink(event)


def report_json(report: RemReport) -> dict[str, Any]:
    """A JSON-ready report (for storage, `kit rem --json` and the control socket)."""
    data = asdict(report)
    data["started_at"] = to_iso(report.started_at)
    data["finished_at"] = to_iso(report.finished_at)
    data["condensed_days"] = [d.isoformat() for d in report.condensed_days]
    return data


def report_from_json(data: dict[str, Any]) -> RemReport:
    return RemReport(
        started_at=from_iso(data["started_at"]),
        finished_at=from_iso(data["finished_at"]),
        dry_run=bool(data["dry_run"]),
        condensed_days=tuple(date.fromisoformat(d) for d in data["condensed_days"]),
        reviewed_facts=int(data["reviewed_facts"]),
        changes=tuple(data["changes"]),
        rejected=tuple(data["rejected"]),
        expired_fact_ids=tuple(data["expired_fact_ids"]),
        held_fact_ids=tuple(data.get("held_fact_ids", ())),
        input_tokens=int(data["input_tokens"]),
        output_tokens=int(data["output_tokens"]),
        steps=tuple(RemProgress(s["step"], s["status"], s["detail"]) for s in data["steps"]),
    )
