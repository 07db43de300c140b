"""What the TUI tells the owner when a client call fails: one actionable line, never a traceback.

Every worker that talks to the client runs inside `KitApp.reporting()`, which hands the
exception here; this is the one place that turns exceptions into notifications.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

from kit.errors import KitError

log = logging.getLogger(__name__)

# Raised by a socket client when the daemon closes the connection or stops answering.
CONNECTION_ERRORS: tuple[type[BaseException], ...] = (
    ConnectionError,
    EOFError,
    asyncio.IncompleteReadError,
    TimeoutError,
)


def describe(exc: BaseException, log_file: Path | None = None) -> str:
    """A one-line message for the owner saying what went wrong and what to do."""
    if isinstance(exc, KitError):
        return str(exc)
    if isinstance(exc, CONNECTION_ERRORS):
        detail = str(exc) or type(exc).__name__
        return (
            f"lost the connection to the Kit daemon ({detail}); start it again with `kit run`, "
            "or quit (ctrl+q) and reopen `kit tui` to run standalone"
        )
    if isinstance(exc, OSError):
        return f"a system call failed ({exc}); check the data directory and free disk space"
    where = f"in {log_file}" if log_file is not None else "in the log"
    return (
        f"unexpected error ({type(exc).__name__}: {exc}); this is a bug in Kit, the "
        f"traceback is {where}"
    )


def log_failure(exc: BaseException) -> None:
    """Expected failures get a line in the log; anything else keeps its traceback there."""
    if isinstance(exc, (KitError, *CONNECTION_ERRORS)):
        log.warning("client call failed: %s", exc)
    else:
        log.error("unexpected failure in the TUI", exc_info=exc)
