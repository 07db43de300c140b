"""Pick the front-end's engine: the running daemon over its socket, or Kit in this process.

Whoever runs the engine holds the data directory's lock (kit/daemon/lock.py), so there are
never two engines writing one data directory: a daemon makes front-ends use the socket, and
a standalone `kit chat` / `kit tui` keeps a daemon (or another standalone one) from starting.

The engine in this process (`Kit`, and everything it wires) is loaded only when it is the one
used: a command the daemon answers loads the socket's client and the declaration of the
operations, nothing more (tests/cli/test_startup.py).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING

from kit.config import Settings, load_settings
from kit.daemon.lock import AlreadyRunning, DataDirLock, Holder, store_file_lock
from kit.daemon.paths import log_path, socket_path
from kit.daemon.socket_client import DaemonUnavailable, SocketClient
from kit.errors import KitError
from kit.surface import KitClient

if TYPE_CHECKING:
    from kit.api import Kit
    from kit.client import LocalClient
    from kit.clock import Clock
    from kit.embed.base import Embedder
    from kit.llm.base import LLM

log = logging.getLogger(__name__)

READY_TIMEOUT = 30.0  # a daemon that holds the lock may still be loading its model


@asynccontextmanager
async def connect(
    args: argparse.Namespace, *, background: bool = True, settle: bool = True
) -> AsyncIterator[KitClient]:
    """`connect_to` from the global flags (--config, --data-dir, --user)."""
    settings = load_settings(args.config, args.data_dir)
    async with connect_to(settings, user=args.user, background=background, settle=settle) as client:
        yield client


@asynccontextmanager
async def connect_to(
    settings: Settings,
    *,
    user: str | None = None,
    background: bool = True,
    ready_timeout: float = READY_TIMEOUT,
    llm: LLM | None = None,
    embedder: Embedder | None = None,
    clock: Clock | None = None,
    settle: bool = True,
) -> AsyncIterator[KitClient]:
    """The daemon's `SocketClient` if one holds the data directory, else a `LocalClient` on
    Kit opened here (with `llm` / `embedder` / `clock` if given: tests, scripts). With
    `settle`, pending embeddings and summaries are finished before it closes (a read-only
    command passes False: it must change nothing)."""
    lock = DataDirLock(settings.data_dir)
    holder = lock.try_acquire("standalone")
    if holder is None:
        engine = engine_here(
            settings,
            lock,
            user=user,
            background=background,
            llm=llm,
            embedder=embedder,
            clock=clock,
            settle=settle,
        )
        async with engine as here:
            yield here
        return
    if holder.role != "daemon":
        raise AlreadyRunning(
            f"{settings.data_dir}: {holder.describe()} is using this data directory; close "
            "it first, or run the daemon (`kit run`) so several front-ends can share one Kit",
            holder,
        )
    # Its operations are generated from kit/surface.py, which the type checker cannot see
    # (it sees their declared signatures; tests/daemon/test_client_parity.py checks they exist).
    client = SocketClient(socket_path(settings.data_dir), user=user)  # type: ignore[abstract]
    await wait_until_ready(client, holder, settings, ready_timeout)
    yield client


@asynccontextmanager
async def engine_here(
    settings: Settings,
    lock: DataDirLock,
    *,
    user: str | None = None,
    background: bool = True,
    llm: LLM | None = None,
    embedder: Embedder | None = None,
    clock: Clock | None = None,
    settle: bool = True,
) -> AsyncIterator[LocalClient]:
    """Kit in this process, under `lock` (taken by the caller, released here at the end).
    With `settle`, pending embeddings and summaries are finished before it closes."""
    from kit.api import Kit  # the whole core: loaded here, where it runs
    from kit.client import LocalClient

    file_lock = store_file_lock(settings)
    try:
        if file_lock is not None:
            file_lock.acquire("standalone")
        # Nothing settled and no background work: a command that changes nothing of its own
        # (kit mcp --read-only, kit context), so not even the embedding model is recorded.
        async with Kit.open(
            settings=settings,
            llm=llm,
            embedder=embedder,
            clock=clock,
            background=background,
            record_model=settle or background,
        ) as kit:
            yield LocalClient(kit, kit.now(), user=user)
            if settle:
                await _settle(kit)
    finally:
        if file_lock is not None:
            file_lock.release()
        lock.release()


async def wait_until_ready(
    client: SocketClient, holder: Holder, settings: Settings, within: float
) -> None:
    """Retry with backoff, for at most `within` seconds, while a daemon that already holds
    the lock loads its model and binds the socket; then a clear error. (Connecting is the
    only way to learn the socket is up: the daemon tells systemd, not its clients.)"""
    delay = 0.05
    try:
        async with asyncio.timeout(within):
            while True:
                try:
                    await client.status()
                    return
                except DaemonUnavailable:
                    await asyncio.sleep(delay)
                    delay = min(delay * 2, 1.0)
    except TimeoutError:
        raise DaemonUnavailable(
            f"{holder.describe()} holds {settings.data_dir} but its control socket "
            f"{client.path} has not answered for {within:.0f}s; see "
            f"{log_path(settings.data_dir)}, or stop it (kill {holder.pid or '<pid>'})"
        ) from None


async def _settle(kit: Kit) -> None:
    """Finish embeddings and window summaries before an in-process engine closes."""
    try:
        await kit.settle()
    except KitError as exc:
        log.warning("background work left for next time: %s", exc)
