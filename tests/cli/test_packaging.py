"""The installed `kit` script works from anywhere, not just from the repository folder."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest


def test_console_script_finds_every_package_outside_the_repo(tmp_path: Path) -> None:
    script = shutil.which("kit")
    if script is None:
        pytest.fail("the `kit` console script is not installed; run pip install -e '.[dev]'")
    done = subprocess.run(
        [script, "--help"], cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    for command in ("run", "tui", "chat", "rem", "eval"):
        assert f"    {command} " in done.stdout
