"""What a daemon does in the background once it is ready, so that a start is quick and the
first turn after it is not slow.

Before ready: imports of Kit's core, the database opened, migrated and page-checked. After
ready (each a task of the daemon's TaskGroup, kit/daemon/runner.py), first what a first turn
cannot do without, then the rest:
1. `warm` here: the model clients' SDKs are imported (kit/llm/deferred.py; every turn needs
   one), then the per-user caches a first search would otherwise fill on the owner's time —
   which facts may be shown (kit/retrieval/liveness.py), the conversations' links
   (kit/retrieval/links.py) and the sandwich's cached part (kit/context/sandwich.py) — for the
   owner and whoever wrote last. The vectors are counted meanwhile (a search from then on
   scans what is loaded, never loads them itself).
2. Once `warm` is done (`done`, `Services.warmed_up`), side by side: the vectors load
   (kit/retrieval/matrices.py), the embedding model loads if something needs it
   (kit/retrieval/vectors.py `load_model`), and the scheduler runs what it queued (the catch-up
   of missed runs: curation, REM, day summaries).
Run all at once, they shared two cores with the first turn and made it wait for the lot.
A turn that comes first uses what is loaded and waits for nothing it can do without.
"""

from __future__ import annotations

import asyncio
import logging
import time

from kit import heap
from kit.app import Services

log = logging.getLogger(__name__)

RECENT_USERS = 4  # besides the owner: the last writers (a Telegram group's namespace, ...)


async def warm(services: Services, done: asyncio.Event | None = None) -> None:
    """Prepare the model clients and fill the per-user caches, then set `done` (background
    work: a failure is logged, and the first turn does the work instead)."""
    began = time.perf_counter()
    try:
        for client in services.llm_clients:
            await client.prepare()
        clients = time.perf_counter() - began
        users = await _users(services)
        for user_id in users:
            await services.search.warm(user_id)
            await services.context.warm(user_id, services.clock.now())
    except Exception:
        log.exception("warming up after the start failed; the first turn does it instead")
        return
    finally:
        if done is not None:
            done.set()
    heap.trim()  # what the imports and reads freed (kit/heap.py)
    log.info(
        "warmed up in %.1f s (model clients %.1f s, caches of %d user(s))",
        time.perf_counter() - began,
        clients,
        len(users),
    )


async def load_model(services: Services, hold: asyncio.Event) -> None:
    """The embedding model, once `hold` is set and something needs it (kit/retrieval/vectors.py
    `load_model`); then backfill embeds what was written while it loaded."""
    await services.vectors.load_model(hold)
    services.background.notify()


async def _users(services: Services) -> list[str]:
    owner = services.settings.owner.user_id
    recent = await services.messages.recent_users(RECENT_USERS)
    return list(dict.fromkeys([owner, *recent]))
