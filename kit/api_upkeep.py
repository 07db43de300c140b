"""The owner's upkeep of Kit, as part of `Kit` (kit/api.py): REM, the daily digest, day
summaries, parked curation, embeddings, export and restore, and what `kit status` shows
(forgetting is kit/api_forget.py)."""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

from kit.api_base import KitBase
from kit.clock import day_bounds, local_date
from kit.retrieval.model_state import VectorModels

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from datetime import date, datetime

    from kit.curator.progress import Parked
    from kit.curator.reports import RemReport
    from kit.curator.summaries import OnProgress, SummaryRun
    from kit.digest.model import Digest, DigestSent
    from kit.llm.budget import BudgetState
    from kit.portability.restore import RestoreResult
    from kit.retrieval.model_state import ReindexProgress
    from kit.retrieval.reindex import Reindexed
    from kit.surface import ProgressSink


# What a method needs beyond the services is imported inside it: `from kit import Kit` then
# loads none of it (tests/cli/test_startup.py).
class Upkeep(KitBase):
    async def rem(
        self,
        *,
        user: str | None = None,
        dry_run: bool = False,
        only_date: date | None = None,
        on_progress: ProgressSink | None = None,
    ) -> RemReport:
        """Run REM now (condense days, review stale facts, retire copies, expire). With
        `only_date`, only that day is condensed (again, if it was). JobBusy if REM is running
        already."""
        return await self.services.rem.run(
            self._user(user), dry_run=dry_run, only_date=only_date, on_progress=on_progress
        )

    async def last_rem(self, *, user: str | None = None) -> RemReport | None:
        """The last REM run's report (dry runs are not kept)."""
        return await self.services.rem.last_report(self._user(user))

    async def digest(self, day: date | None = None, *, user: str | None = None) -> Digest:
        """What Kit learned, changed, merged, expired and refused in a digest day (the one
        now open without `day`), pass by pass (kit/digest/). Reads only."""
        return await self.services.digest.read(self._user(user), day)

    async def send_digest(self, day: date | None = None, *, user: str | None = None) -> DigestSent:
        """Send a digest day's digest (the open one without `day`) now, whatever was sent
        before, on the channels live in this process (a daemon's Telegram); ConfigError when
        there is none. A day without changes sends nothing."""
        return await self.services.digest.send_now(self._user(user), day)

    async def summarize(
        self,
        day: date | None = None,
        *,
        user: str | None = None,
        on_progress: OnProgress | None = None,
    ) -> SummaryRun:
        """Write the summary of `day` (again, if it has one), or of every day before today
        that still lacks one."""
        s = self.services
        today = local_date(s.clock.now(), s.tz)
        return await s.summarizer.manual(self._user(user), today, day, on_progress=on_progress)

    async def parked_batches(self, *, user: str | None = None) -> list[Parked]:
        """Batches of messages curation gave up on after repeated failures (`curate` with
        `retry_parked` tries them again)."""
        return await self.services.curator.progress.parked(self._user(user))

    @property
    def embeddings_on(self) -> bool:
        """Whether memory is searched by meaning too (an embedding model is loaded)."""
        return self.services.vectors.available

    @property
    def embedding_problem(self) -> str | None:
        """Why embeddings are off (None: they are on, or the model has not been tried yet)."""
        return self.services.embedding_problem

    @property
    def reindexing(self) -> bool:
        """Whether a re-embedding with the configured model is due (`reindex`)."""
        job = self.services.reindex
        return job is not None and not job.done

    @property
    def vector_search(self) -> str:
        """What a search now goes without: "" once search by meaning serves (the embedding
        model and the stored vectors are in), else e.g. "words only: the embedding model is
        loading" (a daemon's first seconds; kit/retrieval/serving.py)."""
        from kit.retrieval.serving import lacking

        return lacking(self.services.vectors)

    @property
    def vector_search_since(self) -> datetime | None:
        """When a daemon's search by meaning began to serve (None: not yet, or not a daemon)."""
        return self.services.vector_search_since

    @property
    def embedding_model(self) -> str | None:
        embedder = self.services.vectors.embedder
        return None if embedder is None else embedder.model_id

    async def pending_embeddings(self) -> int:
        """How many facts, days, messages and note sections wait for their vectors."""
        return await self.services.vectors.pending_count()

    async def embed_pending(self, *, on_batch: Callable[[int], object] | None = None) -> int:
        """Embed whatever waits for its vectors now; returns how many."""
        return await self.services.vectors.backfill(on_batch=on_batch)

    async def reindex_progress(self) -> ReindexProgress | None:
        """How far re-embedding every memory with the configured embedding model has got
        (None: that model's vectors are the ones searched, nothing to re-embed)."""
        job = self.services.reindex
        return None if job is None else await job.progress()

    async def reindex(self, *, on_batch: Callable[[int], object] | None = None) -> Reindexed:
        """Re-embed now every memory that lacks the configured model's vector and make that
        model the one searched (kit/retrieval/reindex.py); then embed whatever else waits and
        remove the vectors of models not in use. `on_batch(n)` hears of each batch (a progress
        bar's total: `pending_reindex`). EmbeddingModelUnavailable when the configured model
        cannot be loaded; a run cut short resumes where it stopped."""
        from kit.retrieval.reindex import Reindexed

        s = self.services
        job = s.reindex
        previous, embedded = None, 0
        if job is not None and not await job.sync():
            previous = job.serving
            embedded = await job.run(on_batch)
        embedded += await s.vectors.backfill(on_batch=on_batch)
        removed = await VectorModels(s.db, s.clock).prune()
        for model_id in removed:
            await s.vectors.store.dropped(model_id)
        embedder = s.vectors.embedder
        return Reindexed(
            model=None if embedder is None else embedder.model_id,
            previous=previous,
            embedded=embedded,
            removed=sum(removed.values()) + (0 if job is None else job.removed),
        )

    async def pending_reindex(self) -> int:
        """How many rows `reindex` would embed: those lacking the configured model's vector."""
        s = self.services
        job = s.reindex
        if job is not None and not await job.sync():
            return await s.vectors.pending_count(job.target.model_id)
        return await s.vectors.pending_count()

    async def export(self, *, user: str | None = None) -> dict[str, Any]:
        """The whole memory of `user` as JSON-ready data (kit/portability/export.py)."""
        from kit.portability.export import export_document

        s = self.services
        return await export_document(s.db, self._user(user), s.clock.now())

    async def restore(
        self,
        document: Mapping[str, Any],
        *,
        user: str | None = None,
        allow_forgotten: bool = False,
        replace: bool = False,
    ) -> RestoreResult:
        """Restore a checked export into `user`, who must hold nothing yet, or with `replace`
        in place of what `user` holds (keep a copy first: `export`), in one transaction. The
        forgets made after the export (this data directory's forget ledger, the receipts kept
        here) are re-applied to it, or with `allow_forgotten` not, and messages the export's
        own receipts erased are then let in; the result names both."""
        from kit.portability.restore import Forgets, restore

        s = self.services
        user_id = self._user(user)
        forgets = Forgets(s.forget_ledger, s.tz, s.clock.now())
        async with s.db.user_lock(user_id) if replace else contextlib.nullcontext():
            result = await restore(
                s.db,
                document,
                user_id,
                forgets,
                allow_forgotten=allow_forgotten,
                replace=replace,
            )
        s.vectors.forget_cache(user_id)
        s.search.forget_cache(user_id)
        return result

    async def tokens_today(self) -> int:
        """Model tokens (in and out, every role) used since the owner's midnight."""
        s = self.services
        midnight, _ = day_bounds(local_date(s.clock.now(), s.tz), s.tz)
        usage = await s.usage.totals_since(midnight)
        return usage.input_tokens + usage.output_tokens

    async def background_budget(self, *, user: str | None = None) -> BudgetState:
        """Today's background token spending against its caps."""
        return await self.services.budget.state(self._user(user))
