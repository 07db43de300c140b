"""The daemon process's worker threads (the pool `asyncio.to_thread` runs in), which its exit
waits for only so long.

A thread cannot be cancelled. At shutdown the work that started one is cancelled
(kit/daemon/runner.py), but the thread runs on to its end: the embedding model's load
(fastembed's imports and the ONNX session: seconds, a minute on a loaded machine, for ever on a
stuck disk), an SDK's import. Python waits for such a thread twice over, in asyncio.run's
executor shutdown and at the interpreter's exit, so `kit run` outlived SIGTERM by as long as
the load took, and `systemctl stop` with it. `kit run` owns the pool instead, gives its threads
a bounded time to end once the daemon has stopped, and then leaves without them: by then
everything Kit holds (the database, the log file, the locks) is closed, and a thread that is
still running only holds a half-loaded model.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sys
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import NoReturn, ParamSpec, TypeVar

log = logging.getLogger(__name__)

P = ParamSpec("P")
T = TypeVar("T")


class WorkerThreads(ThreadPoolExecutor):
    """A thread pool that knows how much of its work is still running (the standard one
    does not say), and whose shutdown can be bounded. `install` makes it the loop's default."""

    def __init__(self) -> None:
        super().__init__(thread_name_prefix="kit-worker")
        self._running = 0
        self._count_lock = threading.Lock()

    @classmethod
    def install(cls) -> WorkerThreads:
        pool = cls()
        asyncio.get_running_loop().set_default_executor(pool)
        return pool

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        with self._count_lock:
            self._running += 1
        try:
            future = super().submit(fn, *args, **kwargs)
        except BaseException:
            self._finished(None)
            raise
        future.add_done_callback(self._finished)
        return future

    def _finished(self, _: object) -> None:
        with self._count_lock:
            self._running -= 1

    @property
    def running(self) -> int:
        """Work submitted and not finished yet."""
        with self._count_lock:
            return self._running

    async def stop(self, within: float) -> bool:
        """Shut the pool down, waiting up to `within` seconds for work still running; False
        if some is still running then (leave with `exit_without_them`)."""
        loop = asyncio.get_running_loop()
        stopped = asyncio.Event()

        def shut_down() -> None:  # joins the threads: off the loop, in a thread of its own
            self.shutdown(wait=True)
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(stopped.set)

        threading.Thread(target=shut_down, name="kit-worker-shutdown", daemon=True).start()
        try:
            async with asyncio.timeout(within):
                await stopped.wait()
        except TimeoutError:
            return False
        return True

    def exit_without_them(self, code: int) -> NoReturn:
        """End the process now, leaving the threads that are still running (Python would
        wait for them at exit); what is buffered is written out first."""
        log.warning(
            "exiting without waiting for %d worker thread(s) still running (a model load or an "
            "import cannot be cut short); everything Kit holds is closed",
            self.running,
        )
        logging.shutdown()
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        os._exit(code)
