"""End to end: the real daemon with the real Telegram channel (PTB against a local Bot API
server) and the real anthropic SDK (against a local Messages API server). A fact told over
Telegram survives a restart and is in the context of the request the model gets afterwards."""

from __future__ import annotations

import signal
import sqlite3
import time
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest

from kit.agent import INTERRUPTED_REPLY
from tests.servers.anthropic_api import FakeAnthropicServer
from tests.servers.telegram_api import FakeTelegramServer
from tests.support.daemon_process import API_KEY, DaemonProcess, write_config

pytestmark = pytest.mark.integration

OWNER_TELEGRAM_ID = 4242
FACT = "Ana's birthday is on 3 May"


@pytest.fixture
def servers() -> Iterator[tuple[FakeAnthropicServer, FakeTelegramServer]]:
    with FakeAnthropicServer() as anthropic, FakeTelegramServer("123456:TEST-bot-token") as tg:
        yield anthropic, tg


def system_of(request_json: dict[str, object]) -> str:
    blocks = request_json.get("system") or []
    assert isinstance(blocks, list)
    return "\n".join(str(b["text"]) for b in blocks)


def test_a_fact_told_over_telegram_is_in_the_models_context_after_a_restart(
    tmp_path: Path, servers: tuple[FakeAnthropicServer, FakeTelegramServer]
) -> None:
    anthropic, tg = servers
    daemon = telegram_daemon(tmp_path, anthropic, tg, grace=1.0)
    try:
        daemon.start()
        # The model decides to remember it (a real tool round through the SDK), then answers.
        anthropic.queue_tool_use("remember", {"fact": FACT, "category": "people"})
        anthropic.queue_text("Noted, I'll remember Ana's birthday.")
        tg.push_text(OWNER_TELEGRAM_ID, "My sister Ana's birthday is on 3 May, remember that")
        first = tg.wait_for_sent(1, timeout=60)
        assert first[0]["text"] == "Noted, I'll remember Ana's birthday."
        assert daemon.stop() == 0

        daemon.start()
        anthropic.queue_text("Ana's birthday is on 3 May.")
        tg.push_text(OWNER_TELEGRAM_ID, "When is Ana's birthday?")
        second = tg.wait_for_sent(2, timeout=60)
        assert second[1]["text"] == "Ana's birthday is on 3 May."
        assert daemon.stop() == 0
    finally:
        daemon.close()

    chats = [r.json for r in anthropic.requests if r.path == "/v1/messages"]
    last = chats[-1]
    assert last["messages"][-1]["content"][0]["text"] == "When is Ana's birthday?"
    assert FACT in system_of(last)  # recalled from long-term memory, not just the window
    log = (daemon.data_dir / "logs" / "kit.log").read_text(encoding="utf-8")
    assert "telegram" in log.lower()
    assert tg.token not in log and tg.token not in daemon.stderr
    assert API_KEY not in log


def telegram_daemon(
    tmp_path: Path, anthropic: FakeAnthropicServer, tg: FakeTelegramServer, grace: float
) -> DaemonProcess:
    telegram = (
        f'[telegram]\nbase_url = "{tg.base_url}"\n'
        f'allowed_user_ids = {{ "{OWNER_TELEGRAM_ID}" = "owner" }}\n'
    )
    config = write_config(tmp_path / "config.toml", anthropic, extra=telegram)
    return DaemonProcess(tmp_path, config, grace=grace, env={"TELEGRAM_BOT_TOKEN": tg.token})


def stored_messages(daemon: DaemonProcess) -> list[tuple[str, str, str]]:
    with closing(sqlite3.connect(daemon.data_dir / "kit.db")) as db:
        return db.execute("SELECT role, source, text FROM messages ORDER BY id").fetchall()


def wait_until_the_model_is_asked(anthropic: FakeAnthropicServer) -> None:
    deadline = time.monotonic() + 60
    while not any(r.path == "/v1/messages" for r in anthropic.requests):
        assert time.monotonic() < deadline, "the turn never reached the model"
        time.sleep(0.02)


def test_sigterm_lets_a_telegram_reply_in_flight_finish_within_the_grace_period(
    tmp_path: Path, servers: tuple[FakeAnthropicServer, FakeTelegramServer]
) -> None:
    anthropic, tg = servers
    daemon = telegram_daemon(tmp_path, anthropic, tg, grace=30)
    try:
        daemon.start()
        anthropic.queue_stall(1.5)
        anthropic.queue_text("Here is the slow answer.")
        tg.push_text(OWNER_TELEGRAM_ID, "a slow question")
        wait_until_the_model_is_asked(anthropic)
        daemon.signal(signal.SIGTERM)
        assert daemon.wait() == 0
    finally:
        daemon.close()
    assert [m["text"] for m in tg.sent] == ["Here is the slow answer."]
    assert stored_messages(daemon) == [
        ("user", "chat", "a slow question"),
        ("assistant", "chat", "Here is the slow answer."),
    ]


def test_sigterm_cuts_a_telegram_reply_still_running_after_the_grace_period(
    tmp_path: Path, servers: tuple[FakeAnthropicServer, FakeTelegramServer]
) -> None:
    anthropic, tg = servers
    daemon = telegram_daemon(tmp_path, anthropic, tg, grace=0.5)
    try:
        daemon.start()
        anthropic.queue_stall(600)
        tg.push_text(OWNER_TELEGRAM_ID, "a question the model never answers")
        wait_until_the_model_is_asked(anthropic)
        daemon.signal(signal.SIGTERM)
        assert daemon.wait() == 0  # within STOP_TIMEOUT, far below the stalled 600 s
    finally:
        daemon.close()
    assert tg.sent == []
    assert stored_messages(daemon) == [
        ("user", "chat", "a question the model never answers"),
        ("assistant", "interrupted", INTERRUPTED_REPLY),
    ]
