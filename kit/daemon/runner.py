"""The daemon process: resources on one AsyncExitStack, everything that runs in ONE TaskGroup.

Start-up: lock the data directory, open the log file, open Kit (no embedding model, no model
SDK yet), then run the background worker, the control socket and the edge components
(scheduler, Telegram, Matrix) side by side: the daemon is ready once its socket listens, whatever
memory holds. After ready (kit/daemon/warm.py): the vectors and the embedding model first
(then search by meaning serves), then the model clients and caches, then the re-embedding
after a model change (kit/daemon/reindex.py) and the scheduler's catch-up.
Shutdown has one path: SIGTERM/SIGINT -> `ShutdownSignals.requested` -> stop the edge
components and new requests -> in-flight requests get `grace` seconds -> cancel the rest
(a turn cut short records an interrupted reply; the owner's message was stored first).
A second signal skips the grace period. Every teardown step is bounded (and `kit run` bounds
the wait for worker threads still running after it all, kit/daemon/threads.py).
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import time
from collections.abc import Callable, Sequence
from contextlib import AsyncExitStack
from typing import Protocol

from kit import heap
from kit.api import Kit
from kit.app import Services
from kit.channels.base import ChannelRecord
from kit.channels.registry import CHANNELS
from kit.client import LocalClient
from kit.clock import Clock
from kit.config import Settings
from kit.daemon.grace import DEFAULT_GRACE, STEP_TIMEOUT
from kit.daemon.lock import DataDirLock, store_file_lock
from kit.daemon.logfile import add_file_log, remove_file_log
from kit.daemon.notify import sd_notify
from kit.daemon.paths import log_path, socket_path
from kit.daemon.socket_server import ControlServer
from kit.daemon.warm import start
from kit.embed.base import Embedder
from kit.errors import KitError
from kit.llm.base import LLM
from kit.version import kit_version

log = logging.getLogger(__name__)


class Component(Protocol):
    """Something the daemon runs beside the core: a channel, the scheduler.

    `run()` works until cancelled and cleans up (bounded) when it is. A channel is one
    (kit/channels/base.py `Channel`)."""

    @property
    def name(self) -> str: ...

    async def run(self) -> None: ...


ComponentFactory = Callable[[Services], Component]


class ShutdownSignals:
    """SIGTERM/SIGINT -> `requested`; a second signal -> `hurried` (skip the grace period)."""

    def __init__(self) -> None:
        self.requested = asyncio.Event()
        self.hurried = False
        self.on_hurry: Callable[[], None] = lambda: None
        self._installed: list[signal.Signals] = []

    def install(self) -> None:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, self.received, sig)
            self._installed.append(sig)

    def uninstall(self) -> None:
        loop = asyncio.get_running_loop()
        for sig in self._installed:
            loop.remove_signal_handler(sig)
        self._installed.clear()

    def received(self, sig: signal.Signals) -> None:
        """What SIGTERM/SIGINT do (callable directly by tests and embedding programs)."""
        if self.requested.is_set():
            log.warning("%s again: not waiting for in-flight replies", sig.name)
            self.hurried = True
            self.on_hurry()
            return
        log.info("%s received: shutting down", sig.name)
        self.requested.set()


async def run_daemon(
    settings: Settings,
    *,
    components: Sequence[ComponentFactory] = (),
    grace: float = DEFAULT_GRACE,
    llm: LLM | None = None,
    embedder: Embedder | None = None,
    clock: Clock | None = None,
    signals: ShutdownSignals | None = None,
) -> None:
    """Run Kit as the daemon for `settings.data_dir` until SIGTERM/SIGINT."""
    began = time.perf_counter()  # the log's two moments count from here
    signals = signals or ShutdownSignals()
    heap.limit_arenas()  # before the worker threads start (kit/heap.py)
    sock = socket_path(settings.data_dir)
    async with AsyncExitStack() as stack:
        signals.install()
        stack.callback(signals.uninstall)
        lock = DataDirLock(settings.data_dir)
        lock.acquire("daemon")
        stack.callback(lock.release)
        file_lock = store_file_lock(settings)
        if file_lock is not None:
            file_lock.acquire("daemon")
            stack.callback(file_lock.release)
        logfile = log_path(settings.data_dir)
        stack.callback(remove_file_log, add_file_log(logfile))
        stack.callback(log.info, "Kit stopped")  # runs before the file log is detached
        log.info("Kit %s starting on %s (pid %d)", kit_version(), settings.data_dir, os.getpid())
        channel_tokens = _channel_tokens(settings)
        kit = await stack.enter_async_context(
            Kit.open(
                settings=settings,
                llm=llm,
                embedder=embedder,
                clock=clock,
                background=False,
                model_later=True,  # loaded in the background when needed (kit/daemon/warm.py)
            )
        )
        await kit.services.db.check_pages()  # once per start: a damaged page is found now
        started_at = kit.services.clock.now()

        def client_for(user: str | None) -> LocalClient:
            return LocalClient(kit, started_at, user=user, mode="daemon")

        server = ControlServer(sock, client_for, log_file=logfile)
        parts = [make(kit.services) for make in components]
        parts += _channels(kit.services, channel_tokens, grace)
        try:
            await _serve(kit.services, server, parts, signals, grace, began)
        except BaseExceptionGroup as group:
            raise _first_kit_error(group) or group from group


async def _serve(
    services: Services,
    server: ControlServer,
    parts: Sequence[Component],
    signals: ShutdownSignals,
    grace: float,
    began: float,
) -> None:
    services.vectors.model_in_background = True  # `load_model` below: turns never wait
    services.warmed_up.clear()  # set by `warm` below, once the daemon is ready
    async with asyncio.TaskGroup() as group:
        worker = group.create_task(services.background.run(), name="background")
        services.background.notify()  # embeddings a previous run did not get to
        serving = group.create_task(server.run(), name="control-socket")
        edge = [group.create_task(part.run(), name=part.name) for part in parts]
        await server.listening.wait()
        names = ", ".join(["control socket", *(p.name for p in parts)])
        log.info(
            "Kit is running (%s); control socket %s accepts, %.1f s after the start (CPU %.1f"
            " s); search by meaning follows when the embedding model and the vectors are in",
            names,
            server.path,
            time.perf_counter() - began,
            time.process_time(),
        )
        sd_notify("READY=1")
        # Ready first, then in the background (kit/daemon/warm.py `start`): the vectors and
        # the embedding model, then the model clients and per-user caches, then the rest.
        # A turn before they are in is answered with what is loaded (its record says so).
        background = start(services, group, began)

        await signals.requested.wait()
        sd_notify("STOPPING=1")
        server.stop_accepting()
        for task in edge:  # channels stop taking messages; turns they started carry on
            task.cancel()
        agent = services.agent
        try:
            async with asyncio.timeout(0 if signals.hurried else grace) as deadline:
                signals.on_hurry = lambda: deadline.reschedule(asyncio.get_running_loop().time())
                await server.wait_idle()
                await agent.wait_idle()
        except TimeoutError:
            log.warning(
                "%d turn(s) still running after the grace period; cancelling them (the owner's "
                "messages are saved and their replies marked as interrupted)",
                agent.interrupt(),
            )
            try:
                async with asyncio.timeout(STEP_TIMEOUT):
                    await agent.wait_idle()
                    # ...and their clients are told so ("shut down before it finished") before
                    # the connections close: a cut turn's answer is written after it ends.
                    await server.wait_idle()
            except TimeoutError:
                log.error("turns did not stop within %.0f s of being cancelled", STEP_TIMEOUT)
        serving.cancel()
        worker.cancel()
        for task in background:
            task.cancel()


def _first_kit_error(group: BaseExceptionGroup[BaseException]) -> KitError | None:
    """A component that failed with a KitError (say, a bad Telegram allowlist) is reported
    as that one actionable line, not as a task-group traceback."""
    for exc in group.exceptions:
        if isinstance(exc, KitError):
            return exc
        if isinstance(exc, BaseExceptionGroup):
            found = _first_kit_error(exc)
            if found is not None:
                return found
    return None


def _channel_tokens(settings: Settings) -> list[tuple[ChannelRecord, str]]:
    """The channels whose token is set (kit/channels/registry.py), each with its settings
    checked before anything loads; a line in the log for each one that is off."""
    on = []
    for record in CHANNELS:
        token = record.token(os.environ)
        if token is None:
            log.info("%s", record.off)
            continue
        record.check(settings)  # a ConfigError says which line to fix
        on.append((record, token))
    return on


def _channels(
    services: Services, tokens: list[tuple[ChannelRecord, str]], grace: float
) -> list[Component]:
    # A channel's stop waits for replies in flight: as long as the grace period, and a step
    # more. One worker among those on a database runs each (one poller, one sync).
    return [
        OneWorker(services, record.make(services, token, grace + STEP_TIMEOUT))
        for record, token in tokens
    ]


class OneWorker:
    """A component that one worker at a time runs for all the workers on one database (Telegram
    polling: Telegram allows one poller per bot). It waits for the component's lease, runs it
    while renewing the lease, and is taken over by another worker when this one dies; on
    SQLite, with one worker per file, the lease is always free."""

    def __init__(self, services: Services, part: Component) -> None:
        self.name = part.name
        self._leases = services.leases
        self._part = part

    async def run(self) -> None:
        await self._leases.serve(self.name, self._part.run)
