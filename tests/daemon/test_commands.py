"""`kit run` refusals and `kit status` without a daemon, through the real CLI entry."""

from __future__ import annotations

from pathlib import Path

import pytest

from kit.cli import main


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A config without an embedding model (lexical search only: nothing to load)."""
    config = tmp_path / "config.toml"
    config.write_text(
        f'[embedding]\nmodel_path = "{tmp_path / "no-model"}"\n[schedule]\ntimezone = "UTC"\n'
    )
    monkeypatch.setenv("KIT_CONFIG", str(config))
    monkeypatch.setenv("KIT_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.delenv("TELEGRAM_BOT_TOKEN", raising=False)
    return tmp_path


def test_kit_run_without_an_api_key_says_how_to_set_it(
    env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["run"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("kit: ANTHROPIC_API_KEY is not set;") and "\n" not in err
    assert not (env / "data" / "kit.pid").exists()  # refused before taking the data dir


def test_kit_run_rejects_a_negative_grace(
    env: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-0123456789")
    assert main(["run", "--shutdown-grace", "-1"]) == 2
    assert "--shutdown-grace must be zero or more seconds" in capsys.readouterr().err


def test_kit_status_without_a_daemon_reports_standalone(
    env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["status"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"No Kit daemon on {env / 'data'}; this is Kit standalone")
    assert "embeddings: off (lexical search only)" in out
    assert "last REM: never" in out
    assert not (env / "data" / "kit.pid").exists()  # the standalone engine let go
