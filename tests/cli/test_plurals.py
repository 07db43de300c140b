"""One of a thing is singular wherever Kit prints a count (issue 20: "1 facts")."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from kit.chat_commands import format_rem_report
from kit.cli import main
from kit.curator.reports import RemReport
from kit.text import plural


def test_plural_takes_the_singular_for_one_only() -> None:
    assert plural(1, "fact") == "1 fact"
    assert plural(0, "fact") == "0 facts"
    assert plural(2, "day summary", "day summaries") == "2 day summaries"
    assert plural(1, "day summary", "day summaries") == "1 day summary"
    assert plural(3_000, "message") == "3,000 messages"


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    config = tmp_path / "config.toml"
    config.write_text('[embedding]\nmodel_path = "no-model-here"\n[schedule]\ntimezone = "UTC"\n')
    monkeypatch.setenv("KIT_CONFIG", str(config))
    monkeypatch.setenv("KIT_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    return tmp_path


def test_importing_and_backing_up_one_message_say_one(
    env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    one = env / "one.jsonl"
    one.write_text(json.dumps({"role": "user", "text": "hi", "at": "2026-03-01T10:00:00+00:00"}))
    assert main(["import", "--no-embed", str(one)]) == 0
    assert f"Imported 1 message from {one}." in capsys.readouterr().out
    assert main(["backup", str(env / "copy.db")]) == 0
    out = capsys.readouterr().out
    assert "1 message, 0 facts, 0 days;" in out


def test_the_telegram_rem_report_says_one_fact_and_one_day() -> None:
    at = datetime(2026, 3, 2, 3, 0, tzinfo=UTC)
    report = RemReport(
        started_at=at,
        finished_at=at,
        dry_run=False,
        condensed_days=(date(2026, 3, 1),),
        reviewed_facts=1,
        expired_fact_ids=(7,),
    )
    text = format_rem_report(report)
    assert "Condensed 1 day: 2026-03-01" in text
    assert "Reviewed 1 fact." in text
    assert "Expired 1 fact: #7" in text
