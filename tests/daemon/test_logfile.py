"""The daemon's log file: owner-only, rotated, and secrets never reach it."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from kit.daemon import logfile
from kit.daemon.logfile import add_file_log, remove_file_log

KEY = "sk-ant-api03-secret-value-123456"
TOKEN = "987654321:AAHsecretTelegramTokenValue0123456789"


def test_api_key_and_bot_token_are_redacted_in_messages_and_tracebacks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", TOKEN)
    path = tmp_path / "logs" / "kit.log"
    handler = add_file_log(path)
    log = logging.getLogger("kit.test.logfile")
    log.setLevel(logging.INFO)
    try:
        log.info("calling https://api.telegram.org/bot%s/getUpdates with key %s", TOKEN, KEY)
        try:
            raise RuntimeError(f"auth failed for {KEY}")
        except RuntimeError:
            log.exception("model call crashed")
    finally:
        remove_file_log(handler)
    text = path.read_text(encoding="utf-8")
    assert KEY not in text and TOKEN not in text
    assert text.count("[redacted]") == 3
    assert "model call crashed" in text and "RuntimeError" in text
    assert path.stat().st_mode & 0o777 == 0o600
    assert path.parent.stat().st_mode & 0o777 == 0o700


def test_rotated_files_are_owner_only_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(logfile, "MAX_BYTES", 200)
    path = tmp_path / "logs" / "kit.log"
    handler = add_file_log(path)
    log = logging.getLogger("kit.test.rotation")
    log.setLevel(logging.INFO)
    try:
        for i in range(20):
            log.info("line %d %s", i, "x" * 50)
    finally:
        remove_file_log(handler)
    files = sorted(p.name for p in path.parent.iterdir())
    assert files == ["kit.log", "kit.log.1", "kit.log.2", "kit.log.3"]
    assert {(path.parent / f).stat().st_mode & 0o777 for f in files} == {0o600}
