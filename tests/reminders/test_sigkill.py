"""The strongest proof of the delivery guarantee: a real `kit run` is SIGKILLed while Telegram
is taking the reminder, and restarted. The fire is sent again (at-least-once: Telegram holds
two copies, the window being one SQLite commit) and Kit's own record holds it exactly once."""

from __future__ import annotations

import asyncio
import signal
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import closing
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from kit.api import Kit
from kit.config import load_settings
from kit.embed.hashing import HashingEmbedder
from kit.llm.fake import FakeLLM
from kit.reminders.rules import Rule
from kit.reminders.store import NewReminder
from tests.servers.anthropic_api import FakeAnthropicServer
from tests.servers.telegram_api import FakeTelegramServer
from tests.support.daemon_process import DaemonProcess, write_config

pytestmark = pytest.mark.integration

OWNER = 4242


@pytest.fixture
def servers() -> Iterator[tuple[FakeAnthropicServer, FakeTelegramServer]]:
    with FakeAnthropicServer() as anthropic, FakeTelegramServer("123456:TEST-bot-token") as tg:
        yield anthropic, tg


def rows(daemon: DaemonProcess, sql: str) -> list[tuple[object, ...]]:
    with closing(sqlite3.connect(daemon.data_dir / "kit.db")) as db:
        return db.execute(sql).fetchall()


async def seed_missed_reminder(config: Path, data_dir: Path) -> None:
    """A reminder whose time went by a minute ago (Kit was not running)."""
    settings = load_settings(config, data_dir)
    async with Kit.open(
        settings=settings, llm=FakeLLM(), embedder=HashingEmbedder(), background=False
    ) as kit:
        due = datetime.now(UTC) - timedelta(minutes=1)
        new = NewReminder(
            "owner", "telegram", str(OWNER), "reminder", "call Ana", Rule("none"), due
        )
        await kit.services.reminders.store.add(new, max_active=10)


def wait_until(condition: Callable[[], bool]) -> None:
    # The daemon is another process: nothing to await, so the test polls (bounded).
    deadline = time.monotonic() + 60
    while not condition():
        assert time.monotonic() < deadline, "the daemon never got there"
        time.sleep(0.02)


def test_killed_while_telegram_takes_the_reminder_it_is_resent_once_and_recorded_once(
    tmp_path: Path, servers: tuple[FakeAnthropicServer, FakeTelegramServer]
) -> None:
    anthropic, tg = servers
    telegram = (
        f'[telegram]\nbase_url = "{tg.base_url}"\nallowed_user_ids = {{ "{OWNER}" = "owner" }}\n'
    )
    config = write_config(tmp_path / "config.toml", anthropic, extra=telegram)
    daemon = DaemonProcess(tmp_path, config, env={"TELEGRAM_BOT_TOKEN": tg.token})
    asyncio.run(seed_missed_reminder(config, daemon.data_dir))
    try:
        tg.hold_sends()
        daemon.start()
        tg.wait_for_call("sendMessage", 1, timeout=60)  # Telegram is taking it ...
        daemon.signal(signal.SIGKILL)  # ... when Kit dies
        daemon.wait()
        tg.hold_sends(False)  # and Telegram delivers what it took
        tg.wait_for_sent(1)
        assert rows(daemon, "SELECT status FROM reminder_deliveries") == [("pending",)]
        assert rows(daemon, "SELECT text FROM messages") == []

        daemon.start()
        sent = tg.wait_for_sent(2, timeout=60)
        assert [m["chat_id"] for m in sent] == [OWNER, OWNER]
        assert sent[0]["text"] == "Reminder: call Ana"
        assert sent[1]["text"].startswith("Reminder (late: it was due")
        wait_until(
            lambda: rows(daemon, "SELECT status, late FROM reminder_deliveries") == [("sent", 1)]
        )
        assert daemon.stop() == 0
        assert rows(daemon, "SELECT role, source, text FROM messages") == [
            ("assistant", "job", sent[1]["text"])
        ]
        daemon.start()  # a third start sends nothing more: the fire is marked sent
        assert daemon.stop() == 0
        assert len(tg.sent) == 2
    finally:
        daemon.close()
