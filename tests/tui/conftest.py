"""TUI fixtures: the real app on the real engine (`LocalClient` over an in-process Kit with a
scripted model and a real SQLite file), and helpers to let workers and repaints finish."""

from __future__ import annotations

from datetime import UTC

import pytest
from textual.pilot import Pilot

from kit.api import Kit
from kit.client import LocalClient
from kit.clock import FakeClock
from tui.app import KitApp


@pytest.fixture
def local(kit: Kit, clock: FakeClock) -> LocalClient:
    return LocalClient(kit, clock.now())


@pytest.fixture
def app(local: LocalClient) -> KitApp:
    return KitApp(local, tz=UTC)


async def settle(pilot: Pilot[None]) -> None:
    """Let every running worker finish and the screen catch up with what they changed."""
    for _ in range(3):
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()


def notes(app: KitApp) -> list[tuple[str, str]]:
    """The notifications shown so far, as (severity, message)."""
    return [(n.severity, n.message) for n in app._notifications]
