"""The C heap of a long-running process, kept lean (glibc only; elsewhere these do nothing).

glibc gives every thread that allocates while another holds the heap an arena of its own, up
to eight per core, and keeps what is freed in each for later: a daemon's worker threads (the
database connections, `asyncio.to_thread`, the ONNX session) leave a few megabytes behind in
each. Measured on the 100k archive (`bench/footprint.py`, README "Memory, start-up and disk"):
two arenas and a trim after each burst of background work keep ~25 MB less resident, at no
cost a turn can see. A trim hands back the free pages of every arena (`malloc_trim(0)`): a
few milliseconds on the loop, so it runs after background work, never during a turn.

Python's own heap: what a daemon's start and warm-up made (the word index's terms, the
conversations' links, modules) lives as long as the process, and every full collection of the
cyclic garbage collector walked it again. `freeze` moves it out of the collector's sight once
the warm-up is done (`gc.freeze`): at 100k items ~83,000 objects, and a full collection during
a build took 68 ms at load 3 (issue 33, round 9; docs/measurements.md). It does not
move a turn's p95: full collections are rare (one in ~360 builds).
"""

from __future__ import annotations

import ctypes
import gc
import logging
import sys
import time
from functools import cache
from typing import Any

log = logging.getLogger(__name__)

M_ARENA_MAX = -8  # mallopt's parameter number (malloc.h)
ARENAS = 2


@cache
def _glibc() -> Any | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.gnu_get_libc_version  # noqa: B018 - present in glibc, absent in musl
    except (OSError, AttributeError):
        return None
    return libc


def limit_arenas(arenas: int = ARENAS) -> bool:
    """At most `arenas` malloc arenas from now on (call before threads start). False when
    this is not glibc."""
    libc = _glibc()
    return libc is not None and bool(libc.mallopt(M_ARENA_MAX, arenas))


def trim() -> None:
    """Hand the heap's free pages back to the system."""
    libc = _glibc()
    if libc is None:
        return
    began = time.perf_counter()
    libc.malloc_trim(0)
    log.debug("heap trimmed in %.1f ms", (time.perf_counter() - began) * 1000)


def freeze() -> int:
    """Collect, then keep every object alive now out of later collections (`gc.freeze`).
    Returns how many are frozen."""
    began = time.perf_counter()
    gc.collect()
    gc.freeze()
    frozen = gc.get_freeze_count()
    log.debug("%d objects frozen in %.1f ms", frozen, (time.perf_counter() - began) * 1000)
    return frozen
