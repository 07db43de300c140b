"""Long work shows progress on a terminal (counts, time so far, an estimate) and nothing at all
when stderr is piped: the bar itself, and `kit import` through the real CLI on a real pty."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from rich.console import Console

from kit.commands.progress import on_terminal, progress
from tests.support.shared_model import MODEL_DIR, require_model

REPO = Path(__file__).resolve().parents[2]


class Ticks:
    """A clock for rich that moves only when told to (its estimate comes from the pace)."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_the_bar_shows_counts_time_so_far_and_an_estimate() -> None:
    out = StringIO()
    console = Console(file=out, force_terminal=True, width=100, color_system=None)
    ticks = Ticks()
    with progress("Embedding", total=3000, unit="items", console=console, get_time=ticks) as bar:
        for _ in range(3):
            ticks.now += 10.0
            bar.advance(500)  # 50 items a second: 1,500 left is 30 s
        console.file.flush()
        bar._progress.refresh()  # type: ignore[union-attr]  # draw now, not on rich's timer
        drawn = out.getvalue()
    assert "Embedding" in drawn and "1,500/3,000 items" in drawn
    assert "0:00:30" in drawn  # time so far
    assert "~30s left" in drawn


def test_unknown_totals_count_what_is_done() -> None:
    out = StringIO()
    console = Console(file=out, force_terminal=True, width=100, color_system=None)
    with progress("Curating", unit="passes", console=console) as bar:
        bar.advance(12)
        bar._progress.refresh()  # type: ignore[union-attr]
    assert "12 passes" in out.getvalue() and "left" not in out.getvalue()


def test_without_a_terminal_nothing_is_drawn(capsys: pytest.CaptureFixture[str]) -> None:
    assert not on_terminal()  # pytest captures stderr into a file, as a pipe would
    with progress("Importing", total=10, unit="messages") as bar:
        assert not bar.shown
        assert list(bar.track(range(10))) == list(range(10))
    assert capsys.readouterr() == ("", "")


def _import(tmp_path: Path, rows: int, *, stderr_on_a_terminal: bool) -> tuple[int, str, str]:
    """`kit import` as a real process; stderr on a pty (a terminal) or a pipe."""
    source = tmp_path / "chat.jsonl"
    source.write_text(
        "".join(
            json.dumps({"role": "user", "text": f"note {i}", "at": "2024-01-01T10:00:00Z"}) + "\n"
            for i in range(rows)
        )
    )
    config = tmp_path / "config.toml"
    config.write_text(f'[embedding]\nmodel_path = "{MODEL_DIR}"\n[schedule]\ntimezone = "UTC"\n')
    env = {
        **os.environ,
        "KIT_CONFIG": str(config),
        "KIT_DATA_DIR": str(tmp_path / f"data-{stderr_on_a_terminal}"),
        "TERM": "xterm-256color",
        "COLUMNS": "100",
    }
    command = [sys.executable, "-m", "kit.cli", "import", str(source)]
    if not stderr_on_a_terminal:
        done = subprocess.run(command, env=env, cwd=REPO, capture_output=True, timeout=300)
        return done.returncode, done.stdout.decode(), done.stderr.decode()
    controller, terminal = pty.openpty()
    with subprocess.Popen(
        command, env=env, cwd=REPO, stdout=subprocess.PIPE, stderr=terminal
    ) as process:
        os.close(terminal)
        drawn = bytearray()
        while True:
            try:
                chunk = os.read(controller, 65536)
            except OSError:  # EIO: the process closed its end of the terminal
                break
            if not chunk:
                break
            drawn += chunk
        assert process.stdout is not None
        out = process.stdout.read().decode()
        code = process.wait(timeout=300)
    os.close(controller)
    return code, out, drawn.decode(errors="replace")


@pytest.mark.integration
def test_import_shows_its_progress_on_a_terminal_and_is_quiet_in_a_pipe(tmp_path: Path) -> None:
    require_model()
    code, out, drawn = _import(tmp_path, 300, stderr_on_a_terminal=True)
    assert code == 0, drawn
    assert "Imported 300 messages" in out
    assert "300/300 messages" in drawn  # the import bar
    assert "Embedding" in drawn and "300/300 items" in drawn  # the embedding bar

    code, out, err = _import(tmp_path, 300, stderr_on_a_terminal=False)
    assert code == 0, err
    assert "Imported 300 messages" in out and "Embedded 300 items" in out
    assert "Embedding" not in err and "/300" not in err and "\x1b[" not in err
