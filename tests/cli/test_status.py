"""`kit status` as the owner reads it: times in the owner's zone, to the minute."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from kit.cli import main


def test_status_shows_the_last_rem_in_the_owners_zone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "config.toml"
    config.write_text(
        f'[schedule]\ntimezone = "Asia/Tokyo"\n[embedding]\nmodel_path = "{tmp_path}/none"\n'
    )
    monkeypatch.setenv("KIT_CONFIG", str(config))
    monkeypatch.setenv("KIT_DATA_DIR", str(tmp_path / "data"))
    assert main(["rem"]) == 0  # nothing to do: no model call, but a report is kept
    assert main(["rem", "--last", "--json"]) == 0
    out = capsys.readouterr().out
    finished = datetime.fromisoformat(json.loads(out[out.index("{") :])["finished_at"])
    assert main(["status"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if "last REM" in x)
    local = finished.astimezone(ZoneInfo("Asia/Tokyo"))
    assert line == f"  last REM: {local:%Y-%m-%d %H:%M} JST"
