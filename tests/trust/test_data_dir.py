"""The data directory: created owner-only; one that others can write to (or that belongs to
someone else) is refused by every command with the fix, and never chmod'ed by Kit."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from kit.cli import main
from kit.daemon.logfile import add_file_log, remove_file_log
from kit.errors import ConfigError
from tests.support.shared_model import MODEL_DIR, have_model


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    config = tmp_path / "config.toml"
    model = MODEL_DIR if have_model() else tmp_path / "no-model"
    config.write_text(f'[embedding]\nmodel_path = "{model}"\n[schedule]\ntimezone = "UTC"\n')
    monkeypatch.setenv("KIT_CONFIG", str(config))
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    (tmp_path / "in.jsonl").write_text(
        json.dumps({"role": "user", "text": "tulips", "at": "2026-01-01T10:00:00Z"}) + "\n"
    )
    return tmp_path


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


# A command that takes the data directory's lock, one that opens the database without it, one
# that reads the database file directly, and one that only looks for a daemon.
COMMANDS = [
    ["import", "--no-embed", "{dir}/../in.jsonl"],
    ["search", "tulips"],
    ["backup", "{dir}/../b.db"],
    ["status"],
]


@pytest.mark.parametrize("argv", COMMANDS, ids=lambda a: a[0])
@pytest.mark.parametrize("mode", [0o777, 0o1777, 0o770])
def test_a_data_dir_others_can_write_to_is_refused_with_the_fix_and_left_unchanged(
    argv: list[str],
    mode: int,
    env: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    shared = env / "shared"
    shared.mkdir()
    shared.chmod(mode)
    monkeypatch.setenv("KIT_DATA_DIR", str(shared))
    assert main([a.format(dir=shared) for a in argv]) == 2
    err = capsys.readouterr().err
    assert f"{shared}: other users can write to this directory" in err
    assert f"chmod 700 {shared}" in err and err.count("\n") == 1
    assert _mode(shared) == mode and list(shared.iterdir()) == []  # not changed, not used


def test_a_data_dir_of_another_user_is_refused(
    env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    if os.getuid() != 0:
        pytest.skip("only root can give a directory to another user")
    theirs = env / "theirs"
    theirs.mkdir(mode=0o700)
    os.chown(theirs, 65534, 65534)
    monkeypatch.setenv("KIT_DATA_DIR", str(theirs))
    assert main(["search", "tulips"]) == 2
    err = capsys.readouterr().err
    assert "belongs to another user (uid 65534)" in err and err.count("\n") == 1


def test_a_new_data_dir_its_parents_and_subfolders_are_made_owner_only(
    env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = env / "new" / "deep" / "data"
    monkeypatch.setenv("KIT_DATA_DIR", str(data))
    old = os.umask(0)
    try:
        assert main(["import", str(env / "in.jsonl")]) == 0  # loads the embedding model too
        handler = add_file_log(data / "logs" / "kit.log")
        remove_file_log(handler)
    finally:
        os.umask(old)
    for folder in (env / "new", env / "new" / "deep", data, data / "models", data / "logs"):
        assert _mode(folder) == 0o700, folder


def test_an_existing_data_dir_closed_to_others_is_used_as_it_is(
    env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = env / "mine"
    data.mkdir(mode=0o755)
    data.chmod(0o755)
    monkeypatch.setenv("KIT_DATA_DIR", str(data))
    assert main(["import", "--no-embed", str(env / "in.jsonl")]) == 0
    assert _mode(data) == 0o755 and _mode(data / "kit.db") == 0o600


def test_a_log_folder_others_can_write_to_is_refused(tmp_path: Path) -> None:
    logs = tmp_path / "data" / "logs"
    logs.mkdir(parents=True)
    logs.chmod(0o777)
    with pytest.raises(ConfigError, match="other users can write to this directory"):
        add_file_log(logs / "kit.log")
    assert _mode(logs) == 0o777
