"""The interface front-ends (the TUI, `kit chat`, `kit rem`) use, whether Kit runs in this
process or in a daemon reached over the control socket. Front-ends never know which.

Implementations: `LocalClient` (in-process, wraps a `Kit`) lives here; the socket client
lives with the daemon (kit/daemon/).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import date, datetime
from typing import Literal, Protocol

from kit.agent import TurnResult
from kit.curator.reports import RemProgress, RemReport, UndoResult
from kit.llm.base import TextSink
from kit.memory.days import Day
from kit.memory.facts import Fact, HistoryEntry

ProgressSink = Callable[[RemProgress], Awaitable[None]]


@dataclass(frozen=True)
class Status:
    mode: Literal["daemon", "standalone"]
    user_id: str
    chat_model: str
    small_model: str
    embedding_model: str | None  # None: lexical search only
    tokens_today: int
    last_rem_at: datetime | None
    uptime_seconds: float


class KitClient(Protocol):
    async def send(
        self, text: str, *, conversation: str = "terminal", on_text: TextSink | None = None
    ) -> TurnResult: ...

    async def days(self) -> list[Day]: ...

    async def day(self, day: date) -> Day | None: ...

    async def facts(
        self, *, category: str | None = None, include_inactive: bool = False, text: str = ""
    ) -> list[Fact]: ...

    async def fact_history(self, fact_id: int) -> list[HistoryEntry]: ...

    async def deactivate_fact(self, fact_id: int, reason: str) -> Fact: ...

    async def undo_pass(self, pass_id: int) -> UndoResult: ...

    async def rem(
        self, *, dry_run: bool = False, on_progress: ProgressSink | None = None
    ) -> RemReport: ...

    async def last_rem(self) -> RemReport | None: ...

    async def status(self) -> Status: ...
