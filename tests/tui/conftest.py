"""TUI fixtures: the real app on the real engine (`LocalClient` over an in-process Kit with a
scripted model and a real SQLite file), and helpers to let workers and repaints finish."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC
from typing import Any

import pytest

from kit.api import Kit
from kit.client import LocalClient
from kit.clock import FakeClock
from kit.config import Settings
from kit.embed.hashing import HashingEmbedder
from kit.llm.base import LLMReply, LLMRequest, TextSink
from kit.llm.fake import FakeLLM
from tests.tui.scenes import settle
from tui.app import KitApp

__all__ = ["GatedLLM", "notes", "record_notes", "settle"]


class GatedLLM:
    """The scripted model behind a gate a test can close, to look at the screen while a
    call is in flight. A held call stops before it starts, or after `after_chunks` streamed
    chunks, until `release()`."""

    def __init__(self, inner: FakeLLM) -> None:
        self.inner = inner
        self.after_chunks = 0
        self.waiting = asyncio.Event()  # a call is stopped at the gate
        self._open = asyncio.Event()
        self._open.set()

    def hold(self, *, after_chunks: int = 0) -> None:
        self.after_chunks = after_chunks
        self.waiting.clear()
        self._open.clear()

    def release(self) -> None:
        self._open.set()

    async def _gate(self) -> None:
        if not self._open.is_set():
            self.waiting.set()
            await self._open.wait()

    async def complete(self, request: LLMRequest, on_text: TextSink | None = None) -> LLMReply:
        if on_text is None or self.after_chunks == 0:
            await self._gate()
            return await self.inner.complete(request, on_text)
        seen = 0
        sink = on_text

        async def counted(chunk: str) -> None:
            nonlocal seen
            await sink(chunk)
            seen += 1
            if seen == self.after_chunks:
                await self._gate()

        return await self.inner.complete(request, counted)


@pytest.fixture
def gated(fake_llm: FakeLLM) -> GatedLLM:
    return GatedLLM(fake_llm)


@pytest.fixture
async def kit(settings: Settings, gated: GatedLLM, clock: FakeClock) -> AsyncIterator[Kit]:
    """The shared in-process Kit, with the scripted model behind a gate."""
    async with Kit.open(
        settings=settings, llm=gated, embedder=HashingEmbedder(), clock=clock, background=False
    ) as opened:
        yield opened


@pytest.fixture
def local(kit: Kit, clock: FakeClock) -> LocalClient:
    return LocalClient(kit, clock.now())


@pytest.fixture
def app(local: LocalClient) -> KitApp:
    """The app, recording its notifications (`notes`): one shown a moment ago may have
    expired (5 s) by the time a test on a loaded machine looks at it."""
    made = KitApp(local, tz=UTC)
    record_notes(made)
    return made


def notes(app: KitApp) -> list[tuple[str, str]]:
    """The notifications shown so far, as (severity, message): every one since
    `record_notes(app)` when the app records them (a notice on screen expires after its
    timeout, which a loaded machine can outlast), else those still on screen."""
    recorded: list[tuple[str, str]] | None = getattr(app, "_recorded_notes", None)
    if recorded is not None:
        return list(recorded)
    return [(n.severity, n.message) for n in app._notifications]


def record_notes(app: KitApp) -> None:
    """From now on `notes(app)` lists every notification posted, expired or not."""
    recorded: list[tuple[str, str]] = []
    post = app.notify

    def notify(message: str, **options: Any) -> None:
        recorded.append((str(options.get("severity", "information")), str(message)))
        post(message, **options)

    app._recorded_notes = recorded  # type: ignore[attr-defined]
    app.notify = notify  # type: ignore[method-assign]
