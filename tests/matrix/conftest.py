"""Kit's Matrix channel against a real homeserver: Synapse on 127.0.0.1 (one per session and
worker, tests/support/synapse.py), Kit's account and the people's each registered per test, the
people using the real matrix-nio client (tests/support/matrix_user.py). Kit runs in process
(FakeLLM + HashingEmbedder, a real store)."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

from kit.api import Kit
from kit.channel_settings import MatrixSettings
from kit.channels.matrix.channel import MatrixChannel
from kit.config import Settings
from tests.support import synapse
from tests.support.matrix_user import MatrixUser


@pytest.fixture(scope="session")
def homeserver(tmp_path_factory: pytest.TempPathFactory) -> Iterator[synapse.Homeserver]:
    server = synapse.start(tmp_path_factory.mktemp("synapse"))
    try:
        yield server
    finally:
        synapse.stop(server)


@dataclasses.dataclass
class Accounts:
    kit: synapse.User
    owner: synapse.User
    stranger: synapse.User


@pytest.fixture
def accounts(homeserver: synapse.Homeserver) -> Accounts:
    return Accounts(
        homeserver.register("kit"), homeserver.register("owner"), homeserver.register("stranger")
    )


def matrix_settings(
    settings: Settings, homeserver: synapse.Homeserver, users: dict[str, str]
) -> Settings:
    return dataclasses.replace(
        settings, matrix=MatrixSettings(homeserver=homeserver.url, allowed_user_ids=users)
    )


@pytest.fixture
async def owner(homeserver: synapse.Homeserver, accounts: Accounts) -> AsyncIterator[MatrixUser]:
    person = MatrixUser(homeserver.url, accounts.owner)
    await person.sync()
    yield person
    await person.close()


@pytest.fixture
async def stranger(homeserver: synapse.Homeserver, accounts: Accounts) -> AsyncIterator[MatrixUser]:
    person = MatrixUser(homeserver.url, accounts.stranger)
    await person.sync()
    yield person
    await person.close()


ChannelFactory = Callable[..., MatrixChannel]


@pytest.fixture
def make_channel(
    settings: Settings, homeserver: synapse.Homeserver, accounts: Accounts
) -> Callable[..., MatrixChannel]:
    def make(kit: Kit, **options: Any) -> MatrixChannel:
        defaults: dict[str, Any] = {
            "settings": matrix_settings(settings, homeserver, {accounts.owner.user_id: "owner"}),
            "poll_timeout": 5.0,
            "stop_timeout": 10.0,
            "typing_every": 0.2,
        }
        defaults.update(options)
        return MatrixChannel(kit.services, accounts.kit.token, **defaults)

    return make


@asynccontextmanager
async def running(channel: MatrixChannel) -> AsyncIterator[asyncio.Task[None]]:
    """The channel in a TaskGroup, its first sync done; cancelled (and stopped) on exit."""
    async with asyncio.TaskGroup() as group:
        task = group.create_task(channel.run(), name="matrix")
        try:
            async with asyncio.timeout(120):
                await channel.synced.wait()
            yield task
        finally:
            task.cancel()
