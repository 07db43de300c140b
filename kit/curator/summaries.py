"""Daily summaries: at day end the small model writes each day's detailed summary (what was
worked on, decided, left open), and any earlier day with messages but no summary gets one too.

A day is (re)written when it has no summary or has gained messages since its summary was
written. Scheduled jobs' own messages (`source='job'`) are not part of the day. Output that does
not pass `parse_bullets` is not stored: it is logged and counted (kit/jobs/attempts.py). The
day-end job retries a failed day on later runs, at most three times in all, then holds it;
`kit summarize` tries every day, held ones included. When the background budget is spent the
job stops and the days wait for the next run after midnight. A line of the summary naming a
name, number or date no message of the day says is left out, and the run says why
(kit/curator/summary_check.py).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, tzinfo

from kit.clock import local_date
from kit.config import OwnerSettings
from kit.curator.summary_check import check_summary
from kit.errors import BudgetSpent, LLMOutputError, LLMTimeout, NotFound
from kit.jobs.attempts import DAILY_SUMMARY, Attempts
from kit.jobs.runs import JobRuns, known_users
from kit.llm.base import LLM, ChatMessage, LLMRequest, SystemBlock
from kit.llm.bullets import ask, merge_bullets, parse_bullets
from kit.llm.fit import room, split_lines
from kit.memory.days import Day, Days
from kit.memory.messages import Message, Messages, attributed
from kit.model_settings import ModelRole
from kit.prompts import Prompts
from kit.store.db import Database
from kit.untrusted.neutralise import neutralise

log = logging.getLogger(__name__)

# (days done, days in this round): a command's progress bar.
OnProgress = Callable[[int, int], object]

JOB = "daily_summary"
MAX_BULLETS = 80  # the prompt asks for 30-50 on a busy day; far beyond that is not a summary
MAX_MESSAGE_CHARS = 2000  # one pasted log must not crowd out the rest of the day
SUMMARY_MAX_TOKENS = 4096
_SYSTEM = "You write faithful, concise daily summaries as Markdown bullet lists."


@dataclass
class SummaryRun:
    """What one round of daily summaries did, per day."""

    written: list[date] = field(default_factory=list)
    rejected: list[tuple[date, str]] = field(default_factory=list)  # (day, why)
    waiting: list[date] = field(default_factory=list)  # failed lately or held: left alone
    split: dict[date, str] = field(default_factory=dict)  # day -> how it was split to fit
    # day -> why each line left out was (names, numbers, dates no message of the day says)
    dropped: dict[date, tuple[str, ...]] = field(default_factory=dict)
    timed_out: bool = False  # the model took too long: the round stopped there


def format_day_transcript(messages: list[Message], tz: tzinfo) -> str:
    lines = []
    for m in messages:
        default = "Owner" if m.role == "user" else "Kit"
        who = attributed(neutralise(m.speaker, inline=True) or default, m)
        text = m.text.strip()
        if len(text) > MAX_MESSAGE_CHARS:
            text = text[:MAX_MESSAGE_CHARS] + f" [... {len(text) - MAX_MESSAGE_CHARS} more chars]"
        text = neutralise(text, inline=True)
        lines.append(f"[{m.at.astimezone(tz).strftime('%H:%M')}] {who}: {text}")
    return "\n".join(lines)


class DaySummarizer:
    def __init__(
        self,
        db: Database,
        messages: Messages,
        days: Days,
        llm: LLM,
        prompts: Prompts,
        background: ModelRole,
        owner: OwnerSettings,
        tz: tzinfo,
        job_runs: JobRuns,
        attempts: Attempts,
    ) -> None:
        self._attempts = attempts
        self._db = db
        self._messages = messages
        self._days = days
        self._llm = llm
        self._prompts = prompts
        self._role = background  # the background model and its limits
        self._owner = owner
        self._tz = tz
        self._job_runs = job_runs

    async def day_messages(self, user_id: str, day: date) -> list[Message]:
        """The day as the summary sees it: everything but scheduled jobs' own messages."""
        return [m for m in await self._messages.on_day(user_id, day) if m.source != "job"]

    async def summarize_day(self, user_id: str, day: date) -> Day:
        """Write (or rewrite) one day's detailed summary. Raises `LLMOutputError` for bad
        output (nothing stored) and `LLMUnavailable` when the model cannot be reached."""
        return (await self._summarize(user_id, day))[0]

    async def _summarize(self, user_id: str, day: date) -> tuple[Day, str, tuple[str, ...]]:
        """The summary; when the day was too long for the model's window, how it was split
        (each part is summarised on its own and the parts' bullets are merged under their
        headings: nothing of the day is left out); and why each line the day's messages do
        not hold up was left out (kit/curator/summary_check.py)."""
        messages = await self.day_messages(user_id, day)
        if not messages:
            raise NotFound(f"{day}: no messages that day, so there is nothing to summarise")
        owner_name = self._owner.name if user_id == self._owner.user_id else ""
        named = f"{day.isoformat()} ({day.strftime('%A')})"
        lines = format_day_transcript(messages, self._tz).splitlines()
        output = self._role.output(SUMMARY_MAX_TOKENS)
        fixed = self._prompt(owner_name, named + ", part 10 of 10", len(messages), "")
        left = room(self._role, output, fixed, _SYSTEM)
        parts = split_lines(lines, left.tokens)
        texts = []
        for number, part in enumerate(parts, 1):
            label = named if len(parts) == 1 else f"{named}, part {number} of {len(parts)}"
            request = LLMRequest(
                model=self._role.model,
                system=(SystemBlock(_SYSTEM),),
                messages=(
                    ChatMessage.text(
                        "user", self._prompt(owner_name, label, len(part), "\n".join(part))
                    ),
                ),
                max_tokens=output,
                purpose="daily_summary",
                user_id=user_id,
            )
            what = f"the summary of {day}" + (f" (part {number})" if len(parts) > 1 else "")
            reply = await ask(self._llm, request, what=what)
            texts.append(parse_bullets(reply, what=what, max_bullets=MAX_BULLETS).text)
        note = left.note(len(parts), "summarised")
        if note:
            log.info("daily summary of %s for %s: %s", day, user_id, note)
        checked = check_summary(merge_bullets(texts), messages, day, owner_name, self._tz)
        if not any(line.lstrip().startswith("- ") for line in checked.text.splitlines()):
            raise LLMOutputError(
                f"the summary of {day}: every line names what no message of the day says"
            )
        for why in checked.dropped:  # the run reports them; the log names no line's text
            log.info("daily summary of %s for %s: left out %s", day, user_id, why)
        await self._days.put_detailed(user_id, day, checked.text, len(messages))
        written = await self._days.get(user_id, day)
        assert written is not None
        return written, note, checked.dropped

    def _prompt(self, owner_name: str, day: str, count: int, messages: str) -> str:
        return self._prompts.render(
            "daily_summary",
            owner_name=f", {owner_name}" if owner_name else "",
            day=day,
            message_count=count,
            messages=messages,
        )

    async def pending(
        self, user_id: str, today: date, *, include_today: bool = False
    ) -> list[date]:
        """Days before `today` (and `today` itself at day end) that have messages but no summary,
        or more messages than their summary was written from."""
        last = today if include_today else today - timedelta(days=1)
        rows = await self._db.fetchall(
            "SELECT m.day, COUNT(*) AS n, d.id, d.message_count FROM messages m"
            " LEFT JOIN days d ON d.user_id = m.user_id AND d.day = m.day"
            " WHERE m.user_id = ? AND m.source != 'job' AND m.day <= ?"
            " GROUP BY m.day, d.id, d.message_count"  # one summary per day at most
            # message_count 0 on an existing summary means "not known" (e.g. a restored export)
            " HAVING d.id IS NULL OR (d.message_count > 0 AND COUNT(*) > d.message_count)"
            " ORDER BY m.day",
            (user_id, last.isoformat()),
        )
        return [date.fromisoformat(r[0]) for r in rows]

    async def summarize_many(
        self,
        user_id: str,
        days: list[date],
        *,
        unattended: bool = False,
        on_progress: OnProgress | None = None,
    ) -> SummaryRun:
        """Summarise each day in turn; a day whose output is rejected is logged, counted and
        skipped (it stays pending). Unattended, days that failed lately or are held are left
        alone. `LLMUnavailable` (and `BudgetSpent`) stops the round: days written so far stay."""
        run = SummaryRun()
        waiting = await self._attempts.blocked(DAILY_SUMMARY, user_id) if unattended else set()
        for done, day in enumerate(days):
            if on_progress is not None:
                on_progress(done, len(days))
            if day.isoformat() in waiting:
                run.waiting.append(day)
                continue
            try:
                _, note, dropped = await self._summarize(user_id, day)
            except LLMTimeout:  # counted and backed off, never resent at once
                reason = (
                    f"the model did not answer within {self._role.timeout_seconds:g} s "
                    f"({self._role.setting('timeout_seconds')}); tried again after a backoff"
                )
                await self._attempts.failed(DAILY_SUMMARY, user_id, day.isoformat(), reason)
                log.warning("daily summary of %s for %s: %s", day, user_id, reason)
                run.rejected.append((day, reason))
                run.timed_out = True  # a model this slow: the other days wait for a later run
                break
            except LLMOutputError as exc:
                attempt = await self._attempts.failed(
                    DAILY_SUMMARY, user_id, day.isoformat(), str(exc)
                )
                log.info(  # the run reports it (kit summarize prints it; the job line counts it)
                    "daily summary of %s for %s not stored (attempt %d%s): %s",
                    day,
                    user_id,
                    attempt.attempts,
                    ", held until `kit summarize` retries it" if attempt.held else "",
                    exc,
                )
                run.rejected.append((day, str(exc)))
                continue
            await self._attempts.succeeded(DAILY_SUMMARY, user_id, [day.isoformat()])
            run.written.append(day)
            if note:
                run.split[day] = note
            if dropped:
                run.dropped[day] = dropped
        return run

    async def summarize_pending(
        self, user_id: str, today: date, *, include_today: bool = False
    ) -> list[date]:
        """Write every pending summary (see `pending`); returns the days written."""
        days = await self.pending(user_id, today, include_today=include_today)
        return (await self.summarize_many(user_id, days)).written

    async def day_end(self, now: datetime, *, scheduled_for: datetime | None = None) -> SummaryRun:
        """The scheduled job: every user's pending days up to and including the day of
        `scheduled_for` (a caught-up run the next morning stops at the missed day).

        A user whose budget is spent is passed over and the others go on; then `BudgetSpent`
        is raised, so the run is recorded as paused and resumed after midnight."""
        through = local_date(scheduled_for or now, self._tz)
        total = SummaryRun()
        async with self._job_runs.lease(
            JOB, label="the daily summary", scheduled_for=scheduled_for
        ):
            paused: BudgetSpent | None = None
            for user_id in await known_users(self._db):
                days = await self.pending(user_id, through, include_today=True)
                try:
                    run = await self.summarize_many(user_id, days, unattended=True)
                except BudgetSpent as exc:
                    if exc.user_id is None:
                        raise  # everyone's budget: nobody else can go on either
                    paused = paused or exc
                    continue
                total.written += run.written
                total.rejected += run.rejected
                total.waiting += run.waiting
                total.split |= run.split
                total.dropped |= run.dropped
                if run.timed_out:
                    total.timed_out = True
                    break  # the model is too slow for now: the rest waits for the next run
            if paused is not None:
                raise paused
        return total

    async def manual(
        self,
        user_id: str,
        today: date,
        day: date | None = None,
        *,
        on_progress: OnProgress | None = None,
    ) -> SummaryRun:
        """`kit summarize`: one named day (rewritten even if it has a summary), or every pending
        day before today. Holds the same lease as the scheduled job."""
        async with self._job_runs.lease(JOB, label="the daily summary", user_id=user_id):
            if day is None:
                days = await self.pending(user_id, today)
                return await self.summarize_many(user_id, days, on_progress=on_progress)
            if not await self.day_messages(user_id, day):
                raise NotFound(f"{day}: no messages that day, so there is nothing to summarise")
            return await self.summarize_many(user_id, [day], on_progress=on_progress)
