"""What every pane shares: the client, the owner's time zone, and failure reporting."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextlib import AbstractContextManager
from datetime import tzinfo
from functools import partial
from typing import Any, cast

from textual.app import App
from textual.dom import DOMNode
from textual.message import Message
from textual.widget import Widget
from textual.widgets import DataTable
from textual.worker import Worker

from kit.surface import KitClient


def start_work(
    node: DOMNode, fn: Callable[..., Awaitable[Any]], *args: Any, group: str
) -> Worker[Any]:
    """Run `fn(*args)` in a worker owned by `node`, so a slow client never blocks the UI.
    A newer call in the same group cancels an older one; `fn` reports its own failures
    (through `KitHost.reporting()`), so a failed worker never takes the app down."""
    return node.run_worker(partial(fn, *args), group=group, exclusive=True, exit_on_error=False)


def add_columns(
    table: DataTable[str],
    fixed: tuple[tuple[str, int], ...],
    last: tuple[str, str, int],
    screen_width: int,
) -> None:
    """A table's columns: `fixed` (label, width) ones keyed by their label, then `last`
    (label, key, least width) taking the rest of the row (cell padding and a scrollbar aside)."""
    for label, width in fixed:
        table.add_column(label, width=width, key=label)
    label, key, least = last
    rest = screen_width - sum(width + 2 for _, width in fixed) - 4
    table.add_column(label, width=max(least, rest), key=key)


class KitHost(App[None]):
    """What panes and screens rely on in the app: the client, the owner's time zone, the chat's
    conversation and failure reporting. `tui.app.KitApp` is the one host; the panes name this
    instead, so the app imports its panes and no pane imports the app."""

    client: KitClient
    tz: tzinfo
    conversation: str

    def reporting(self) -> AbstractContextManager[None]:
        """Run a client call; if it fails, tell the owner what to do instead of crashing."""
        raise NotImplementedError


class MemoryChanged(Message):
    """Something may have changed memory or usage (a turn, a deactivation, an undo, REM):
    the app refreshes the status line and asks each pane to reload what it shows."""


class Pane(Widget):
    """A widget that talks to Kit through the app's client."""

    @property
    def kit_app(self) -> KitHost:
        return cast(KitHost, self.app)

    @property
    def client(self) -> KitClient:
        return self.kit_app.client

    @property
    def tz(self) -> tzinfo:
        return self.kit_app.tz

    def work(
        self, fn: Callable[..., Awaitable[Any]], *args: Any, group: str = "default"
    ) -> Worker[Any]:
        return start_work(self, fn, *args, group=group)

    def start_reload(self) -> Worker[Any]:
        return self.work(self.reload, group="reload")

    async def reload(self) -> None:
        """Reload what the pane shows from the client (after `MemoryChanged`)."""
        raise NotImplementedError
