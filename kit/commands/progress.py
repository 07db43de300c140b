"""Progress for work that can take more than a moment (importing, embedding, curating,
summarising, REM, evaluating): a bar with counts, the time so far and an estimate of the time
left, drawn on stderr by rich (which Textual already brings; loaded from progress_rich.py
only when a bar is drawn, so a command that draws none does not pay for it).

Only on a terminal: when stderr is piped or redirected (scripts, cron, a systemd unit) nothing
is drawn and the command's output is exactly what it was. The bar is transient: it disappears
when the work is done, leaving the command's own summary line.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, TextIO, TypeVar

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress, TaskID

T = TypeVar("T")


class Bar:
    """One piece of work's progress. Without a terminal (`progress=None`) every call is a
    no-op, so commands report progress the same way whether it is shown or not."""

    def __init__(self, progress: Progress | None = None, task: TaskID | None = None) -> None:
        self._progress = progress
        self._task = task

    @property
    def shown(self) -> bool:
        return self._progress is not None

    def advance(self, amount: int = 1) -> None:
        if self._progress is not None and self._task is not None:
            self._progress.advance(self._task, amount)

    def update(
        self,
        *,
        description: str | None = None,
        total: int | None = None,
        completed: int | None = None,
    ) -> None:
        if self._progress is not None and self._task is not None:
            self._progress.update(
                self._task, description=description, total=total, completed=completed
            )

    def track(self, items: Iterable[T]) -> Iterator[T]:
        """`items`, advancing the bar by one as each is taken."""
        for item in items:
            yield item
            self.advance()


def on_terminal(stream: TextIO | None = None) -> bool:
    """Whether `stream` (default stderr, where progress is drawn) is a terminal."""
    stream = sys.stderr if stream is None else stream
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # no stream, or a closed one
        return False


@contextmanager
def progress(
    description: str,
    *,
    total: int | None = None,
    unit: str = "",
    console: Console | None = None,
    get_time: Callable[[], float] | None = None,
) -> Iterator[Bar]:
    """A bar for the work done inside the block; `console` and `get_time` for tests (default:
    stderr, and nothing at all when stderr is not a terminal; the monotonic clock)."""
    if console is None and not on_terminal():
        yield Bar()
        return
    from kit.commands.progress_rich import drawn_progress

    shown = drawn_progress(console, get_time, stdout_on_terminal=on_terminal(sys.stdout))
    before = sys.stderr
    with shown, _logs_to(sys.stderr, instead_of=before):
        yield Bar(shown, shown.add_task(description, total=total, unit=unit))


@contextmanager
def _logs_to(stream: TextIO, *, instead_of: TextIO) -> Iterator[None]:
    """While the bar is drawn, rich stands in for stderr (`stream`) so that what is written
    there goes above the bar; log handlers hold the real stderr, so they are pointed at the
    stand-in too (a warning mid-import must not land in the middle of the bar)."""
    handlers = [
        h
        for h in logging.getLogger().handlers
        if isinstance(h, logging.StreamHandler)
        and not isinstance(h, logging.FileHandler)
        and h.stream is instead_of
        and stream is not instead_of
    ]
    for handler in handlers:
        handler.setStream(stream)
    try:
        yield
    finally:
        for handler in handlers:
            handler.setStream(instead_of)
