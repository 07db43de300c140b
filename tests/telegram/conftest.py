"""The real python-telegram-bot Application against the local Bot API server, with an
in-process Kit (FakeLLM + HashingEmbedder, real SQLite)."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

from kit.api import Kit
from kit.channel_settings import TelegramSettings
from kit.channels.telegram.channel import TelegramChannel
from kit.config import Settings
from tests.servers.telegram_api import HANG_GUARD, FakeTelegramServer

OWNER_TG = 1001
ANA_TG = 2002
STRANGER_TG = 666


@pytest.fixture
def tg() -> Iterator[FakeTelegramServer]:
    with FakeTelegramServer() as server:
        yield server


def telegram_settings(
    settings: Settings,
    server: FakeTelegramServer,
    users: dict[str, str] | None = None,
    groups: dict[str, str] | None = None,
) -> Settings:
    users = {str(OWNER_TG): "owner", str(ANA_TG): "ana"} if users is None else users
    return dataclasses.replace(
        settings,
        telegram=TelegramSettings(
            base_url=server.base_url, allowed_user_ids=users, allowed_group_ids=groups or {}
        ),
    )


class Sleeps:
    """Flood-control waits the channel asked for (then really waited, scaled down)."""

    def __init__(self) -> None:
        self.seconds: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.seconds.append(seconds)
        await asyncio.sleep(min(seconds, 0.05))


@pytest.fixture
def sleeps() -> Sleeps:
    return Sleeps()


class StallWaits:
    """The poll watchdog's waits of `stall_after` seconds, which only the test ends: `expire()`
    ends the one running (or else the next) as if that time had passed with no poll answered.
    A wait an answered poll ends early is counted in `cut_short`."""

    def __init__(self) -> None:
        self.seconds: list[float] = []  # each wait begun, with the seconds it stood for
        self.cut_short = 0
        self._expired = asyncio.Event()

    async def __call__(self, seconds: float) -> None:
        self.seconds.append(seconds)
        try:
            await self._expired.wait()
        except asyncio.CancelledError:
            self.cut_short += 1
            raise
        self._expired.clear()  # spent by this wait only: it stays set until a wait ends by it

    def expire(self) -> None:
        self._expired.set()


ChannelFactory = Callable[..., TelegramChannel]


@pytest.fixture
def make_channel(
    kit: Kit, tg: FakeTelegramServer, settings: Settings, sleeps: Sleeps
) -> ChannelFactory:
    def make(**options: Any) -> TelegramChannel:
        defaults: dict[str, Any] = {
            "settings": telegram_settings(settings, tg),
            "poll_timeout": 1.0,
            "stop_timeout": 10.0,  # a bound on each teardown step, reached only by a hang
            "typing_every": 0.2,
            "sleep": sleeps,
        }
        defaults.update(options)
        return TelegramChannel(kit.services, tg.token, **defaults)

    return make


@asynccontextmanager
async def running(channel: TelegramChannel) -> AsyncIterator[asyncio.Task[None]]:
    """The channel inside a TaskGroup, cancelled (and cleanly stopped) on exit."""
    async with asyncio.TaskGroup() as group:
        task = group.create_task(channel.run(), name="telegram")
        try:
            yield task
        finally:
            task.cancel()


async def wait_until(condition: Callable[[], bool], timeout: float = HANG_GUARD) -> None:  # noqa: ASYNC109
    # The server is another thread with no asyncio signal to await, so the test polls.
    async with asyncio.timeout(timeout):
        while not condition():  # noqa: ASYNC110
            await asyncio.sleep(0.01)


def methods(server: FakeTelegramServer) -> list[str]:
    return [method for method, _ in server.calls]
