"""The re-embedding a daemon runs in the background after the owner changed the embedding
model (kit/retrieval/reindex.py): once the daemon is warm, by one worker at a time on a shared
database (the `embedding_reindex` lease; another worker takes it over if this one dies, and
resumes where it stopped). Turns meanwhile search with the previous model's vectors, or words.
"""

from __future__ import annotations

import asyncio
import logging

from kit.app import Services
from kit.embed.spec import EmbeddingModelUnavailable

log = logging.getLogger(__name__)

LEASE = "embedding_reindex"


async def reindex(services: Services, hold: asyncio.Event) -> None:
    """Re-embed with the configured model if it is not the one searched yet (background work:
    a failure is logged, the daemon and its searches go on as they were)."""
    job = services.reindex
    if job is None or job.done:
        return
    await hold.wait()

    async def work() -> None:
        try:
            await job.run()
        except EmbeddingModelUnavailable as exc:
            log.warning("cannot re-embed: %s; searches go on as before", exc)
            return
        except Exception:
            log.exception("re-embedding failed; it resumes where it stopped at the next start")
            return
        await services.vectors.warm()  # the new model's vectors, into memory (SQLite)

    await services.leases.serve(LEASE, work)
