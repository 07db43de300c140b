"""What `kit mcp` serves, without the SDK: each tool's input checked, its call made through a
`KitClient` (a running daemon or Kit in this process: one code path), its answer made text.

Everything recalled goes out framed the way the chat prompt frames it (kit/untrusted/neutralise.py):
neutralised and inside a block saying it is recalled data, not instructions. A failure is a
`KitError` whose message says what went wrong and what to do; kit/mcp/server.py turns it into
an MCP tool error.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable
from datetime import tzinfo
from typing import TypeVar

from kit.clock import Clock, local_date
from kit.config import CATEGORIES
from kit.context.render import render
from kit.daemon.socket_client import DaemonUnavailable
from kit.errors import KitError
from kit.memory.fact_rows import Fact, check_category
from kit.notes.text import note_name
from kit.notes.tools import DEFAULT_READ_LINES, note_lines, notes_listing
from kit.surface import SEARCH_K, KitClient
from kit.tools import day_history_text, format_hits, parse_day, recalled
from kit.untrusted.neutralise import neutralise, recalled_block

log = logging.getLogger(__name__)

T = TypeVar("T")

NOTHING_FOUND = "Nothing found in memory for that query."


class DaemonGone(KitError):
    """The daemon this server talks to stopped answering."""


class MemoryTools:
    """The tools and the memory-index resource, for one user namespace (the client's)."""

    def __init__(self, client: KitClient, *, tz: tzinfo, clock: Clock, user: str) -> None:
        self._client = client
        self._tz = tz
        self._clock = clock
        self.user = user

    async def search_memory(self, query: str, k: int = SEARCH_K) -> str:
        hits = await self._call(self._client.search(query, k=k))
        if not hits:
            return NOTHING_FOUND
        return recalled(format_hits(hits, self._tz))

    async def get_day_history(self, day: str) -> str:
        today = local_date(self._clock.now(), self._tz)
        record = await self._call(self._client.day_record(parse_day(day, today)))
        return day_history_text(record, self._tz)

    async def get_context(self, message: str) -> str:
        report = await self._call(self._client.context(message))
        return recalled(neutralise(render(report)))

    async def remember(self, fact: str, category: str = "person", subject: str = "") -> str:
        stored = await self._call(self._client.remember(fact, category=category, subject=subject))
        return f"Stored as fact #{stored.id} ({stored.category})."

    async def list_facts(self, category: str = "") -> str:
        chosen = category.strip() or None
        if chosen is not None:
            check_category(chosen)
        facts = await self._call(self._client.facts(category=chosen))
        if not facts:
            where = f"in {chosen}" if chosen else "yet"
            return f"No facts {where}. Categories: {', '.join(CATEGORIES)}."
        return recalled("\n".join(map(_fact_line, facts)))

    async def list_notes(self) -> str:
        return notes_listing(await self._call(self._client.notes()), self._tz)

    async def read_note(
        self, name: str, start_line: int = 1, count: int = DEFAULT_READ_LINES
    ) -> str:
        note = await self._call(self._client.note(note_name(name)))
        return note_lines(note, start_line, count)

    async def memory_index(self) -> str:
        index = await self._call(self._client.memory_index())
        if not index:
            return f"Kit's memory of {self.user!r} is empty so far."
        return recalled_block(index)

    async def _call(self, call: Awaitable[T]) -> T:
        try:
            return await call
        except DaemonUnavailable as exc:
            log.warning("kit mcp: %s", exc)
            raise DaemonGone(
                "Kit's daemon is not answering (it stopped, or is restarting). Start it again "
                "with `kit run` (or `systemctl --user start kit`): this server reconnects on "
                "the next call"
            ) from exc


def _fact_line(fact: Fact) -> str:
    subject = f"[{neutralise(fact.subject, inline=True)}] " if fact.subject else ""
    expiry = f", until {fact.expires_at.date().isoformat()}" if fact.expires_at else ""
    return (
        f"- fact #{fact.id} ({fact.category}) {subject}{neutralise(fact.content, inline=True)}"
        f" (confidence {fact.confidence:.2f}{expiry})"
    )
