"""`kit summarize` and `kit rem` end to end: the real CLI, the real Anthropic SDK against the
local Messages API server, a real data directory."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kit.cli import main
from tests.servers.anthropic_api import FakeAnthropicServer

MESSAGES = [
    {"role": "user", "text": "We decided to move the launch to May", "at": "2023-05-08T13:56:00Z"},
    {"role": "assistant", "text": "Noted: launch in May.", "at": "2023-05-08T13:57:00Z"},
    {"role": "user", "text": "Still open: the venue", "at": "2023-05-09T09:00:00Z"},
]


def _answer(body: dict[str, Any]) -> str:
    system = json.dumps(body.get("system", ""))
    if "daily summaries" in system:
        return "## Decided\n- [13:56] Launch moved to May\n## Open\n- The venue"
    if "condense journal entries" in system:
        return "- Launch moved to May"
    return "ok"


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeAnthropicServer]:
    with FakeAnthropicServer() as running:
        running.responder = _answer
        config = tmp_path / "config.toml"
        config.write_text(
            f'[llm]\nbase_url = "{running.url}"\nmax_retries = 0\n'
            f'[embedding]\nmodel_path = "{tmp_path / "no-model"}"\n'
            '[schedule]\ntimezone = "UTC"\n'
        )
        monkeypatch.setenv("KIT_CONFIG", str(config))
        monkeypatch.setenv("KIT_DATA_DIR", str(tmp_path / "data"))
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test")
        source = tmp_path / "chat.jsonl"
        source.write_text("".join(json.dumps(m) + "\n" for m in MESSAGES))
        assert main(["import", str(source)]) == 0
        yield running


def test_summarize_writes_each_missing_day_and_history_reads_it(
    server: FakeAnthropicServer, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert main(["summarize"]) == 0
    out = capsys.readouterr().out
    assert "2023-05-08: summary written (2 messages)" in out
    assert "2023-05-09: summary written (1 message)" in out
    assert main(["summarize"]) == 0
    assert "already has its summary" in capsys.readouterr().out
    assert main(["history", "2023-05-08"]) == 0
    assert "- [13:56] Launch moved to May" in capsys.readouterr().out


def test_summarize_reports_a_rejected_answer_and_exits_1(
    server: FakeAnthropicServer, capsys: pytest.CaptureFixture[str]
) -> None:
    server.queue_text("I'm sorry, I can't help with that.")
    capsys.readouterr()
    assert main(["summarize", "--date", "2023-05-08"]) == 1
    out, err = capsys.readouterr()
    assert "not written, the model's answer was rejected" in out
    # said once: the command reports it, the log does not repeat it on the terminal (issue 20)
    assert (out + err).count("was a refusal") == 1


def test_rem_dry_run_json_then_rem_then_last(
    server: FakeAnthropicServer, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["summarize"]) == 0
    capsys.readouterr()

    assert main(["rem", "--dry-run", "--json"]) == 0
    captured = capsys.readouterr()
    planned = json.loads(captured.out)
    assert "Dry run: nothing will be changed" in captured.err and "spends tokens" in captured.err
    assert planned["dry_run"] and planned["condensed_days"] == ["2023-05-08", "2023-05-09"]
    assert main(["history", "2023-05-08", "--condensed"]) == 2  # nothing was applied
    capsys.readouterr()

    assert main(["rem"]) == 0
    captured = capsys.readouterr()
    # No dry-run notice; progress is drawn on a terminal only (not as lines in a pipe).
    assert "Dry run" not in captured.err and "condense" not in captured.err
    assert "condensed 2023-05-08 (2 -> 1 bullets)" in captured.out
    assert "Tokens:" in captured.out
    assert main(["history", "2023-05-08", "--condensed"]) == 0
    assert "- Launch moved to May" in capsys.readouterr().out

    assert main(["rem", "--last", "--json"]) == 0
    last = json.loads(capsys.readouterr().out)
    assert not last["dry_run"] and last["condensed_days"] == ["2023-05-08", "2023-05-09"]


def test_rem_for_a_day_without_summary_says_what_to_do(
    server: FakeAnthropicServer, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert main(["rem", "--date", "2023-05-08"]) == 2
    assert "kit summarize --date 2023-05-08" in capsys.readouterr().err
    assert main(["rem", "--date", "last tuesday"]) == 2
    assert "--date: 'last tuesday' is not a date" in capsys.readouterr().err
