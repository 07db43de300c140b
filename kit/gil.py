"""How soon a thread waiting for the GIL gets it: Python's switch interval, set for a daemon.

A turn's context build hands work to threads that release the GIL while they work: the query's
embedding (ONNX), the big vector scan (numkong), the database reads (SQLite). Each needs the GIL
back for a moment to hand in its result, and with Python's default interval (5 ms) it can wait
that long while the event loop runs Python meanwhile (the word search, fusion): the turn waits
with it. A shorter interval bounds those waits; the loop is interrupted more often, which costs
a few microseconds a switch. Measured in docs/measurements.md (issue 33, round 6).
"""

from __future__ import annotations

import sys

SWITCH_INTERVAL = 0.001  # seconds (Python's default: 0.005)


def for_turns() -> None:
    """Set the switch interval this module's note explains (process-wide; the daemon, at start)."""
    sys.setswitchinterval(SWITCH_INTERVAL)
