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
