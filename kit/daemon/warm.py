"""What a daemon does in the background once it is ready, so that a start is quick and search
by meaning serves soon after it.

Before ready: imports of Kit's core, the database opened, migrated and page-checked. After
ready (`start`: tasks of the daemon's TaskGroup, kit/daemon/runner.py), in this order:
1. At once, side by side: the stored vectors load (kit/retrieval/matrices.py) and the
   embedding model loads if memory holds anything (kit/retrieval/vectors.py `load_model`).
   When both are in, search by meaning serves (`announce_serving`). They come first because
   they are what a turn's search goes without meanwhile; at 100k items they waited 38.8 s
   behind the warm-up at load 21 for 4.7 s of their own CPU (issue 33).
2. Once they are in (`first_loads`; at most `FIRST_LOADS_WAIT`), `warm`: the model clients'
   SDKs are imported (kit/llm/deferred.py; a turn that comes first imports what it needs
   itself), then the per-user caches a first search would otherwise fill on the owner's
   time — which facts may be shown (kit/retrieval/liveness.py), the conversations' links
   (kit/retrieval/links.py) and the sandwich's cached part (kit/context/sandwich.py) — for
   the owner and whoever wrote last, and the word search's index of every user's words
   (kit/retrieval/kept_words.py: ~2.3–3 s of CPU at 100k items, FTS5 answering meanwhile).
3. Once `warm` is done (`Services.warmed_up`): the re-embedding a model change asks for
   (kit/daemon/reindex.py) and the scheduler's queued runs (the catch-up of missed runs:
   curation, REM, day summaries).
Run all at once, they shared two cores with the first turn and made it wait for the lot.
A turn that comes first uses what is loaded and waits for nothing it can do without.
"""

from __future__ import annotations

import asyncio
import logging
import time

from kit import heap
from kit.app import Services
from kit.daemon.notify import sd_notify
from kit.daemon.reindex import reindex
from kit.embed.lazy import LazyEmbedder
from kit.retrieval.matrices import MatrixVectors
from kit.retrieval.serving import lacking

log = logging.getLogger(__name__)

RECENT_USERS = 4  # besides the owner: the last writers (a Telegram group's namespace, ...)
# The warm-up waits this long at most for the vectors and the embedding model (at 100k items
# they take ~2 s of CPU; minutes only on a host so busy that nothing is quick).
FIRST_LOADS_WAIT = 120.0


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
    # What the start and the warm-up made lives as long as the daemon: out of the cyclic
    # collector's later passes, which a turn would wait for (kit/heap.py).
    frozen = heap.freeze()
    heap.trim()  # what the imports and reads freed (kit/heap.py)
    log.info(
        "warmed up in %.1f s (model clients %.1f s, caches of %d user(s), %d objects frozen)",
        time.perf_counter() - began,
        clients,
        len(users),
        frozen,
    )


def start(services: Services, group: asyncio.TaskGroup, began: float) -> list[asyncio.Task[None]]:
    """The background work after ready, as tasks of the daemon's `group`, in the order the
    module's docstring gives (`began`: the start, `time.perf_counter()`)."""
    warmed = services.warmed_up
    return [
        group.create_task(services.vectors.warm(), name="vectors"),
        group.create_task(load_model(services), name="embedding-model"),
        group.create_task(announce_serving(services, began), name="serving"),
        group.create_task(warm_after_loads(services, warmed), name="warm-up"),
        group.create_task(reindex(services, warmed), name="reindex"),
    ]


async def first_loads(services: Services) -> None:
    """Until what search by meaning needs at start is in: the stored vectors' load, and the
    embedding model's when memory holds anything or something asked for it (either may
    fail: then it is over too, and what depends on it runs without)."""
    vectors = services.vectors
    store, embedder = vectors.store, vectors.embedder
    if isinstance(store, MatrixVectors):
        await store.load.done.wait()
    if isinstance(embedder, LazyEmbedder) and embedder.model is None:
        if embedder.wanted.is_set() or await vectors.holds_anything():
            await embedder.done.wait()


async def warm_after_loads(services: Services, done: asyncio.Event) -> None:
    """`warm`, once the vectors and the embedding model are in (`first_loads`), or beside
    them after `FIRST_LOADS_WAIT` (a model load that hangs holds no catch-up)."""
    try:
        async with asyncio.timeout(FIRST_LOADS_WAIT):
            await first_loads(services)
    except TimeoutError:
        log.warning(
            "the vectors or the embedding model are still loading after %.0f s; warming up"
            " beside them",
            FIRST_LOADS_WAIT,
        )
    await warm(services, done)


async def load_model(services: Services) -> None:
    """The embedding model, at once when memory holds anything, else when something first
    needs it (kit/retrieval/vectors.py `load_model`); then backfill embeds what was written
    while it loaded."""
    await services.vectors.load_model()
    services.background.notify()


async def announce_serving(services: Services, began: float) -> None:
    """The daemon's second moment (the first: its socket accepts): search by meaning serves,
    the embedding model and the stored vectors being in. Logged with the seconds since
    `began` (the start, `time.perf_counter()`), and kept for `kit status`
    (`Services.vector_search_since`); until then a turn's search runs on words (its record
    says so, kit/agent.py). Embeddings off: logged once, and it never serves."""
    vectors = services.vectors
    while (missing := lacking(vectors)) or not _vectors_in(services):
        if vectors.embedder is None:
            log.info("search by meaning is off: %s", missing)
            return
        if not await _next_change(services):
            log.warning("search by meaning does not serve, and nothing loads: %s", missing)
            return
    services.vector_search_since = services.clock.now()
    sd_notify("STATUS=search by meaning serves")
    log.info(
        "search by meaning serves, %.1f s after the start (CPU %.1f s; the embedding model and"
        " %d vectors are in)",
        time.perf_counter() - began,
        time.process_time(),
        _loaded(services),
    )


async def _next_change(services: Services) -> bool:
    """Until the model is loaded (or failed), or the vectors' load is done (False: neither
    is under way)."""
    waits = []
    embedder = services.vectors.embedder
    if isinstance(embedder, LazyEmbedder) and not embedder.done.is_set():
        waits.append(asyncio.ensure_future(embedder.done.wait()))
    store = services.vectors.store
    if isinstance(store, MatrixVectors) and not store.load.done.is_set():
        waits.append(asyncio.ensure_future(store.load.done.wait()))
    if not waits:
        return False
    try:
        await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for wait in waits:
            wait.cancel()
    return True


def _vectors_in(services: Services) -> bool:
    """The store's load at start is done (a store that loads nothing is always in)."""
    store = services.vectors.store
    return not isinstance(store, MatrixVectors) or store.load.done.is_set()


def _loaded(services: Services) -> int:
    store = services.vectors.store
    return store.load.loaded if isinstance(store, MatrixVectors) else 0


async def _users(services: Services) -> list[str]:
    owner = services.settings.owner.user_id
    recent = await services.messages.recent_users(RECENT_USERS)
    return list(dict.fromkeys([owner, *recent]))
