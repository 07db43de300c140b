"""The context sandwich: the system prompt for one turn, in a stable order.

    1. the assistant's prompt                                   (cached: changes with prompts/)
    2. the memory index, core facts, the last N days            (cached: changes with memory)
    3. now, the window summary, Relevant Facts, Relevant Past Activity   (per turn)

Memory sits inside <memory> tags marked as recalled data, every piece of it neutralised. Each
part has a cap: the index `memory.index_tokens`, core facts `memory.core_tokens` (pinned first,
then by confidence, use and recency; the owner's other facts are found by search like any
other), recent days `memory.recent_days_tokens`, day summaries among the retrieved items
`memory.context_day_hits`. Then all memory sections share `memory.context_budget_tokens`: the
least relevant retrieved items go first, then the oldest day, then the last core facts.

The builder returns a plan (kit/context/plan.py): every section and item with its score and
reason, what was cut, token counts and stage timings. The turn sends the plan's `system`;
`Kit.context` shows the same plan without writing anything.

Part 2 is cached per user and local day, keyed by memory_versions (bumped by triggers on any
change to facts or days), so a turn reads no core facts or days while memory is unchanged and
the cached prefix stays byte-identical.
"""

from __future__ import annotations

import asyncio
import dataclasses
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, tzinfo

from kit.config import MemorySettings
from kit.context.index import MemoryIndex, MemoryIndexText
from kit.context.plan import ContextItem, ContextSection, Sandwich, Stage
from kit.dates.shown import with_days_shown
from kit.llm.base import SystemBlock
from kit.llm.tokens import estimate_tokens
from kit.memory.days import Day, Days
from kit.memory.fact_rows import Fact
from kit.memory.facts import Facts
from kit.memory.messages import Conversation
from kit.memory.versions import MemoryVersion, MemoryVersions
from kit.notes.store import Notes
from kit.prompts import Prompts
from kit.retrieval.hits import Hit, Searcher, SearchResult
from kit.retrieval.lexical import STOPWORDS
from kit.untrusted.neutralise import MEMORY_NOTE, neutralise

_MEMORY_NOTE = f"<memory>\n{MEMORY_NOTE}\n"
CORE_CANDIDATES = 200  # core facts read per rebuild; the cap keeps far fewer
_OVERHEAD = 120  # headings and memory notes, in tokens
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_CUT_BUDGET = "cut to fit memory.context_budget_tokens"


def _cut_section(hit: Hit) -> str:
    """The plan's section a retrieved item cut from it is listed under."""
    return "facts" if hit.kind == "fact" else "activity"


def _fact_line(fact: Fact) -> str:
    subject = f"[{neutralise(fact.subject, inline=True)}] " if fact.subject else ""
    # One line per fact: a newline in a fact must not start a heading or a fake section.
    return f"- ({fact.category}) {subject}{neutralise(fact.content, inline=True)}"


def _day_heading(day: Day) -> str:
    return f"### {day.day.isoformat()} ({day.day.strftime('%A')})"


def _day_block(day: Day, max_tokens: int | None = None) -> str:
    """A recent day as a block; over `max_tokens`, its first lines and a pointer to the rest."""
    heading = _day_heading(day)
    body = neutralise(day.best.strip())
    block = f"{heading}\n{body}"
    if max_tokens is None or estimate_tokens(block) <= max_tokens:
        return block
    lines = body.splitlines()
    kept: list[str] = []
    for line in lines:
        more = len(lines) - len(kept) - 1
        trial = "\n".join([heading, *kept, line, f"- … {more} more lines: get_day_history"])
        if estimate_tokens(trial) > max_tokens:
            break
        kept.append(line)
    if not kept:
        return ""
    rest = len(lines) - len(kept)
    return "\n".join([heading, *kept, f"- … {rest} more lines: get_day_history"])


def _content_words(text: str) -> set[str]:
    return {w for w in _WORD.findall(text.lower()) if w not in STOPWORDS and len(w) > 1}


def _day_hit_text(day: Day, words: set[str], lines: int = 2) -> str:
    """A retrieved day summary in one line: the bullets that share the most words with the
    message (or the first one), not the whole day; `get_day_history` reads the rest."""
    bullets = [b.strip().lstrip("-*• ").strip() for b in day.best.splitlines()]
    bullets = [b for b in bullets if b]
    if not words:
        return " … ".join(bullets[:1])
    shared = [_shared(b.lower(), words) for b in bullets]
    ranked = sorted(range(len(bullets)), key=lambda i: (-shared[i], i))
    return " … ".join(bullets[i] for i in sorted(ranked[:lines]))


def _shared(text: str, words: set[str]) -> int:
    """How many of `words` the lower-cased `text` holds as whole words (as `_WORD` splits
    it). Split only when one of them occurs in it at all: most bullets hold none, and a
    pattern of the words was compiled anew for every message (issue 33, round 16)."""
    if not any(w in text for w in words):
        return 0
    return len(words.intersection(_WORD.findall(text)))


def _hit_line(hit: Hit, tz: tzinfo, words: set[str]) -> str:
    if hit.fact is not None:
        return _fact_line(hit.fact) + _repeats(hit, tz)
    if hit.day is not None:
        text = _day_hit_text(hit.day, words)
        return f"- {hit.day.day.isoformat()} (day summary): {neutralise(text, inline=True)}"
    local = hit.at.astimezone(tz).strftime("%Y-%m-%d %H:%M")
    who = hit.message.speaker or hit.message.role if hit.message else ""
    # A long message shows the passage that matched (kit/retrieval/passages.py), with its id
    # and which part it is: the model knows there is more.
    part = f" (message #{hit.id}, part {hit.part} of {hit.parts})" if hit.passage else ""
    # "yesterday" in a message months old is shown with its day: a small model takes the
    # message's own date for the answer (kit/dates/shown.py).
    text = with_days_shown(hit.shown, hit.at.astimezone(tz).date())
    line = f"- {local} {neutralise(who, inline=True)}{part}: {neutralise(text, inline=True)}"
    return line + _repeats(hit, tz)


def _repeats(hit: Hit, tz: tzinfo) -> str:
    """How often an identical line was said, and when last (search merged them)."""
    if hit.repeats <= 1 or hit.latest is None:
        return ""
    return f" (said {hit.repeats}×, the last on {hit.latest.astimezone(tz).strftime('%Y-%m-%d')})"


def _why(hit: Hit) -> str:
    found = []
    if hit.vector_rank is not None:
        cosine = "" if hit.cosine is None else f" (cosine {hit.cosine:.2f})"
        found.append(f"vector #{hit.vector_rank}{cosine}")
    if hit.lexical_rank is not None:
        found.append(f"words #{hit.lexical_rank}")
    how = " + ".join(found) or "next to a matching message"
    return f"retrieved {hit.kind}: {how}"


def _core_reason(fact: Fact) -> str:
    kind = "pinned" if fact.pinned else "about your owner"
    return f"core, {kind}: confidence {fact.confidence:.2f}, used {fact.access_count}×"


def _item(
    kind: str, item_id: int | None, text: str, reason: str, score: float | None = None
) -> ContextItem:
    return ContextItem(kind, item_id, text, estimate_tokens(text), reason, score)


def _because(item: ContextItem, reason: str) -> ContextItem:
    return ContextItem(item.kind, item.id, item.text, item.tokens, reason, item.score)


@dataclass(frozen=True)
class _Stable:
    """Index, core and recent days for one user and local day, at one memory version."""

    today: date
    version: MemoryVersion
    index: str
    core: tuple[tuple[Fact, ContextItem], ...]
    core_cut: tuple[ContextItem, ...]
    days: tuple[tuple[Day, ContextItem], ...]
    days_cut: tuple[ContextItem, ...]
    until: datetime | None  # the first expiry among the shown core facts

    def valid(self, today: date, version: MemoryVersion, now: datetime) -> bool:
        fresh = self.until is None or now < self.until
        return self.today == today and self.version == version and fresh


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
        *,
        versions: MemoryVersions | None = None,
        notes: Notes | None = None,
    ) -> None:
        self._prompts = prompts
        self._facts = facts
        self._days = days
        self._search = search
        self._settings = settings
        self._tz = tz
        self._owner_name = owner_name
        self._versions = versions  # None: nothing is cached (every build reads afresh)
        self._index = MemoryIndex(facts, days, settings.index_tokens, notes)
        self._stable: dict[str, _Stable] = {}

    async def build(
        self,
        user_id: str,
        query: str,
        *,
        now: datetime,
        conversation: Conversation | None = None,
        window_ids: frozenset[int] = frozenset(),
        explain: bool = True,
    ) -> Sandwich:
        """The plan for one message. Reads only: no access stats, no writes. Without
        `explain` (a turn), a retrieved item cut by a cap or the budget is listed without
        its line (text "", 0 tokens): the line is rendered only for what is shown."""
        s = self._settings
        stages: list[Stage] = []
        clock = time.perf_counter()

        def lap(name: str, note: str = "") -> None:
            nonlocal clock
            now_ = time.perf_counter()
            stages.append(Stage(name, (now_ - clock) * 1000, note))
            clock = now_

        async def stable_part() -> tuple[_Stable, bool, float]:
            began = time.perf_counter()
            stable, cached = await self._stable_part(user_id, now)
            return stable, cached, (time.perf_counter() - began) * 1000

        # The cached part and the search (which embeds the message while its lexical
        # searches run) at once: the cached part's stage is marked as run alongside.
        (stable, cached, stable_ms), result = await asyncio.gather(
            stable_part(),
            self._search.search(user_id, query, now=now, k=s.top_k, exclude_message_ids=window_ids),
        )
        stages.append(
            Stage(
                "index, core facts, recent days",
                stable_ms,
                "cached" if cached else "rebuilt",
                alongside=True,
            )
        )
        embedded = "" if result.embed_ms is None else f"embedding {result.embed_ms:.1f} ms of it"
        lap("search facts, days, messages", embedded)
        plan = self._assemble(stable, result, now, conversation, explain)
        lap("fit and render")
        return dataclasses.replace(
            plan, stages=tuple(stages), budget_tokens=s.context_budget_tokens
        )

    async def memory_index(self, user_id: str) -> MemoryIndexText:
        """The memory index the next turn would show (from the cache while memory is unchanged)."""
        if self._versions is None:
            return await self._index.build(user_id)
        return await self._index.get(user_id, await self._versions.get(user_id))

    async def warm(self, user_id: str, now: datetime) -> None:
        """Fill the cached part for `user_id` now (a daemon, after its start), so the next
        turn finds it."""
        await self._stable_part(user_id, now)

    async def _stable_part(self, user_id: str, now: datetime) -> tuple[_Stable, bool]:
        """The cached part (and whether the cache served it)."""
        today = now.astimezone(self._tz).date()
        version = MemoryVersion(-1, -1)
        if self._versions is not None:
            version = await self._versions.get(user_id)
            cached = self._stable.get(user_id)
            if cached is not None and cached.valid(today, version, now):
                return cached, True
        s = self._settings
        if self._versions is None:
            index = await self._index.build(user_id)
        else:
            index = await self._index.get(user_id, version)
        core, core_cut = self._fit_core(await self._facts.core(user_id, now, CORE_CANDIDATES))
        recent = await self._days.recent(user_id, today, s.summary_days)
        days, days_cut = self._fit_days(recent)
        expiries = [f.expires_at for f, _ in core if f.expires_at is not None]
        stable = _Stable(
            today, version, index.text, core, core_cut, days, days_cut, min(expiries, default=None)
        )
        if self._versions is not None:
            self._stable[user_id] = stable
        return stable, False

    def _fit_core(
        self, candidates: Sequence[Fact]
    ) -> tuple[tuple[tuple[Fact, ContextItem], ...], tuple[ContextItem, ...]]:
        kept: list[tuple[Fact, ContextItem]] = []
        cut: list[ContextItem] = []
        used = 0
        for fact in candidates:
            item = _item("fact", fact.id, _fact_line(fact), _core_reason(fact))
            if not cut and used + item.tokens + 1 <= self._settings.core_tokens:
                kept.append((fact, item))
                used += item.tokens + 1
            else:
                reason = "over memory.core_tokens: found by search like any other fact"
                cut.append(ContextItem("fact", fact.id, item.text, item.tokens, reason))
        return tuple(kept), tuple(cut)

    def _fit_days(
        self, recent: Sequence[Day]
    ) -> tuple[tuple[tuple[Day, ContextItem], ...], tuple[ContextItem, ...]]:
        """Newest day first within memory.recent_days_tokens; a day that does not fit whole
        shows its first lines."""
        room = self._settings.recent_days_tokens
        kept: list[tuple[Day, ContextItem]] = []
        cut: list[ContextItem] = []
        for day in reversed(recent):
            block = _day_block(day, max(room, 0))
            if not block:
                text = _day_block(day)
                reason = "over memory.recent_days_tokens"
                cut.append(_item("day", day.id, text, reason))
                continue
            whole = block == _day_block(day)
            reason = "one of the last days" + ("" if whole else ", its first lines")
            item = _item("day", day.id, block, reason)
            kept.insert(0, (day, item))
            room -= item.tokens + 1
        return tuple(kept), tuple(cut)

    def _assemble(
        self,
        stable: _Stable,
        result: SearchResult,
        now: datetime,
        conversation: Conversation | None,
        explain: bool = True,
    ) -> Sandwich:
        s = self._settings
        core_ids = {f.id for f, _ in stable.core}
        recent_days = {d.day for d, _ in stable.days}
        words = _content_words(result.query)

        def item_of(hit: Hit, reason: str = "") -> ContextItem:
            if reason and not explain:  # cut: its line is rendered only to be explained
                return ContextItem(hit.kind, hit.id, "", 0, reason, hit.score)
            text = _hit_line(hit, self._tz, words)
            return _item(hit.kind, hit.id, text, reason or _why(hit), hit.score)

        candidates: list[Hit] = []
        cut: list[tuple[str, ContextItem]] = []  # (section, item) cut this turn
        day_hits = 0
        for hit in sorted(result.hits, key=lambda h: -h.score):
            if hit.fact is not None and hit.id in core_ids:
                continue
            if hit.day is not None and hit.day.day in recent_days:
                continue
            if hit.day is not None:
                day_hits += 1
                if day_hits > s.context_day_hits:
                    cut.append(("activity", item_of(hit, "over memory.context_day_hits")))
                    continue
            candidates.append(hit)
        summary = conversation.window_summary.strip() if conversation else ""
        summary_text = neutralise(summary) if summary else ""
        core = list(stable.core)
        days = list(stable.days)
        trimmed = 0
        budget = s.context_budget_tokens - estimate_tokens(summary_text)
        used = (
            _OVERHEAD
            + estimate_tokens(stable.index)
            + sum(i.tokens + 1 for _, i in core)
            + sum(i.tokens + 1 for _, i in days)
        )
        # A strong vector hit (its meaning stands out, whatever its words) is cut last. The
        # least relevant go first until the rest fit: the longest run of the best that fits
        # is kept (lines are rendered in that order, and the first that does not fit ends it).
        candidates.sort(key=lambda h: (not h.strong, -h.score))
        relevant: list[tuple[Hit, ContextItem]] = []
        for at, hit in enumerate(candidates):
            item = item_of(hit)
            if used + item.tokens + 1 > budget:
                for rest in reversed(candidates[at + 1 :]):
                    cut.append((_cut_section(rest), item_of(rest, _CUT_BUDGET)))
                item = _because(item, _CUT_BUDGET) if explain else item_of(hit, _CUT_BUDGET)
                cut.append((_cut_section(hit), item))
                trimmed = len(candidates) - at
                break
            relevant.append((hit, item))
            used += item.tokens + 1
        while used > budget and (days or core):
            if days:
                item, section = days.pop(0)[1], "recent"
            else:
                item, section = core.pop()[1], "core"
            used -= item.tokens + 1
            cut.append((section, _because(item, _CUT_BUDGET)))
            trimmed += 1

        prompt = self._prompts.render(
            "chat", owner_name=f", {self._owner_name}" if self._owner_name else ""
        )
        sections = [ContextSection("prompt", "assistant prompt", True, estimate_tokens(prompt))]
        stable_parts: list[str] = []
        if stable.index:
            stable_parts.append(stable.index)
            item = _item("index", None, stable.index, "what memory holds, for search_memory")
            sections.append(ContextSection("index", "Memory index", True, item.tokens, (item,)))
        if core:
            text = "## Core facts about your owner\n" + "\n".join(i.text for _, i in core)
            stable_parts.append(text)
        sections.append(
            _section("core", "Core facts about your owner", True, core, stable.core_cut, cut)
        )
        if days:
            stable_parts.append("## Recent days\n" + "\n\n".join(i.text for _, i in days))
        sections.append(_section("recent", "Recent days", True, days, stable.days_cut, cut))
        stable_text = ""
        if stable_parts:
            stable_text = "\n".join([_MEMORY_NOTE, *stable_parts, "</memory>"])

        local = now.astimezone(self._tz)
        time_line = f"Current time: {local.strftime('%A %Y-%m-%d %H:%M')} ({local.tzname()})"
        sections.append(ContextSection("time", "Current time", False, estimate_tokens(time_line)))
        dynamic = [time_line]
        facts = [(h, i) for h, i in relevant if h.kind == "fact"]
        activity = sorted(((h, i) for h, i in relevant if h.kind != "fact"), key=lambda x: x[0].at)
        if summary_text or facts or activity:
            dynamic.append(_MEMORY_NOTE.rstrip())
            if summary_text:
                text = "## Earlier in this conversation\n" + summary_text
                dynamic.append(text)
                item = _item("summary", None, summary_text, "the conversation's rolling summary")
                sections.append(
                    ContextSection(
                        "summary", "Earlier in this conversation", False, item.tokens, (item,)
                    )
                )
            if facts:
                dynamic.append("## Relevant Facts\n" + "\n".join(i.text for _, i in facts))
            if activity:
                dynamic.append(
                    "## Relevant Past Activity\n" + "\n".join(i.text for _, i in activity)
                )
            dynamic.append("</memory>")
        sections.append(_section("facts", "Relevant Facts", False, facts, (), cut))
        sections.append(_section("activity", "Relevant Past Activity", False, activity, (), cut))
        dynamic_text = "\n\n".join(dynamic)
        blocks = [SystemBlock(prompt, cache=True)]
        if stable_text:
            blocks.append(SystemBlock(stable_text, cache=True))
        blocks.append(SystemBlock(dynamic_text))
        return Sandwich(
            system=tuple(blocks),
            core_facts=tuple(f for f, _ in core),
            recent_days=tuple(d for d, _ in days),
            relevant=tuple(h for h, _ in sorted(relevant, key=lambda x: -x[0].score)),
            trimmed=trimmed,
            memory_tokens=estimate_tokens(stable_text) + estimate_tokens(dynamic_text),
            search=result,
            sections=tuple(sections),
        )


def _section(
    name: str,
    title: str,
    cached: bool,
    kept: Sequence[tuple[object, ContextItem]],
    capped: Sequence[ContextItem],
    cut: Sequence[tuple[str, ContextItem]],
) -> ContextSection:
    items = tuple(i for _, i in kept)
    tokens = 0
    if items:
        tokens = estimate_tokens(f"## {title}\n" + "\n".join(i.text for i in items))
    dropped = (*(i for section, i in cut if section == name), *capped)
    return ContextSection(name, title, cached, tokens, items, dropped)
