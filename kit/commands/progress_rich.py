"""The progress bar as rich draws it (kit/commands/progress.py decides whether to draw one):
counts, the time so far and an estimate of the time left."""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console
from rich.progress import (
    BarColumn,
    Progress,
    ProgressColumn,
    SpinnerColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
)
from rich.text import Text


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


def drawn_progress(
    console: Console | None, get_time: Callable[[], float] | None, *, stdout_on_terminal: bool
) -> Progress:
    """A transient bar on `console` (default: stderr); `stdout_on_terminal` from
    kit/commands/progress.py, which decides (this module only draws)."""
    return Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        _Counts(),
        TimeElapsedColumn(),
        _Left(),
        console=Console(stderr=True) if console is None else console,
        get_time=get_time,
        transient=True,
        # What the command prints meanwhile goes above the bar when both share the screen;
        # printed into a file it stays there, untouched.
        redirect_stdout=stdout_on_terminal,
    )
