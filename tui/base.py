"""What every pane shares: the client, the owner's time zone, and failure reporting."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import tzinfo
from functools import partial
from typing import TYPE_CHECKING, Any, cast

from textual.message import Message
from textual.widget import Widget
from textual.worker import Worker

from kit.client import KitClient

if TYPE_CHECKING:
    from tui.app import KitApp


class MemoryChanged(Message):
    """Something may have changed memory or usage (a turn, a deactivation, an undo, REM):
    the app refreshes the status line and asks each pane to reload what it shows."""


class Pane(Widget):
    """A widget that talks to Kit through the app's client."""

    @property
    def kit_app(self) -> KitApp:
        return cast("KitApp", self.app)

    @property
    def client(self) -> KitClient:
        return self.kit_app.client

    @property
    def tz(self) -> tzinfo:
        return self.kit_app.tz

    def work(
        self, fn: Callable[..., Awaitable[Any]], *args: Any, group: str = "default"
    ) -> Worker[Any]:
        """Run `fn(*args)` in a worker (a newer call in the same group cancels an older one),
        so a slow client never blocks the UI. `fn` reports its own failures."""
        return self.run_worker(partial(fn, *args), group=group, exclusive=True, exit_on_error=False)

    def start_reload(self) -> Worker[Any]:
        return self.work(self.reload, group="reload")

    async def reload(self) -> None:
        """Reload what the pane shows from the client (after `MemoryChanged`)."""
        raise NotImplementedError
