"""The tools the chat model may call. Read-only memory access, plus `remember`; the note
tools live with the notes (kit/notes/tools.py)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, tzinfo
from typing import Any

from kit.clock import EARLIEST, LATEST
from kit.config import CATEGORIES
from kit.context.window import format_transcript
from kit.dates.shown import with_days_shown
from kit.errors import ConfigError, InputError, KitError
from kit.llm.base import ToolSpec
from kit.memory.chat_filler import without_filler
from kit.memory.days import Day, Days
from kit.memory.fact_rows import MAX_CONTENT_CHARS
from kit.memory.fact_times import end_of_day
from kit.memory.fact_writer import Provenance
from kit.memory.facts import Facts
from kit.memory.messages import Message, Messages
from kit.notes.tools import NOTE_TOOL_SPECS, NOTE_TOOLS, NoteTools
from kit.reminders.tools import REMINDER_TOOL_SPECS, REMINDER_TOOLS, ReminderTools
from kit.retrieval.hits import Hit
from kit.retrieval.kinds import KINDS, NOTES
from kit.retrieval.search import MemorySearch
from kit.secrets import find_secret
from kit.tool_input import checked_input
from kit.untrusted.neutralise import neutralise, recalled_block

log = logging.getLogger(__name__)

MAX_QUERY_CHARS = 2000  # a search query (every front-end's): a question, not a document

TOOL_SPECS: tuple[ToolSpec, ...] = (
    ToolSpec(
        "search_memory",
        "Search everything you remember about the owner: long-term facts, daily summaries, "
        "the archive of past messages and the owner's notes. Use a short, specific query "
        "(names, topics, dates).",
        {
            "type": "object",
            "properties": {
                "query": {
                    "type": "string",
                    "description": "what to look for",
                    "maxLength": MAX_QUERY_CHARS,
                },
                "as_of": {
                    "type": "string",
                    "description": "YYYY-MM-DD: what was known then (facts that held that day)",
                },
            },
            "required": ["query"],
        },
    ),
    ToolSpec(
        "get_day_history",
        "Read the summary of one day (what was worked on, decided, left open). Accepts "
        "YYYY-MM-DD, 'today' or 'yesterday'.",
        {
            "type": "object",
            "properties": {"date": {"type": "string", "description": "YYYY-MM-DD"}},
            "required": ["date"],
        },
    ),
    ToolSpec(
        "remember",
        "Store a long-term fact about the owner when they ask you to remember something: "
        "what they said, as they said it, in one self-contained sentence. Never a plan, a "
        "wish, a guess or your own suggestion; never secrets (passwords, keys, card numbers).",
        {
            "type": "object",
            "properties": {
                "fact": {"type": "string", "description": "the fact, as one sentence"},
                "category": {"type": "string", "enum": list(CATEGORIES)},
                "subject": {"type": "string", "description": "who or what it is about"},
            },
            "required": ["fact"],
        },
    ),
    *REMINDER_TOOL_SPECS,
    *NOTE_TOOL_SPECS,
)
_SPECS = {spec.name: spec for spec in TOOL_SPECS}

# For small models (the `local` preset, llm.tools = "small"): the three memory tools. All nine
# schemas cost ~1,120 prompt tokens a turn (issue 21), more than twice the system prompt.
SMALL_TOOLS = ("search_memory", "get_day_history", "remember")


def chat_tools(choice: str) -> tuple[ToolSpec, ...]:
    """The chat model's tools for `llm.tools`: "all", "small", or names, comma-separated
    (kept in Kit's order). An unknown name is a ConfigError naming the known ones."""
    if choice == "all":
        return TOOL_SPECS
    names = SMALL_TOOLS if choice == "small" else tuple(n.strip() for n in choice.split(","))
    known = {spec.name for spec in TOOL_SPECS}
    if unknown := [n for n in names if n not in known]:
        raise ConfigError(
            f"llm.tools names {', '.join(map(repr, unknown))}, not a tool of Kit's; use "
            f'"all", "small" or names from: {", ".join(sorted(known))}'
        )
    return tuple(spec for spec in TOOL_SPECS if spec.name in names)


# What one tool call may hand back to the model (~4k tokens, the size of the whole memory
# context): a day of long messages or many long hits is cut, and the model told how to ask for
# less. Measured in characters, like a fact's MAX_CONTENT_CHARS and the curator's batch limits.
MAX_RESULT_CHARS = 16_000
CUT_HINT = "they are not shown; a narrower search_memory query finds what you need in them"


@dataclass
class ToolOutcome:
    content: str
    is_error: bool = False
    fact_ids: list[int] = field(default_factory=list)


def recalled(body: str) -> str:
    """Recalled text as a tool result: framed as data, cut to MAX_RESULT_CHARS (at a line end
    when one is near) with a note after the frame saying how much was cut and how to get it."""
    if len(body) <= MAX_RESULT_CHARS:
        return recalled_block(body)
    keep = body[:MAX_RESULT_CHARS]
    line_end = keep.rfind("\n", MAX_RESULT_CHARS - 2000)
    if line_end > 0:
        keep = keep[:line_end]
    cut = len(body) - len(keep)
    return f"{recalled_block(keep)}\n[... {cut:,} more characters cut; {CUT_HINT}]"


def parse_day(text: str, today: date) -> date:
    """A date from the owner or the model: YYYY-MM-DD, 'today', 'yesterday', within the years
    Kit keeps times for (a day at the calendar's edge has no local midnight after it)."""
    cleaned = text.strip().lower()
    if cleaned == "today":
        return today
    if cleaned == "yesterday":
        return today - timedelta(days=1)
    how = f"use YYYY-MM-DD (e.g. {today.isoformat()}), 'today' or 'yesterday'"
    shown = (
        repr(cleaned)
        if len(cleaned) <= 40
        else f"{cleaned[:40]!r}... ({len(cleaned):,} characters)"
    )
    try:
        day = date.fromisoformat(cleaned)
    except ValueError as exc:
        raise InputError(f"{shown} is not a date; {how}") from exc
    if not EARLIEST.date() <= day < LATEST.date():
        raise InputError(f"{shown} is outside the years {EARLIEST.year}-{LATEST.year - 1}; {how}")
    return day


# A note section in search results: a taste; read_note shows the lines whole.
NOTE_HIT_CHARS = 500


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def format_hits(hits: list[Hit], tz: tzinfo) -> str:
    lines = []
    for hit in hits:
        when = hit.at.astimezone(tz).strftime("%Y-%m-%d")
        if hit.fact is not None:
            until = hit.fact.valid_until  # a fact of the past (a search as of a day)
            held = "" if until is None else f", held until {until.astimezone(tz).date()}"
            text = neutralise(hit.shown, inline=True)
            lines.append(f"[fact #{hit.id}, {hit.fact.category}{held}] {text}")
        elif hit.day is not None:
            text = neutralise(hit.shown, inline=True)
            lines.append(f"[day {hit.day.day.isoformat()}] {text}")
        elif hit.note is not None:
            n = hit.note
            text = neutralise(_clip(hit.text, NOTE_HIT_CHARS), inline=True)
            lines.append(f"[note {n.name} lines {n.start_line}-{n.end_line}] {text}")
        else:
            who = hit.message.speaker or hit.message.role if hit.message else ""
            # A long message is shown by the passage that matched (kit/retrieval/passages.py),
            # with its id and which part it is: the model knows there is more.
            part = f" #{hit.id}, part {hit.part} of {hit.parts}" if hit.passage else ""
            said = with_days_shown(hit.shown, hit.at.astimezone(tz).date())  # "yesterday (= …)"
            text = neutralise(said, inline=True)
            lines.append(f"[message {when}{part}] {neutralise(who, inline=True)}: {text}")
    return "\n".join(lines)


def screen_fact(content: str, subject: str) -> None:
    """What `remember` refuses, wherever it is asked (the chat, `kit mcp`): a fact longer than
    one sentence, or one that looks like a secret. InputError says why."""
    if len(content) > MAX_CONTENT_CHARS or len(subject) > MAX_CONTENT_CHARS:
        raise InputError(
            f"Not stored: a fact is one sentence of at most {MAX_CONTENT_CHARS} characters "
            f"(this one has {max(len(content), len(subject)):,}); store the gist in one "
            "short sentence"
        )
    # Everything that would be stored is screened: the subject can carry a secret too.
    secret = find_secret(content) or find_secret(subject)
    if secret:
        log.info("remember refused: the fact looked like %s", secret)
        raise InputError(
            f"Not stored: this looks like {secret}. Tell the owner you do not keep secrets."
        )


REMEMBERED_CONFIDENCE = 0.95  # the owner said it outright

# Why a fact the chat model would `remember` is not said in the owner's message, or None: the
# curator's grounding guard, handed in by the composition root (the curator sits above tools).
Unsaid = Callable[[Message, str, str], Awaitable[str | None]]

DAY_MESSAGES = 60  # a day without a summary is read as its latest messages


@dataclass(frozen=True)
class DayRecord:
    """What `get_day_history` reads for a day: its summary, else its latest messages."""

    day: date
    summary: Day | None
    messages: tuple[Message, ...] = ()


async def read_day(days: Days, messages: Messages, user_id: str, day: date) -> DayRecord:
    summary = await days.get(user_id, day)
    if summary is not None:
        return DayRecord(day, summary)
    said = await messages.on_day(user_id, day)
    return DayRecord(day, None, tuple(said[-DAY_MESSAGES:]))


def day_history_text(record: DayRecord, tz: tzinfo) -> str:
    """A day as a tool result: its summary or messages framed as recalled data."""
    day = record.day.isoformat()
    if record.summary is not None:
        text = neutralise(record.summary.detailed or record.summary.best)
        return recalled(f"Summary of {day}:\n{text}")
    if not record.messages:
        return f"Nothing is recorded for {day}."
    transcript = format_transcript(list(record.messages), tz)
    return recalled(f"No summary yet for {day}; its messages:\n{transcript}")


class Tools:
    def __init__(
        self,
        facts: Facts,
        days: Days,
        messages: Messages,
        search: MemorySearch,
        tz: tzinfo,
        reminders: ReminderTools | None = None,
        notes: NoteTools | None = None,
        unsaid: Unsaid | None = None,
    ) -> None:
        self.reminders = reminders  # set after the agent exists (a task runs a turn)
        self._notes = notes
        self._facts = facts
        self._days = days
        self._messages = messages
        self._search = search
        self._tz = tz
        self._unsaid = unsaid

    async def run(
        self, name: str, args: Mapping[str, Any], *, user_id: str, now: datetime, message_id: int
    ) -> ToolOutcome:
        """One tool call, whatever the model sent: its arguments are checked against the tool's
        schema first (kit/tool_input.py), and any failure, even a bug, is a "Not done: ..."
        answer the model can pass on. One call never fails the turn."""
        spec = _SPECS.get(name)
        if spec is None:
            known = ", ".join(_SPECS)
            return ToolOutcome(f"Not done: there is no tool {name[:40]!r}; use {known}", True)
        try:
            outcome = await self._run(name, checked_input(spec, args), user_id, now, message_id)
        except KitError as exc:
            outcome = ToolOutcome(str(exc), is_error=True)
        except Exception:
            log.exception("tool %s failed with an unexpected error; the turn goes on", name)
            outcome = ToolOutcome(
                f"{name} hit an internal error in Kit (the log has the details); tell the owner "
                "it did not work, and do not try it again the same way",
                is_error=True,
            )
        if outcome.is_error and not outcome.content.startswith("Not "):
            outcome.content = f"Not done: {outcome.content}"
        return outcome

    async def _run(
        self, name: str, args: Mapping[str, Any], user_id: str, now: datetime, message_id: int
    ) -> ToolOutcome:
        if name == "search_memory":
            return await self._search_memory(args.get("query", ""), user_id, now, args.get("as_of"))
        if name == "get_day_history":
            return await self._day_history(args.get("date", ""), user_id, now)
        if name == "remember":
            return await self._remember(args, user_id, message_id)
        if name in REMINDER_TOOLS and self.reminders is not None:
            content, failed = await self.reminders.run(
                name, args, user_id=user_id, message_id=message_id
            )
            return ToolOutcome(content, is_error=failed)
        if name in NOTE_TOOLS and self._notes is not None:
            result = await self._notes.run(name, args, user_id)
            return ToolOutcome(result.content, is_error=result.is_error)
        return ToolOutcome(f"{name} is not available here", is_error=True)

    async def _search_memory(
        self, query: str, user_id: str, now: datetime, as_of: str | None = None
    ) -> ToolOutcome:
        if not query.strip():
            return ToolOutcome("search_memory needs a non-empty query", is_error=True)
        kinds = KINDS if self._notes is None else (*KINDS, NOTES)
        then = None
        if as_of is not None:  # the facts that held that day, what was said up to then
            today = now.astimezone(self._tz).date()
            day = parse_day(as_of, today)
            if day > today:
                raise InputError(f"as_of {day} is in the future; it looks back, to {today} at most")
            then = min(end_of_day(day, self._tz), now)
        result = await self._search.search(
            user_id, query, now=then or now, k=8, kinds=kinds, facts_as_of=then
        )
        hits = list(result.hits[:15])
        if not hits:
            return ToolOutcome("Nothing found in memory for that query.")
        return ToolOutcome(
            recalled(format_hits(hits, self._tz)), fact_ids=[h.id for h in hits if h.fact]
        )

    async def _day_history(self, text: str, user_id: str, now: datetime) -> ToolOutcome:
        day = parse_day(text, now.astimezone(self._tz).date())
        record = await read_day(self._days, self._messages, user_id, day)
        return ToolOutcome(day_history_text(record, self._tz))

    async def _remember(
        self, args: Mapping[str, Any], user_id: str, message_id: int
    ) -> ToolOutcome:
        # a string: checked at the edge; the thanks or "by the way" said to Kit is no fact
        content = without_filler(str(args.get("fact", "")).strip())
        subject = str(args.get("subject", "")).strip()
        (message,) = await self._messages.get_many(user_id, [message_id])
        if message.source != "chat":
            # A scheduled task's turn is Kit's own: nothing the owner said to record as theirs.
            raise InputError(
                "a scheduled task cannot store facts; only the owner can ask Kit to remember "
                "something (say it in the answer instead: the owner reads it)"
            )
        screen_fact(content, subject)
        # The chat model's wording is held against the owner's message like a curator's: a
        # hypothetical, another person's trait or a detail the owner never said is not stored
        # (the message stays, and the night's curation reads it again).
        why = await self._unsaid(message, content, subject) if self._unsaid else None
        if why is not None:
            log.info("remember refused: %s", why)
            # Not an error: a small model answers "Error: ..." with "I can't assist with that"
            # (issue 29's 1.5B, 9 turns of 10). A plain note it can carry on from.
            return ToolOutcome(
                f"Not saved to memory ({why}): the owner's message does not say that as a fact "
                "about them. Nothing went wrong. Answer the owner's message normally, and do "
                "not say it was saved."
            )
        category = str(args.get("category") or "person")
        fact, added = await self._facts.add_unless_known(
            user_id,
            category=category,
            content=content,
            subject=subject,
            confidence=REMEMBERED_CONFIDENCE,
            provenance=Provenance(
                actor="remember",
                reason="the owner asked to remember it",
                source_message_ids=(message_id,),
            ),
        )
        if not added:  # the owner said it again: one fact, not two
            return ToolOutcome(
                f"Already remembered as fact #{fact.id} ({fact.category}); nothing new stored.",
                fact_ids=[fact.id],
            )
        return ToolOutcome(f"Stored as fact #{fact.id} ({fact.category}).", fact_ids=[fact.id])
