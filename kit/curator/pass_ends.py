"""How a curation pass ends in the database: its operations applied with the batch's progress
advanced, or recorded as failed with the attempt counted; each one transaction."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from kit.config import Settings
from kit.curator.apply import Applier
from kit.curator.failures import crash_reason
from kit.curator.grounding import Grounding
from kit.curator.meaning import Meanings
from kit.curator.ops import Operation
from kit.curator.progress import Batch, CurationProgress, LostRace
from kit.curator.records import PassLog
from kit.curator.reports import PassOutcome
from kit.curator.shown import ShownFacts
from kit.embed.base import Embedder
from kit.store.db import Database

log = logging.getLogger("kit.curator.passes")  # where these were logged before the split

KIND = "curate"


class PassEnds:
    def __init__(
        self,
        db: Database,
        applier: Applier,
        passes: PassLog,
        progress: CurationProgress,
        settings: Settings,
        embedder: Callable[[], Awaitable[Embedder | None]] | None = None,
    ) -> None:
        self._db = db
        self._embedder = embedder  # the search's model, loaded on first use
        self._applier = applier
        self.passes = passes
        self.progress = progress
        self._settings = settings

    async def meanings(self) -> Meanings | None:
        """The guard's meaning check with the search's model (kit/curator/meaning.py), or None:
        no model, or one the check was not measured with."""
        return Meanings.calibrated(await self._embedder() if self._embedder else None)

    async def grounding(self, batch: Batch) -> Grounding:
        return Grounding(
            batch.messages, batch.owner_message_ids, self._settings.owner.name,
            await self.meanings(),
        )  # fmt: skip

    async def apply(
        self,
        batch: Batch,
        ops: list[Operation],
        started: datetime,
        detail: dict[str, Any],
        shown: ShownFacts,
        *,
        dropped_before: Sequence[str] = (),
        grounding: Grounding | None = None,
    ) -> PassOutcome:
        """`grounding`: the batch's, when the caller has held operations against it already
        (its reading of the messages is kept)."""
        grounding = grounding or await self.grounding(batch)
        # Before the transaction: the model's one call for the pass holds no lock. The facts an
        # UPDATE rewrites are read in it, so the meaning is weighed without them.
        await grounding.weigh(ops, {})
        try:
            async with self._db.transaction() as tx:
                outcome = await self._applier.apply_in(
                    tx,
                    batch.user_id,
                    batch.category,
                    ops,
                    kind=KIND,
                    actor="curator",
                    source_message_ids=batch.owner_message_ids,
                    started_at=started,
                    detail=detail,
                    shown=None if shown.complete else shown.ids,
                    grounding=grounding,
                    dropped_before=dropped_before,
                )
                if outcome.status == "rejected":
                    note = await self.progress.failed(
                        tx, batch, outcome.reason, self._settings.curation.max_attempts
                    )
                    if note:
                        outcome = replace(outcome, reason=f"{outcome.reason}; {note}")
                else:
                    await self.progress.advance(tx, batch)
        except LostRace as exc:
            return PassOutcome(None, KIND, batch.category, "skipped", reason=str(exc))
        except Exception as exc:
            log.exception("curation pass on %s crashed; nothing of it was applied", batch.category)
            return await self.failed(batch, started, crash_reason("applying", exc), detail)
        return outcome

    async def failed(
        self,
        batch: Batch,
        started: datetime,
        reason: str,
        detail: dict[str, Any],
        *,
        status: str = "failed",
    ) -> PassOutcome:
        """Record a pass that could not be applied and count the attempt (one transaction)."""
        try:
            async with self._db.transaction() as tx:
                pass_id = await self.passes.add(
                    tx,
                    user_id=batch.user_id,
                    kind=KIND,
                    category=batch.category,
                    status=status,
                    started_at=started,
                    reason=reason,
                    detail={
                        **detail,
                        "conversation_id": batch.conversation_id,
                        "source_message_ids": list(batch.owner_message_ids),
                    },
                )
                note = await self.progress.failed(
                    tx, batch, reason, self._settings.curation.max_attempts
                )
        except LostRace as exc:  # forgotten meanwhile: its record must not quote them
            return PassOutcome(None, KIND, batch.category, "skipped", reason=str(exc))
        return PassOutcome(
            pass_id,
            KIND,
            batch.category,
            "rejected" if status == "rejected" else "failed",
            reason=f"{reason}; {note}" if note else reason,
            source_message_ids=batch.owner_message_ids,
        )
