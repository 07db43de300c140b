"""`kit service install|uninstall`: a systemd user unit naming the real paths of this Kit
(issue 20: contrib/kit.service named ~/.local/bin/kit, which a venv install never creates)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from kit.cli import main
from kit.daemon.unit import contrib

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    config = tmp_path / "conf" / "config.toml"
    config.parent.mkdir()
    config.write_text('[schedule]\ntimezone = "UTC"\n')
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("KIT_CONFIG", str(config))
    monkeypatch.setenv("KIT_DATA_DIR", str(tmp_path / "data"))
    return tmp_path


def _unit(home: Path) -> Path:
    return home / "xdg" / "systemd" / "user" / "kit.service"


def test_print_shows_the_unit_with_the_real_kit_config_and_data_dir_and_writes_nothing(
    home: Path,
) -> None:
    """Run through the installed console script, as a user would: ExecStart names that very
    script (a virtual environment's), not ~/.local/bin/kit."""
    script = shutil.which("kit") or pytest.fail("the kit console script is not installed")
    done = subprocess.run(
        [script, "service", "install", "--print"],
        capture_output=True,
        text=True,
        env={**os.environ},
        cwd=home,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    exec_start = next(line for line in done.stdout.splitlines() if line.startswith("ExecStart="))
    assert exec_start == (
        f"ExecStart={Path(script).absolute()} --config {home / 'conf' / 'config.toml'} "
        f"--data-dir {home / 'data'} run"
    )
    assert "EnvironmentFile=%h/.config/kit/env" in done.stdout
    assert not _unit(home).exists()


def test_install_writes_the_unit_and_says_how_to_enable_it(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["service", "install"]) == 0
    out = capsys.readouterr().out
    text = _unit(home).read_text()
    assert f"--data-dir {home / 'data'} run" in text and "Type=notify" in text
    assert "systemctl --user daemon-reload" in out
    assert "systemctl --user enable --now kit" in out
    assert "~/.config/kit/env" in out  # the key's file is not there yet: how to make it
    assert main(["service", "install"]) == 0  # the same unit again: fine


def test_a_different_unit_is_replaced_only_with_force(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _unit(home).parent.mkdir(parents=True)
    _unit(home).write_text("[Service]\nExecStart=/somewhere/else run\n")
    assert main(["service", "install"]) == 2
    assert "--force replaces it" in capsys.readouterr().err
    assert "/somewhere/else" in _unit(home).read_text()
    assert main(["service", "install", "--force"]) == 0
    assert "/somewhere/else" not in _unit(home).read_text()


def test_uninstall_removes_the_unit_once_it_is_disabled(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["service", "install"]) == 0
    wants = _unit(home).parent / "default.target.wants"
    wants.mkdir()
    (wants / "kit.service").symlink_to(_unit(home))  # what `systemctl --user enable` does
    assert main(["service", "uninstall"]) == 2
    assert "systemctl --user disable --now kit" in capsys.readouterr().err
    assert _unit(home).exists()
    (wants / "kit.service").unlink()
    assert main(["service", "uninstall"]) == 0
    assert not _unit(home).exists()
    assert main(["service", "uninstall"]) == 0
    assert "No Kit service installed" in capsys.readouterr().out


def test_contrib_kit_service_is_the_same_template() -> None:
    """contrib/kit.service is generated: `python -c "from kit.daemon.unit import contrib;
    print(contrib(), end='')" > contrib/kit.service` after changing the template."""
    assert (REPO / "contrib" / "kit.service").read_text() == contrib()


def test_the_key_hint_adds_the_key_and_keeps_what_kit_init_wrote(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--print` told the owner to `printf ... > ~/.config/kit/env`, which replaced the file
    `kit init` wrote (the Telegram token was lost). The hint, run as printed, appends."""
    assert main(["service", "install", "--print"]) == 0
    (hint,) = [
        line.lstrip("# ").strip()
        for line in capsys.readouterr().out.splitlines()
        if "printf" in line
    ]
    env_file = home / "home" / ".config" / "kit" / "env"
    env_file.parent.mkdir(parents=True)
    env_file.write_text("TELEGRAM_BOT_TOKEN=123:abc\n")
    env_file.chmod(0o600)
    done = subprocess.run(["sh", "-c", hint], env={**os.environ}, capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert env_file.read_text() == "TELEGRAM_BOT_TOKEN=123:abc\nANTHROPIC_API_KEY=sk-ant-...\n"
    env_file.unlink()  # and where there is none yet, it is made the owner's only
    subprocess.run(["sh", "-c", hint], env={**os.environ}, check=True, timeout=60)
    assert env_file.read_text() == "ANTHROPIC_API_KEY=sk-ant-...\n"
    assert env_file.stat().st_mode & 0o777 == 0o600


STRANGE = 'data\nExecStartPre=/bin/rm -rf %h "quoted" $HOME\ttab\\back\u2028end'


def test_a_data_directory_with_a_line_break_stays_one_argument_of_execstart(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A newline in the data directory's path wrote an extra line into the unit (here, one
    that would run before Kit). systemd's escapes keep it one quoted argument."""
    data = home / STRANGE
    monkeypatch.setenv("KIT_DATA_DIR", str(data))
    assert main(["service", "install", "--print"]) == 0
    unit = capsys.readouterr().out
    assert not any(line.startswith("ExecStartPre") for line in unit.splitlines())
    (exec_start,) = [line for line in unit.splitlines() if line.startswith("ExecStart=")]
    words = _systemd_words(exec_start.removeprefix("ExecStart="))
    assert words[-3:] == ["--data-dir", str(data), "run"]
    if shutil.which("systemd-analyze"):  # systemd's own parser finds nothing to complain of
        unit_file = home / "kit-check.service"
        unit_file.write_text(unit.replace("EnvironmentFile=", "#"))
        done = subprocess.run(
            ["systemd-analyze", "verify", str(unit_file)], capture_output=True, text=True
        )
        assert "quot" not in done.stderr and "escape" not in done.stderr, done.stderr


def _systemd_words(line: str) -> list[str]:
    """ExecStart's words as systemd reads them: split on spaces outside double quotes, then
    C escapes, `%%` and `$$` undone (enough for what kit/daemon/unit.py writes)."""
    words: list[str] = []
    word, quoted, i = "", False, 0
    while i < len(line):
        c = line[i]
        if c == '"':
            quoted = not quoted
        elif c == "\\":
            i += 1
            n = line[i]
            simple = {"n": "\n", "r": "\r", "t": "\t", "\\": "\\", '"': '"'}
            if n in simple:
                word += simple[n]
            else:
                size = {"x": 2, "u": 4, "U": 8}[n]
                word += chr(int(line[i + 1 : i + 1 + size], 16))
                i += size
        elif c == " " and not quoted:
            words.append(word)
            word = ""
        elif c in "%$" and line[i + 1 : i + 2] == c:
            word += c
            i += 1
        else:
            word += c
        i += 1
    return [*words, word]
