"""What scripts and new users meet first: `--version`, "did you mean" for a mistyped command,
and a reader that goes away early (`kit search ... | head -3`) ending the command quietly."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from kit.cli import READER_GONE, main

REPO = Path(__file__).resolve().parents[2]


def test_version_prints_the_installed_version(capsys: pytest.CaptureFixture[str]) -> None:
    from importlib.metadata import version

    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out.strip() == f"kit {version('kit-assistant')}"


@pytest.mark.parametrize(
    ("argv", "suggestion"),
    [(["serch", "x"], "did you mean 'search'"), (["eval", "retrievl", "f"], "'retrieval'")],
)
def test_a_mistyped_command_gets_did_you_mean(
    argv: list[str], suggestion: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert f"unknown command {argv[-2]!r}" in err and suggestion in err
    assert "choose from" not in err


def test_a_command_like_nothing_known_points_at_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["xyzzy"])
    err = capsys.readouterr().err
    assert "unknown command 'xyzzy'" in err and "`kit --help` lists the commands" in err


@pytest.mark.parametrize("argv", [["search", "coffee"], ["facts"]])
def test_a_reader_that_closes_early_ends_the_command_quietly(
    tmp_path: Path, argv: list[str]
) -> None:
    """The pipe's read end is closed before Kit writes a byte: every write fails with EPIPE."""
    config = tmp_path / "config.toml"
    config.write_text(f'[embedding]\nmodel_path = "{tmp_path / "no-model"}"\n')
    env = {**os.environ, "KIT_CONFIG": str(config), "KIT_DATA_DIR": str(tmp_path / "data")}
    command = [sys.executable, "-m", "kit.cli", *argv]
    pipe = subprocess.PIPE
    with subprocess.Popen(command, env=env, cwd=REPO, stdout=pipe, stderr=pipe) as process:
        assert process.stdout is not None and process.stderr is not None
        process.stdout.close()  # the reader is gone (as `head` is once it has its lines)
        err = process.stderr.read().decode()
        assert process.wait(timeout=120) == READER_GONE, err
    assert "Traceback" not in err and "BrokenPipe" not in err and "Exception ignored" not in err


@pytest.mark.parametrize("day", ["9999-12-31", "0001-01-01"])
def test_a_day_at_the_calendars_edge_is_bad_input_not_a_traceback(
    day: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`kit facts --as-of 9999-12-31` ended in an OverflowError (kit/clock.py day_bounds)."""
    config = tmp_path / "config.toml"
    config.write_text('[schedule]\ntimezone = "Pacific/Kiritimati"\n')
    monkeypatch.setenv("KIT_CONFIG", str(config))
    monkeypatch.setenv("KIT_DATA_DIR", str(tmp_path / "data"))
    assert main(["facts", "--as-of", day]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "outside the years 1000-8999" in err and "Traceback" not in err


async def test_the_api_refuses_such_a_day_too(tmp_path: Path) -> None:
    from datetime import date

    from kit.api import Kit
    from kit.embed.hashing import HashingEmbedder
    from kit.errors import InputError
    from kit.llm.fake import FakeLLM

    async with Kit.open(tmp_path / "data", llm=FakeLLM(), embedder=HashingEmbedder()) as kit:
        with pytest.raises(InputError, match="outside the years"):
            await kit.facts(as_of=date(9999, 12, 31))
