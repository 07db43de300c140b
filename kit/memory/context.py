"""The context sandwich: the system prompt for one turn, in a stable order.

    1. the assistant's prompt                          (cached: changes only with prompts/)
    2. core facts + the last N days, condensed          (cached: changes a few times a day)
    3. now, the window summary, Relevant Facts, Relevant Past Activity   (per turn)

Memory sits inside <memory> tags marked as recalled data. The memory sections share a token
budget; when it is exceeded the least relevant retrieved items go first, then the oldest day,
then the least confident core facts.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, tzinfo

from kit.config import MemorySettings
from kit.llm.base import SystemBlock
from kit.memory.days import Day, Days
from kit.memory.facts import Fact, Facts
from kit.memory.messages import Conversation
from kit.memory.search import Hit, Searcher, SearchResult
from kit.neutralise import MEMORY_NOTE, neutralise
from kit.prompts import Prompts
from kit.tokens import estimate_tokens

_MEMORY_NOTE = f"<memory>\n{MEMORY_NOTE}\n"


@dataclass(frozen=True)
class Sandwich:
    system: tuple[SystemBlock, ...]
    core_facts: tuple[Fact, ...]
    recent_days: tuple[Day, ...]
    relevant: tuple[Hit, ...]
    trimmed: int  # items dropped to fit the budget
    memory_tokens: int
    search: SearchResult

    @property
    def tokens(self) -> int:
        return sum(estimate_tokens(b.text) for b in self.system)

    @property
    def fact_ids(self) -> tuple[int, ...]:
        ids = [f.id for f in self.core_facts] + [h.id for h in self.relevant if h.kind == "fact"]
        return tuple(dict.fromkeys(ids))

    @property
    def days_used(self) -> tuple[date, ...]:
        shown = [d.day for d in self.recent_days]
        shown += [h.day.day for h in self.relevant if h.day is not None]
        return tuple(dict.fromkeys(shown))


def _fact_line(fact: Fact) -> str:
    subject = f"[{neutralise(fact.subject, inline=True)}] " if fact.subject else ""
    # One line per fact: a newline in a fact must not start a heading or a fake section.
    return f"- ({fact.category}) {subject}{neutralise(fact.content, inline=True)}"


def _day_block(day: Day) -> str:
    heading = f"### {day.day.isoformat()} ({day.day.strftime('%A')})"
    return f"{heading}\n{neutralise(day.best.strip())}"


def _hit_line(hit: Hit, tz: tzinfo) -> str:
    if hit.fact is not None:
        return _fact_line(hit.fact)
    if hit.day is not None:
        return f"- {hit.day.day.isoformat()} (day summary): {neutralise(hit.text, inline=True)}"
    local = hit.at.astimezone(tz).strftime("%Y-%m-%d %H:%M")
    who = hit.message.speaker or hit.message.role if hit.message else ""
    return f"- {local} {neutralise(who, inline=True)}: {neutralise(hit.text, inline=True)}"


class ContextBuilder:
    def __init__(
        self,
        prompts: Prompts,
        facts: Facts,
        days: Days,
        search: Searcher,
        settings: MemorySettings,
        tz: tzinfo,
        owner_name: str,
    ) -> None:
        self._prompts = prompts
        self._facts = facts
        self._days = days
        self._search = search
        self._settings = settings
        self._tz = tz
        self._owner_name = owner_name

    async def build(
        self,
        user_id: str,
        query: str,
        *,
        now: datetime,
        conversation: Conversation | None = None,
        window_ids: frozenset[int] = frozenset(),
    ) -> Sandwich:
        s = self._settings
        today = now.astimezone(self._tz).date()
        core = await self._facts.core(user_id, now)
        recent = await self._days.recent(user_id, today, s.summary_days)
        result = await self._search.search(
            user_id, query, now=now, k=s.top_k, exclude_message_ids=window_ids
        )
        core_ids = {f.id for f in core}
        recent_days = {d.day for d in recent}
        relevant = [
            h
            for h in result.hits
            if not (h.fact is not None and h.id in core_ids)
            and not (h.day is not None and h.day.day in recent_days)
        ]
        summary = conversation.window_summary if conversation else ""
        core, recent, relevant, trimmed = self._fit(core, recent, relevant, summary)
        prompt = self._prompts.render(
            "chat", owner_name=f", {self._owner_name}" if self._owner_name else ""
        )
        stable = self._stable_block(core, recent)
        dynamic = self._dynamic_block(now, summary, relevant)
        blocks = [SystemBlock(prompt, cache=True)]
        if stable:
            blocks.append(SystemBlock(stable, cache=True))
        blocks.append(SystemBlock(dynamic))
        return Sandwich(
            system=tuple(blocks),
            core_facts=tuple(core),
            recent_days=tuple(recent),
            relevant=tuple(relevant),
            trimmed=trimmed,
            memory_tokens=estimate_tokens(stable) + estimate_tokens(dynamic),
            search=result,
        )

    def _fit(
        self, core: list[Fact], recent: list[Day], relevant: list[Hit], summary: str
    ) -> tuple[list[Fact], list[Day], list[Hit], int]:
        """Drop items until the memory sections fit the budget, least relevant first."""
        budget = self._settings.context_budget_tokens - estimate_tokens(summary)
        relevant = sorted(relevant, key=lambda h: -h.score)
        core = sorted(core, key=lambda f: (-int(f.pinned), -f.confidence, f.id))

        def used() -> int:
            return (
                sum(estimate_tokens(_fact_line(f)) + 1 for f in core)
                + sum(estimate_tokens(_day_block(d)) + 1 for d in recent)
                + sum(estimate_tokens(_hit_line(h, self._tz)) + 1 for h in relevant)
                + 120  # headings and the memory note
            )

        trimmed = 0
        total = used()
        while total > budget and (relevant or recent or core):
            if relevant:
                dropped = relevant.pop()
                total -= estimate_tokens(_hit_line(dropped, self._tz)) + 1
            elif len(recent) > 0:
                total -= estimate_tokens(_day_block(recent.pop(0))) + 1
            else:
                total -= estimate_tokens(_fact_line(core.pop())) + 1
            trimmed += 1
        return core, recent, relevant, trimmed

    def _stable_block(self, core: list[Fact], recent: list[Day]) -> str:
        if not core and not recent:
            return ""
        parts = [_MEMORY_NOTE]
        if core:
            parts.append("## Core facts about your owner\n" + "\n".join(map(_fact_line, core)))
        if recent:
            parts.append("## Recent days\n" + "\n\n".join(map(_day_block, recent)))
        parts.append("</memory>")
        return "\n".join(parts)

    def _dynamic_block(self, now: datetime, summary: str, relevant: list[Hit]) -> str:
        local = now.astimezone(self._tz)
        parts = [f"Current time: {local.strftime('%A %Y-%m-%d %H:%M')} ({local.tzname()})"]
        facts = [h for h in relevant if h.kind == "fact"]
        activity = [h for h in relevant if h.kind != "fact"]
        if summary or facts or activity:
            parts.append(_MEMORY_NOTE.rstrip())
            if summary:
                parts.append("## Earlier in this conversation\n" + neutralise(summary.strip()))
            if facts:
                parts.append(
                    "## Relevant Facts\n" + "\n".join(_hit_line(h, self._tz) for h in facts)
                )
            if activity:
                activity.sort(key=lambda h: h.at)
                parts.append(
                    "## Relevant Past Activity\n"
                    + "\n".join(_hit_line(h, self._tz) for h in activity)
                )
            parts.append("</memory>")
        return "\n\n".join(parts)
