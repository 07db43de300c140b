"""Progress for work that can take more than a moment (importing, embedding, curating,
summarising, REM, evaluating): a bar with counts, the time so far and an estimate of the time
left, drawn on stderr by rich (which Textual already brings).

Only on a terminal: when stderr is piped or redirected (scripts, cron, a systemd unit) nothing
is drawn and the command's output is exactly what it was. The bar is transient: it disappears
when the work is done, leaving the command's own summary line.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TextIO, TypeVar

from rich.console import Console
from rich.progress import (
    BarColumn,
    Progress,
    ProgressColumn,
    SpinnerColumn,
    Task,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)
from rich.text import Text

T = TypeVar("T")


class _Counts(ProgressColumn):
    """ "1,500/3,000 messages" (or "12 passes" while the total is unknown)."""

    def render(self, task: Task) -> Text:
        if task.total is None and not task.completed:
            return Text("")  # a spinner alone: nothing counted yet
        done = f"{int(task.completed):,}"
        if task.total is not None:
            done += f"/{int(task.total):,}"
        unit = str(task.fields.get("unit", ""))
        return Text(f"{done} {unit}".rstrip(), style="progress.download")


class _Left(ProgressColumn):
    """ "~2m 10s left", once rich has seen enough of the pace to say (nothing before that)."""

    max_refresh = 1.0  # an estimate that jumps ten times a second is no estimate

    def render(self, task: Task) -> Text:
        left = task.time_remaining
        if task.total is None or left is None or task.finished:
            return Text("")
        minutes, seconds = divmod(int(left + 0.5), 60)
        hours, minutes = divmod(minutes, 60)
        if hours:
            shown = f"{hours}h {minutes:02d}m"
        elif minutes:
            shown = f"{minutes}m {seconds:02d}s"
        else:
            shown = f"{seconds}s"
        return Text(f"~{shown} left", style="progress.remaining")


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
    if console is None:
        if not on_terminal():
            yield Bar()
            return
        console = Console(stderr=True)
    shown = Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        _Counts(),
        TimeElapsedColumn(),
        _Left(),
        console=console,
        get_time=get_time,
        transient=True,
        # What the command prints meanwhile goes above the bar when both share the screen;
        # printed into a file it stays there, untouched.
        redirect_stdout=on_terminal(sys.stdout),
    )
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
        if type(h) is logging.StreamHandler and h.stream is instead_of and stream is not instead_of
    ]
    for handler in handlers:
        handler.setStream(stream)
    try:
        yield
    finally:
        for handler in handlers:
            handler.setStream(instead_of)
