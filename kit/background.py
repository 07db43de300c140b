"""Work that follows a turn but must never delay it: window summaries and embedding backfill.

Turns call `notify()`; `run()` (one task in the owner's TaskGroup) wakes on the event, not on
a timer. `settle()` does the same work inline, for tests, scripts and shutdown.
"""

from __future__ import annotations

import asyncio
import logging

from kit import heap
from kit.context.window import WindowKeeper
from kit.errors import BudgetSpent, KitError
from kit.retrieval.vectors import VectorIndex

log = logging.getLogger(__name__)


class Background:
    def __init__(self, window: WindowKeeper, vectors: VectorIndex) -> None:
        self._window = window
        self._vectors = vectors
        self._wake = asyncio.Event()
        self._conversations: set[int] = set()
        self._lock = asyncio.Lock()

    def notify(self, conversation_id: int | None = None) -> None:
        if conversation_id is not None:
            self._conversations.add(conversation_id)
        self._wake.set()

    async def run(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            try:
                await self.settle()
            except KitError as exc:
                log.warning("background work failed, will retry on the next turn: %s", exc)
            except Exception:
                log.exception("background work crashed; will retry on the next turn")
            if not self._wake.is_set():
                heap.trim()  # a quiet moment: what the turn and this work freed goes back

    async def settle(self) -> None:
        """Run all pending background work now.

        A failed window summary (model down) is kept for the next wake and re-raised, but only
        after the other conversations and the embedding backfill had their turn: search must
        not stop catching up because the model is unavailable. A summary the spent budget
        refused waits quietly for a turn after midnight (the budget logs the pause once).
        """
        async with self._lock:
            failed: set[int] = set()
            error: KitError | None = None
            try:
                while self._conversations:
                    conversation_id = self._conversations.pop()
                    try:
                        await self._window.maybe_summarize(conversation_id)
                    except BudgetSpent:
                        failed.add(conversation_id)
                    except KitError as exc:
                        failed.add(conversation_id)
                        error = error or exc
            finally:
                self._conversations |= failed  # keep them for the next wake
            await self._vectors.backfill()
            if error is not None:
                raise error
