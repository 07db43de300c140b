"""Slash commands every chat offers — Telegram, Matrix, `kit chat` and the TUI's chat, declared once
here (/history, /facts, /search, /pin, /unpin, /forget, /rem, /reminders, /help). /pin, /unpin
and /forget are the owner's own changes (kit/curator/owner.py): each an undoable pass, on the
sender's own memory only. `kit chat` and the TUI reach them through `KitClient.command`
(through the daemon when one runs); Telegram registers each with its Bot API menu.

Transport-free: each takes the Kit user and the text after the command and returns the reply
as plain text, or raises a KitError whose message the channel shows as it is.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from kit.config import CATEGORIES
from kit.errors import InputError, NotFound
from kit.text import plural

if TYPE_CHECKING:
    from kit.api import Kit
    from kit.curator.reports import RemReport
    from kit.memory.fact_rows import Fact

HELP = """I'm Kit. Write to me normally and I'll answer, remembering what matters.

Commands:
/history [date] – a day's summary (YYYY-MM-DD, today, yesterday); without a date, the list of days
/facts [category] – what I remember long-term; categories: {categories}
/search <query> – search facts, day summaries and past messages
/pin <fact id> – always keep a fact in mind; I never change a pinned fact
/unpin <fact id> – unpin it
/forget <fact id> – stop using a fact (it stays in its history; ids are in /facts)
/rem – consolidate memory now (condense days, review and expire facts) and report
/reminders [cancel <id>] – your reminders and scheduled tasks; cancel one by its number
/help – this message"""

COMMANDS: tuple[tuple[str, str], ...] = (
    ("history", "a day's summary, or the list of days"),
    ("facts", "what Kit remembers long-term"),
    ("search", "search memory"),
    ("pin", "always keep a fact in mind"),
    ("unpin", "unpin a fact"),
    ("forget", "stop using a fact"),
    ("rem", "consolidate memory now"),
    ("reminders", "your reminders; /reminders cancel <id>"),
    ("help", "what Kit can do"),
)

# A line is a command when its first word is a slash and a name: "/facts people", not
# "/etc/hosts is broken" (that is a message).
_COMMAND = re.compile(r"/([A-Za-z_]+)(?:@\S+)?(?=\s|$)")


def command_name(text: str) -> str | None:
    """The command a chat line starts with ("/Facts x" -> "facts"), or None for a message."""
    match = _COMMAND.match(text.lstrip())
    return match.group(1).lower() if match else None


def unknown_command(name: str) -> str:
    """What an unknown /name gets: the closest command names, and where the list is."""
    names = [n for n, _ in COMMANDS]
    close = difflib.get_close_matches(name.lower(), names, n=2, cutoff=0.6)
    guess = " or ".join(f"/{c}" for c in close)
    hint = f" Did you mean {guess}?" if close else ""
    return f"I don't know /{name}.{hint} /help lists what I can do."


_DAYS_LISTED = 14
_REPORT_LINES = 20
_SEARCH_HITS = 15


class ChatCommands:
    def __init__(self, kit: Kit, *, channel: str) -> None:
        self._kit = kit
        self._channel = channel

    def table(self) -> dict[str, Callable[[str, str], Awaitable[str]]]:
        """Command name -> handler(user_id, text after the command), in menu order."""
        handlers: dict[str, Callable[[str, str], Awaitable[str]]] = {
            "history": self.history,
            "facts": self.facts,
            "search": self.search,
            "pin": self.pin,
            "unpin": self.unpin,
            "forget": self.forget,
            "rem": self.rem,
            "reminders": self.reminders,
            "help": self.help,
        }
        assert list(handlers) == [name for name, _ in COMMANDS]
        return handlers

    async def dispatch(self, user_id: str, text: str) -> str:
        """Run the command `text` starts with (`command_name(text)` must not be None); an
        unknown one gets `unknown_command`'s answer."""
        name = command_name(text)
        if name is None:
            raise InputError(f"not a command: {text[:40]!r}; commands start with /, e.g. /help")
        run = self.table().get(name)
        if run is None:
            return unknown_command(name)
        _, _, arg = text.lstrip().partition(" ")
        return await run(user_id, arg)

    async def help(self, user_id: str, arg: str) -> str:
        return HELP.format(categories=", ".join(CATEGORIES))

    async def history(self, user_id: str, arg: str) -> str:
        from kit.tools import parse_day  # the core: loaded when a command runs, not to read one

        kit = self._kit
        if not arg.strip():
            days = await kit.days(user=user_id)
            if not days:
                return "No daily summaries yet. They are written at the end of each day."
            recent = sorted(days, key=lambda d: d.day, reverse=True)[:_DAYS_LISTED]
            lines = [f"{d.day.isoformat()}: {d.gist}" for d in recent]
            return "Recent days (/history YYYY-MM-DD to read one):\n" + "\n".join(lines)
        day = parse_day(arg, kit.today())
        summary = await kit.day(day, user=user_id)
        if summary is not None:
            return f"{day.isoformat()} ({day.strftime('%A')})\n\n{summary.detailed or summary.best}"
        count = len(await kit.messages_on(day, user=user_id))
        if count:
            return (
                f"{day.isoformat()}: {plural(count, 'message')} but no summary yet; summaries are "
                "written at the end of the day."
            )
        return f"Nothing is recorded for {day.isoformat()}."

    async def facts(self, user_id: str, arg: str) -> str:
        category = arg.strip().lower() or None
        facts = await self._kit.facts(user=user_id, category=category)
        now = self._kit.now()
        live = [f for f in facts if f.is_live(now)]
        if not live:
            where = f" in {category}" if category else ""
            return f"No facts{where} yet."
        lines = []
        for fact in live:
            subject = f"[{fact.subject}] " if fact.subject else ""
            pinned = ", pinned" if fact.pinned else ""
            lines.append(f"#{fact.id} ({fact.category}{pinned}) {subject}{fact.content}")
        return "\n".join(lines)

    async def search(self, user_id: str, arg: str) -> str:
        query = arg.strip()
        if not query:
            raise InputError("usage: /search <what to look for>, e.g. /search Ana birthday")
        from kit.tools import format_hits

        hits = await self._kit.search(query, user=user_id)
        if not hits:
            return f"Nothing found for “{query}”."
        return format_hits(hits[:_SEARCH_HITS], self._kit.tz)

    async def pin(self, user_id: str, arg: str) -> str:
        fact = await self._fact(user_id, arg, "pin")
        change = await self._kit.pin_fact(fact.id, user=user_id)
        return (
            f"Pinned fact #{fact.id}: {change.fact.content}\n(Always in mind now; I never "
            "change a pinned fact.)"
        )

    async def unpin(self, user_id: str, arg: str) -> str:
        fact = await self._fact(user_id, arg, "unpin")
        await self._kit.unpin_fact(fact.id, user=user_id)
        return f"Unpinned fact #{fact.id}."

    async def forget(self, user_id: str, arg: str) -> str:
        fact = await self._fact(user_id, arg, "forget")
        if not fact.active:
            return f"Fact #{fact.id} is already forgotten."
        reason = f"forgotten via {self._channel.capitalize()}"
        await self._kit.forget_fact(fact.id, reason=reason, user=user_id)
        return f"Forgot fact #{fact.id}: {fact.content}\n(It stays in the fact's history.)"

    async def _fact(self, user_id: str, arg: str, command: str) -> Fact:
        """The sender's own fact named by `arg` ("12" or "#12")."""
        text = arg.strip().lstrip("#")
        if not text.isdigit() or len(text) > 18:  # beyond that no fact id exists
            raise InputError(
                f"usage: /{command} <fact id>, e.g. /{command} 12; /facts shows the ids"
            )
        fact_id = int(text)
        try:
            return await self._kit.fact(fact_id, user=user_id)
        except NotFound as exc:
            raise NotFound(f"there is no fact #{fact_id}; /facts shows the ids") from exc

    async def rem(self, user_id: str, arg: str) -> str:
        # A run already going (the nightly one) raises JobBusy, a KitError the chat shows.
        return format_rem_report(await self._kit.rem(user=user_id))

    async def reminders(self, user_id: str, arg: str) -> str:
        kit = self._kit
        words = arg.split()
        if words and words[0].lower() == "cancel":
            number = words[1].lstrip("#") if len(words) == 2 else ""
            if not number.isdigit():
                raise InputError("usage: /reminders cancel <id>, e.g. /reminders cancel 3")
            reminder = await kit.cancel_reminder(int(number), user=user_id)
            return f"Cancelled reminder #{reminder.id}: {reminder.text}"
        if words:
            raise InputError("usage: /reminders to list them, /reminders cancel <id> to stop one")
        active = await kit.reminders(user=user_id)
        if not active:
            return "No reminders. Ask me in a message, e.g. “remind me tomorrow at 9 to call Ana”."
        lines = [kit.describe_reminder(r) for r in active]
        return "\n".join([*lines, "", "/reminders cancel <id> stops one."])


def format_rem_report(report: RemReport) -> str:
    seconds = (report.finished_at - report.started_at).total_seconds()
    lines = [f"REM finished in {seconds:.0f} s."]
    if report.condensed_days:
        days = ", ".join(d.isoformat() for d in report.condensed_days)
        lines.append(f"Condensed {plural(len(report.condensed_days), 'day')}: {days}")
    else:
        lines.append("No days needed condensing.")
    lines.append(f"Reviewed {plural(report.reviewed_facts, 'fact')}.")
    if report.expired_fact_ids:
        ids = ", ".join(f"#{i}" for i in report.expired_fact_ids)
        lines.append(f"Expired {plural(len(report.expired_fact_ids), 'fact')}: {ids}")
    if report.changes:
        lines.append("Changes:")
        lines.extend(f"• {c}" for c in report.changes[:_REPORT_LINES])
        if len(report.changes) > _REPORT_LINES:
            lines.append(f"…and {len(report.changes) - _REPORT_LINES} more (see `kit rem`)")
    for rejected in report.rejected:
        lines.append(f"Not applied: {rejected}")
    failed = [step for step in report.steps if step.status == "failed"]
    for step in failed:
        lines.append(f"Step {step.step} failed: {step.detail}")
    return "\n".join(lines)
