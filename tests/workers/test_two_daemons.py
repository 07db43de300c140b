"""End to end: two real `kit run` workers on one PostgreSQL database, the real Telegram channel
(PTB against the local Bot API server) and the real anthropic SDK (against the local Messages
API server). Every update is answered once; a worker killed with SIGKILL mid-job has its
Telegram polling and its job taken over by the other, and the job's effect lands once."""

from __future__ import annotations

import asyncio
import json
import signal
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from tests.servers.anthropic_api import FakeAnthropicServer
from tests.servers.telegram_api import FakeTelegramServer
from tests.support import postgres
from tests.support.daemon_process import DaemonProcess, write_config

pytestmark = pytest.mark.integration

OWNER = 4242
LEASE_SECONDS = 2  # short, so a takeover is quick; workers renew every third of it


@pytest.fixture
def database(postgres_server: postgres.TestServer) -> Iterator[str]:
    url = postgres.fresh_database(postgres_server)
    yield url
    postgres.drop_database(postgres_server, url)


@pytest.fixture
def servers() -> Iterator[tuple[FakeAnthropicServer, FakeTelegramServer]]:
    with FakeAnthropicServer() as anthropic, FakeTelegramServer("123456:TEST-bot-token") as tg:
        yield anthropic, tg


def workers(
    tmp_path: Path, anthropic: FakeAnthropicServer, tg: FakeTelegramServer, url: str
) -> tuple[DaemonProcess, DaemonProcess]:
    """Two workers, each with its own data directory (socket, log), sharing the database."""
    extra = (
        f'[storage]\nurl = "{url}"\n[workers]\nlease_seconds = {LEASE_SECONDS}\n'
        f'[telegram]\nbase_url = "{tg.base_url}"\nallowed_user_ids = {{ "{OWNER}" = "owner" }}\n'
    )
    config = write_config(tmp_path / "config.toml", anthropic, extra=extra)
    made = []
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        made.append(DaemonProcess(tmp_path / name, config, env={"TELEGRAM_BOT_TOKEN": tg.token}))
    return made[0], made[1]


def rows(url: str, sql: str) -> list[tuple[Any, ...]]:
    async def query() -> list[tuple[Any, ...]]:
        import asyncpg

        conn = await asyncpg.connect(url)
        try:
            return [tuple(r) for r in await conn.fetch(sql)]
        finally:
            await conn.close()

    return asyncio.run(query())


def wait_until(condition: Callable[[], bool], what: str) -> None:
    # The workers are other processes: nothing to await, so the test polls (bounded).
    deadline = time.monotonic() + 60
    while not condition():
        assert time.monotonic() < deadline, f"never happened: {what}"
        time.sleep(0.05)


def test_each_update_is_answered_once_and_polling_moves_to_the_survivor_of_a_sigkill(
    tmp_path: Path, servers: tuple[FakeAnthropicServer, FakeTelegramServer], database: str
) -> None:
    anthropic, tg = servers
    anthropic.responder = lambda body: f"answer {len(anthropic.requests)}"
    a, b = workers(tmp_path, anthropic, tg, database)
    try:
        a.start()
        b.start()
        lease = "SELECT owner FROM leases WHERE name = 'telegram'"
        # Ready means the sockets listen; taking the polling lease may come a moment later.
        wait_until(lambda: bool(rows(database, lease)), "a worker holds the telegram lease")
        holder = rows(database, lease)
        poller, other = (a, b) if holder[0][0].endswith(f":{a.pid}") else (b, a)
        for n in range(3):
            tg.push_text(OWNER, f"question {n}")
        tg.wait_for_sent(3, timeout=60)

        poller.signal(signal.SIGKILL)
        poller.wait()
        tg.push_text(OWNER, "question after the kill")
        tg.wait_for_sent(4, timeout=60)  # the other worker took over polling
        assert rows(database, "SELECT owner FROM leases WHERE name = 'telegram'")[0][0].endswith(
            f":{other.pid}"
        )
        assert other.stop() == 0
    finally:
        a.close()
        b.close()
    assert len(tg.sent) == 4  # each update answered once, none twice
    asked = rows(database, "SELECT text FROM messages WHERE role = 'user' ORDER BY id")
    assert [t for (t,) in asked] == [f"question {n}" for n in range(3)] + [
        "question after the kill"
    ]
    handled = rows(database, "SELECT COUNT(*) FROM handled_updates")
    assert handled == [(4,)]


async def seed_yesterday(url: str) -> None:
    """Messages from yesterday: the daily summary is owed for them when a worker starts."""
    from kit.api import Kit
    from kit.config import Settings, StorageSettings
    from kit.embed.hashing import HashingEmbedder
    from kit.llm.fake import FakeLLM

    settings = Settings(storage=StorageSettings(url=url))
    async with Kit.open(
        settings=settings, llm=FakeLLM(), embedder=HashingEmbedder(), background=False
    ) as kit:
        yesterday = datetime.now(UTC) - timedelta(days=1)
        await kit.send("I planned the Lisbon trip", at=yesterday.replace(hour=12))


def test_a_worker_killed_mid_job_has_its_lease_taken_over_and_the_job_lands_once(
    tmp_path: Path, servers: tuple[FakeAnthropicServer, FakeTelegramServer], database: str
) -> None:
    anthropic, tg = servers
    asyncio.run(seed_yesterday(database))
    summaries: list[int] = []

    def respond(body: dict[str, Any]) -> Any:
        if "daily journal" not in json.dumps(body):  # the daily summary's prompt
            return "ok"
        summaries.append(1)
        if len(summaries) == 1:  # the first worker's run hangs ... until it is killed
            return {"kind": "stall", "seconds": 600}
        return "- Planned the Lisbon trip"

    anthropic.responder = respond
    a, b = workers(tmp_path, anthropic, tg, database)
    try:
        a.start()
        wait_until(lambda: bool(summaries), "the first worker asks for the day summary")
        b.start()
        a.signal(signal.SIGKILL)
        a.wait()
        wait_until(
            lambda: rows(database, "SELECT COUNT(*) FROM days WHERE detailed != ''") == [(1,)],
            "the second worker writes the day summary",
        )
        wait_until(
            lambda: (
                ("ok",) in rows(database, "SELECT status FROM job_runs WHERE job = 'daily_summary'")
            ),
            "the run is recorded",
        )
        assert b.stop() == 0
    finally:
        a.close()
        b.close()
    runs = rows(
        database, "SELECT status, lease_owner FROM job_runs WHERE job = 'daily_summary' ORDER BY id"
    )
    assert [(s, o.rsplit(":", 1)[1]) for s, o in runs] == [
        ("abandoned", str(a.pid)),
        ("ok", str(b.pid)),
    ]
    assert rows(database, "SELECT COUNT(*) FROM days") == [(1,)]
    assert len(summaries) == 2  # asked once by each: the killed run, and the takeover
