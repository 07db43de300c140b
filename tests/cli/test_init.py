"""`kit init`: the commented config where Kit looks for it, secrets never in it, nothing that
exists replaced without asking (issue 20, the first hour)."""

from __future__ import annotations

import argparse
import stat
from pathlib import Path

import pytest

from kit.cli import main
from kit.commands.init import init
from kit.config import load_settings

REPO = Path(__file__).resolve().parents[2]
KEY = "sk-ant-api03-test-key-0000000000000000"
TOKEN = "123456:ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghi"


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    for name in ("KIT_CONFIG", "XDG_CONFIG_HOME", "ANTHROPIC_API_KEY", "TELEGRAM_BOT_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path / "home"


def test_without_a_terminal_it_writes_the_shipped_config_where_kit_looks_and_no_secret(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["init", "--no-telegram"]) == 0
    config = home / ".config" / "kit" / "config.toml"
    assert config.read_text() == (REPO / "config.toml").read_text()
    assert stat.S_IMODE(config.stat().st_mode) == 0o600
    assert load_settings().config_path == config  # found without --config
    assert not (home / ".config" / "kit" / "env").exists()
    out = capsys.readouterr().out
    assert f"Wrote {config}" in out and "export ANTHROPIC_API_KEY=" in out and "kit doctor" in out


def test_key_source_file_keeps_the_secrets_in_an_owner_only_env_file(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", TOKEN)
    assert main(["init", "--key-source", "file", "--telegram-id", "123456789"]) == 0
    folder = home / ".config" / "kit"
    config = (folder / "config.toml").read_text()
    assert 'allowed_user_ids = { "123456789" = "owner" }' in config
    assert KEY not in config and TOKEN not in config
    settings = load_settings()
    assert settings.telegram.allowed_user_ids == {"123456789": "owner"}
    env = folder / "env"
    assert env.read_text() == f"ANTHROPIC_API_KEY={KEY}\nTELEGRAM_BOT_TOKEN={TOKEN}\n"
    assert stat.S_IMODE(env.stat().st_mode) == 0o600
    out = capsys.readouterr().out
    assert KEY not in out and TOKEN not in out


def test_an_existing_config_is_never_replaced_without_asking_or_force(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = home / "mine.toml"
    config.parent.mkdir(parents=True)
    config.write_text("[owner]\nname = 'Ana'\n")
    assert main(["--config", str(config), "init", "--no-telegram"]) == 2
    assert "left as it is" in capsys.readouterr().err
    assert config.read_text() == "[owner]\nname = 'Ana'\n"
    assert main(["--config", str(config), "init", "--no-telegram", "--force"]) == 0
    assert config.read_text() == (REPO / "config.toml").read_text()


def test_a_secret_it_cannot_get_writes_nothing(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["init", "--key-source", "file", "--no-telegram"]) == 2
    assert "set ANTHROPIC_API_KEY in the environment" in capsys.readouterr().err
    assert not (home / ".config" / "kit").exists()
    assert main(["init", "--telegram-id", "12ab"]) == 2
    assert "plain digits" in capsys.readouterr().err


def test_on_a_terminal_it_asks_only_what_it_must(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    answers = iter(["file", "424242", "y"])  # key source, Telegram id, replace the config?
    secrets = iter([KEY, TOKEN])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    monkeypatch.setattr("getpass.getpass", lambda prompt="": next(secrets))
    config = home / ".config" / "kit" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text("# old\n")
    args = argparse.Namespace(
        config=None, key_source=None, telegram_id=None, no_telegram=False, force=False
    )
    assert init(args, interactive=True) == 0
    assert 'allowed_user_ids = { "424242" = "owner" }' in config.read_text()
    assert (config.parent / "env").read_text() == (
        f"ANTHROPIC_API_KEY={KEY}\nTELEGRAM_BOT_TOKEN={TOKEN}\n"
    )
    assert next(answers, None) is None  # three questions, no more


def test_a_link_is_neither_written_through_nor_replaced_even_with_force(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`kit --config LINK init --force` wrote through the link, over its target (a dotfiles
    repository's file, say). It refuses and names the link; the target keeps its text."""
    target = tmp_path / "dotfiles" / "kit.toml"
    target.parent.mkdir()
    target.write_text("# mine\n")
    link = tmp_path / "config.toml"
    link.symlink_to(target)
    assert main(["--config", str(link), "init", "--force", "--no-telegram"]) == 2
    assert f"{link} is a symbolic link" in capsys.readouterr().err
    assert target.read_text() == "# mine\n" and link.is_symlink()
    # Nor the env file that holds the secrets: a link there could lead them anywhere.
    env = home / ".config" / "kit" / "env"
    env.parent.mkdir(parents=True)
    env.symlink_to(tmp_path / "elsewhere")
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
    config = tmp_path / "plain.toml"
    assert main(["--config", str(config), "init", "--key-source", "file", "--no-telegram"]) == 2
    assert not (tmp_path / "elsewhere").exists() and not config.exists()
