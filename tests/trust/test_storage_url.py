"""A PostgreSQL password never goes in storage.url, in any spelling, and a URL is never shown
with one: the check decodes the URL's parameter names as the driver does."""

from __future__ import annotations

from pathlib import Path

import pytest

from kit.cli import main
from kit.config import load_settings
from kit.errors import ConfigError
from kit.store.postgres.url import redact

SPELLINGS = [
    "postgresql://kit@127.0.0.1:1/kit?pass%77ord=hunter2",  # the finding: %77 is "w"
    "postgresql://kit@127.0.0.1:1/kit?%70%61%73%73%77%6F%72%64=hunter2",
    "postgresql://kit@127.0.0.1:1/kit?sslmode=disable&PASS%57ORD=hunter2",
    "postgresql://kit@127.0.0.1:1/kit?%20password%20=hunter2",
    "postgresql://kit@127.0.0.1:1/kit?sslpassword=hunter2",
    "postgres://kit:hunter2@127.0.0.1:1/kit",
]


@pytest.mark.parametrize("url", SPELLINGS)
def test_a_password_in_storage_url_is_refused_in_any_spelling(tmp_path: Path, url: str) -> None:
    config = tmp_path / "config.toml"
    config.write_text(f'[storage]\nurl = "{url}"\n')
    with pytest.raises(ConfigError, match="holds a password") as caught:
        load_settings(config, tmp_path / "data")
    assert "hunter2" not in str(caught.value)


@pytest.mark.parametrize("url", SPELLINGS)
def test_a_url_is_shown_without_its_password_in_any_spelling(url: str) -> None:
    shown = redact(url)
    assert "hunter2" not in shown and "127.0.0.1:1/kit" in shown


def test_kit_doctor_never_prints_an_encoded_password(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "config.toml"
    config.write_text(f'[storage]\nurl = "{SPELLINGS[0]}"\n[schedule]\ntimezone = "UTC"\n')
    monkeypatch.setenv("KIT_CONFIG", str(config))
    monkeypatch.setenv("KIT_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-doctor-0123456789")
    assert main(["doctor", "--offline"]) == 1
    out = capsys.readouterr().out
    assert "hunter2" not in out
    assert "FIX   config:" in out and "holds a password" in out
