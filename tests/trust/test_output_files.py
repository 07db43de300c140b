"""`kit export -o` and `kit backup` write by one rule: never over an existing file without
--force, never through a symlink (at the target or its .partial), 0600, whole or not at all."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from kit.cli import main


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A data directory holding three imported messages; returns the folder to write into."""
    config = tmp_path / "config.toml"
    config.write_text('[schedule]\ntimezone = "UTC"\n')
    monkeypatch.setenv("KIT_CONFIG", str(config))
    monkeypatch.setenv("KIT_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    rows = [
        {"role": "user", "text": f"note {i} about tulips", "at": f"2026-01-0{i + 1}T10:00:00Z"}
        for i in range(3)
    ]
    (tmp_path / "in.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert main(["import", "--no-embed", str(tmp_path / "in.jsonl")]) == 0
    out = tmp_path / "out"
    out.mkdir()
    return out


# The two commands, as argv writing to a given path.
WRITERS = {
    "export": lambda path, *flags: ["export", "-o", str(path), *flags],
    "backup": lambda path, *flags: ["backup", str(path), *flags],
}


@pytest.mark.parametrize("command", WRITERS)
def test_an_existing_file_is_not_overwritten_without_force(
    command: str, env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = env / "kit.out"
    target.write_text("precious")
    capsys.readouterr()
    assert main(WRITERS[command](target)) == 2
    err = capsys.readouterr().err
    assert "already exists" in err and "--force" in err and err.count("\n") == 1
    assert target.read_text() == "precious"
    assert main(WRITERS[command](target, "--force")) == 0
    assert target.read_bytes() != b"precious"
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert not (env / "kit.out.partial").exists()


@pytest.mark.parametrize("command", WRITERS)
def test_a_symlink_planted_at_the_target_is_neither_followed_nor_written_through(
    command: str, env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    victim = env / "victim"
    victim.write_text("someone else's file")
    target = env / "kit.out"
    target.symlink_to(victim)
    assert main(WRITERS[command](target)) == 2
    assert "already exists" in capsys.readouterr().err
    assert main(WRITERS[command](target, "--force")) == 0
    assert victim.read_text() == "someone else's file"  # the link was replaced, not followed
    assert not target.is_symlink() and stat.S_IMODE(target.stat().st_mode) == 0o600


@pytest.mark.parametrize("command", WRITERS)
def test_a_symlink_planted_at_the_partial_file_is_refused_and_not_followed(
    command: str, env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    victim = env / "victim"
    victim.write_text("someone else's file")
    (env / "kit.out.partial").symlink_to(victim)
    dangling = env / "next.out.partial"
    dangling.symlink_to(env / "created-through-the-link")
    assert main(WRITERS[command](env / "kit.out")) == 2
    assert "left over from an interrupted write" in capsys.readouterr().err
    assert main(WRITERS[command](env / "next.out")) == 2
    assert victim.read_text() == "someone else's file"
    assert not (env / "created-through-the-link").exists()
    assert not (env / "kit.out").exists() and not (env / "next.out").exists()
    assert main(WRITERS[command](env / "kit.out", "--force")) == 0  # the link is removed
    assert victim.read_text() == "someone else's file"
    assert stat.S_IMODE((env / "kit.out").stat().st_mode) == 0o600


def test_an_export_is_private_even_with_a_permissive_umask(env: Path) -> None:
    old = os.umask(0)
    try:
        assert main(["export", "-o", str(env / "e.json")]) == 0
    finally:
        os.umask(old)
    assert stat.S_IMODE((env / "e.json").stat().st_mode) == 0o600
    assert json.loads((env / "e.json").read_text())["counts"]["messages"] == 3
