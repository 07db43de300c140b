"""End to end: the real daemon with the real Telegram channel (PTB against a local Bot API
server) and the real anthropic SDK (against a local Messages API server). A fact told over
Telegram survives a restart and is in the context of the request the model gets afterwards."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.daemon.process import API_KEY, DaemonProcess, write_config
from tests.servers.anthropic_api import FakeAnthropicServer
from tests.servers.telegram_api import FakeTelegramServer

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
    telegram = (
        f'[telegram]\nbase_url = "{tg.base_url}"\n'
        f'allowed_user_ids = {{ "{OWNER_TELEGRAM_ID}" = "owner" }}\n'
    )
    config = write_config(tmp_path / "config.toml", anthropic, extra=telegram)
    daemon = DaemonProcess(tmp_path, config, env={"TELEGRAM_BOT_TOKEN": tg.token})
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
