"""The status line: daemon or standalone, the models, tokens used today, the last REM, and a
warning while background work is paused by its spent budget."""

from __future__ import annotations

from datetime import tzinfo

from textual.widgets import Static

from kit.surface import Status
from tui.format import when


def _short(model: str) -> str:
    return model.removeprefix("claude-")


def status_text(status: Status | None, tz: tzinfo, width: int) -> str:
    """The line to show, shortened (model names first) until it fits `width`."""
    if status is None:
        return "connecting…"
    mode = "● daemon" if status.mode == "daemon" else "○ standalone"
    embed = status.embedding_model.rsplit("/", 1)[-1] if status.embedding_model else "lexical only"
    job = status.reindex
    if job is not None and job.total:  # the owner changed the model: how far the new one got
        embed += f" (re-embedding {job.done * 100 // job.total}%)"
    rem = when(status.last_rem_at, tz, empty="never")
    tokens = f"{status.tokens_today:,} tokens today"
    paused = status.background is not None and status.background.paused
    if paused:  # the owner should see that curation and summaries stopped
        tokens += " (background budget spent)"
    full = [
        mode,
        f"{status.chat_model} / {status.small_model}",
        f"embed {embed}",
        tokens,
        f"last REM {rem}",
    ]
    shorter = [
        mode,
        f"{_short(status.chat_model)}/{_short(status.small_model)}",
        tokens,
        f"REM {rem}",
    ]
    shortest = [
        mode,
        f"{_short(status.chat_model)}/{_short(status.small_model)}",
        f"{status.tokens_today:,} tok today" + (", bg spent" if paused else ""),
        f"REM {rem[5:]}" if status.last_rem_at is not None else "REM never",
    ]
    for parts in (full, shorter, shortest):
        line = " │ ".join(parts)
        if len(line) <= width:
            return line
    return " │ ".join(shortest)[: max(0, width)]


class StatusLine(Static):
    """Shows the last `Status` the client reported; `KitApp` refreshes it after every change,
    and says so at once when there is no engine to ask (the daemon stopped)."""

    def __init__(self, tz: tzinfo, *, id: str | None = None) -> None:
        super().__init__("connecting…", markup=False, id=id)
        self._tz = tz
        self.status: Status | None = None
        self.lost: str | None = None

    def show(self, status: Status) -> None:
        self.status = status
        self.lost = None
        self.remove_class("lost")
        self._render_line()

    def show_lost(self, what: str) -> None:
        self.status = None
        self.lost = what
        self.add_class("lost")
        self._render_line()

    def on_resize(self) -> None:
        self._render_line()

    def _render_line(self) -> None:
        width = self.content_region.width or self.app.size.width
        if self.lost is not None:
            self.update(f"✕ {self.lost}"[: max(0, width)])
        else:
            self.update(status_text(self.status, self._tz, width))
