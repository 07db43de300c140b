"""The `kit` command line: one-line errors with exit code 2, nothing half-written."""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from kit.api import Kit
from kit.cli import main
from kit.embed.hashing import HashingEmbedder
from kit.errors import BudgetSpent
from kit.llm.base import LLMRequest, Usage
from kit.llm.fake import FakeLLM
from tests.servers.anthropic_api import FakeAnthropicServer
from tests.support.shared_model import MODEL_DIR, have_model, require_model

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A data dir and a config using the local embedding model (where there is none, Kit runs
    on lexical search alone); no API key."""
    model = MODEL_DIR if have_model() else tmp_path / "no-model"
    config = tmp_path / "config.toml"
    config.write_text(f'[embedding]\nmodel_path = "{model}"\n[schedule]\ntimezone = "UTC"\n')
    monkeypatch.setenv("KIT_CONFIG", str(config))
    monkeypatch.setenv("KIT_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    return tmp_path


def _jsonl(path: Path, rows: list[object]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


GOOD = [
    {
        "speaker": "Caroline",
        "text": "I went to the LGBTQ support group yesterday",
        "at": "2023-05-08T13:56:00+00:00",
        "ref": "D1:3",
    },
    {
        "role": "user",
        "text": "Melanie painted a lake at sunrise",
        "at": "2023-05-08T14:01:00+00:00",
        "ref": "D1:4",
    },
]


def test_import_then_search_returns_refs_as_json(
    env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["import", str(_jsonl(env / "a.jsonl", GOOD))]) == 0
    assert "Imported 2 messages" in capsys.readouterr().out
    assert main(["search", "--json", "--k", "3", "support", "group"]) == 0
    hits = json.loads(capsys.readouterr().out)
    assert hits[0]["ref"] == "D1:3" and hits[0]["speaker"] == "Caroline"


def test_malformed_line_is_named_and_nothing_is_written(
    env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = env / "bad.jsonl"
    path.write_text(json.dumps(GOOD[0]) + "\n{not json\n", encoding="utf-8")
    assert main(["import", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{path}:2" in err and "not valid JSON" in err
    assert main(["search", "--json", "support"]) == 0
    assert json.loads(capsys.readouterr().out) == []


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ({"role": "user", "text": "hi", "at": "yesterday"}, "not an ISO-8601 time"),
        ({"role": "user", "text": "hi", "at": "2024-01-01T10:00:00"}, "has no timezone"),
        ({"role": "robot", "text": "hi", "at": "2024-01-01T10:00:00Z"}, "'role' must be"),
        ({"text": "hi", "at": "2024-01-01T10:00:00Z"}, "give 'role'"),
        ({"role": "user", "text": "", "at": "2024-01-01T10:00:00Z"}, "non-empty string"),
        ({"role": "user", "text": "hi", "at": "2024-01-01T10:00:00Z", "x": 1}, "unknown field"),
    ],
)
def test_each_bad_record_gets_a_specific_error(
    env: Path, capsys: pytest.CaptureFixture[str], row: dict[str, object], message: str
) -> None:
    assert main(["import", str(_jsonl(env / "b.jsonl", [GOOD[0], row]))]) == 2
    err = capsys.readouterr().err
    assert ":2:" in err and message in err


def test_invalid_utf8_is_reported_with_its_line(
    env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = env / "c.jsonl"
    path.write_bytes(json.dumps(GOOD[0]).encode() + b"\n" + b'{"text": "\xff"}\n')
    assert main(["import", str(path)]) == 2
    assert "c.jsonl:2: not valid UTF-8" in capsys.readouterr().err


def test_missing_file_is_a_clear_error(env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["import", str(env / "nope.jsonl")]) == 2
    assert "cannot open the file" in capsys.readouterr().err


def _stored(env: Path) -> list[tuple[str, str | None]]:
    with sqlite3.connect(env / "data" / "kit.db") as conn:
        rows = conn.execute("SELECT text, ref FROM messages ORDER BY id").fetchall()
    conn.close()
    return rows


def test_importing_the_same_file_twice_adds_nothing_the_second_time(
    env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _jsonl(env / "a.jsonl", GOOD)
    assert main(["import", "--no-embed", str(path)]) == 0
    capsys.readouterr()
    assert main(["import", "--no-embed", str(path)]) == 0
    out = capsys.readouterr().out
    assert "2 messages from" in out and "already present, 0 new (nothing imported)" in out
    assert _stored(env) == [(r["text"], r["ref"]) for r in GOOD]  # refs not doubled either


def test_a_partly_overlapping_file_adds_only_the_new_messages(
    env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [
        {"role": "user", "text": f"line {i}", "at": f"2026-01-01T10:0{i}:00Z"} for i in range(5)
    ]
    same_time = {"role": "user", "text": "ok", "at": "2026-01-01T11:00:00+00:00"}
    first = _jsonl(env / "first.jsonl", [*rows[:3], same_time, same_time])
    assert main(["import", "--no-embed", "--conversation", "log", str(first)]) == 0
    # The same instant written another way, "ok" three times (one more than stored): 3 new.
    later = {**same_time, "at": "2026-01-01T12:00:00+01:00"}
    second = _jsonl(env / "second.jsonl", [*rows[2:], later, later, later])
    capsys.readouterr()
    assert main(["import", "--no-embed", "--conversation", "log", str(second)]) == 0
    out = capsys.readouterr().out
    assert "3 messages from" in out and "already present, 3 new (imported)" in out
    stored = [t for t, _ in _stored(env)]
    assert stored == ["line 0", "line 1", "line 2", "ok", "ok", "line 3", "line 4", "ok"]


def test_the_same_messages_in_another_conversation_are_imported(
    env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _jsonl(env / "a.jsonl", GOOD)
    assert main(["import", "--no-embed", str(path)]) == 0
    assert main(["import", "--no-embed", "--conversation", "copy", str(path)]) == 0
    assert "Imported 2 messages" in capsys.readouterr().out.splitlines()[-1]
    assert len(_stored(env)) == 4


def test_history_rejects_a_bad_date_and_names_the_format(
    env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["history", "2023-13-01"]) == 2
    assert "YYYY-MM-DD" in capsys.readouterr().err


def test_history_of_a_day_with_messages_but_no_summary(
    env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    main(["import", str(_jsonl(env / "a.jsonl", GOOD))])
    capsys.readouterr()
    assert main(["history", "2023-05-08"]) == 2
    err = capsys.readouterr().err
    assert "2 messages but no summary yet" in err
    # a finished day: the command that writes its summary now, with that date
    assert "`kit summarize --date 2023-05-08` writes it now" in err


def test_facts_json_lists_facts(env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import asyncio

    from kit.api import Kit

    async def seed() -> None:
        async with Kit.open(with_embedder=False, background=False) as kit:
            await kit.remember("Lives in Porto", category="person")

    asyncio.run(seed())
    assert main(["facts", "--json"]) == 0
    facts = json.loads(capsys.readouterr().out)
    assert [(f["category"], f["content"]) for f in facts] == [("person", "Lives in Porto")]


def test_unreadable_config_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[memory]\ntop_k = 'many'\n")
    assert main(["--config", str(bad), "facts"]) == 2
    err = capsys.readouterr().err
    assert str(bad) in err and "memory.top_k must be an integer" in err


def test_doctor_names_what_to_fix(env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    require_model()
    assert main(["doctor"]) == 1
    out = capsys.readouterr().out
    assert "FIX   API key: ANTHROPIC_API_KEY is not set" in out
    assert "ok    embeddings" in out and "ok    database" in out


def test_doctor_passes_when_everything_is_set(
    env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    require_model()
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")
    assert main(["doctor", "--offline"]) == 0  # the network checks: tests/cli/test_doctor.py
    out = capsys.readouterr().out
    assert "All good." in out and "sk-ant-test" not in out


def test_chat_reads_piped_stdin_and_replies(env: Path) -> None:
    """`kit chat` as a real process: two piped lines, two replies, via the real SDK."""
    with FakeAnthropicServer() as server:
        server.queue_text("Nice to meet you, Ana.")
        server.queue_text("You said your name is Ana.")
        config = env / "chat.toml"
        config.write_text(
            f'[llm]\nbase_url = "{server.url}"\nmax_retries = 0\n'
            f'[embedding]\nmodel_path = "{MODEL_DIR}"\n'
        )
        run_env = {
            **os.environ,
            "ANTHROPIC_API_KEY": "sk-test",
            "KIT_CONFIG": str(config),
            "KIT_DATA_DIR": str(env / "chatdata"),
        }
        done = subprocess.run(
            [sys.executable, "-m", "kit.cli", "chat"],
            input="My name is Ana\nWho am I?\n",
            capture_output=True,
            text=True,
            env=run_env,
            timeout=60,
            cwd=REPO,
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout.splitlines() == ["Nice to meet you, Ana.", "You said your name is Ana."]
        second = server.requests[-1].json["messages"]
        assert second[0]["content"][0]["text"] == "My name is Ana"


def test_import_refuses_while_a_daemon_holds_the_data_dir(
    env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A big import under a running daemon would starve the daemon's writes: say so instead."""
    from kit.daemon.lock import DataDirLock

    daemon = DataDirLock(env / "data")
    daemon.acquire("daemon")
    try:
        assert main(["import", str(_jsonl(env / "a.jsonl", GOOD))]) == 2
        err = capsys.readouterr().err
        assert "a Kit daemon" in err and "stop it first" in err
    finally:
        daemon.release()
    assert main(["search", "--json", "support"]) == 0
    assert json.loads(capsys.readouterr().out) == []  # nothing was written


async def _budget_spent_and_a_day_given_up() -> None:
    """Today's background budget spent (one call refused), and a day summary held."""
    async with Kit.open(llm=FakeLLM(), embedder=HashingEmbedder(), background=False) as kit:
        cap = kit.settings.budget.daily_tokens
        await kit.services.usage.record(
            model="claude-haiku-4-5", purpose="curate:people", usage=Usage(cap, 0), user_id="owner"
        )
        request = LLMRequest("claude-haiku-4-5", (), (), 100, purpose="daily_summary")
        with pytest.raises(BudgetSpent):
            async with kit.services.budget.admit(request):
                pass
        for _ in range(3):
            await kit.services.attempts.failed(
                "daily_summary", "owner", "2026-03-01", "the summary of 2026-03-01 came back empty"
            )


def test_doctor_says_background_work_waits_for_the_budget_and_what_was_given_up(
    env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    asyncio.run(_budget_spent_and_a_day_given_up())
    main(["doctor"])
    out = capsys.readouterr().out
    assert "warn  background budget: 500,000 of 500,000 tokens used today by all users" in out
    assert "1 call(s) did not fit" in out and "Raise budget.daily_tokens" in out
    assert (
        "warn  background work: the daily summary of 2026-03-01 for 'owner' was given up after "
        "3 failed attempts (the summary of 2026-03-01 came back empty); "
        "`kit --user owner summarize --date 2026-03-01` tries again"
    ) in out


def test_context_shows_sections_scores_and_stages_and_writes_nothing(
    env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`kit context` is the "why did Kit say that?" tool: what the model would get for a
    message, each item with its score and reason, with no write (not even embeddings)."""
    assert main(["import", str(_jsonl(env / "a.jsonl", GOOD))]) == 0
    assert main(["search", "support"]) == 0  # embeds what was imported
    capsys.readouterr()
    database = env / "data" / "kit.db"
    before = database.read_bytes()
    assert main(["context", "--json", "How", "was", "the", "support", "group?"]) == 0
    report = json.loads(capsys.readouterr().out)
    activity = next(s for s in report["sections"] if s["name"] == "activity")
    assert activity["items"] and activity["items"][0]["score"] > 0
    assert "support group" in activity["items"][0]["text"]
    assert report["memory_tokens"] <= report["budget_tokens"]
    assert [b["text"] for b in report["system"]][-1].startswith("Current time:")
    assert main(["context", "support", "group"]) == 0
    shown = capsys.readouterr().out
    assert "== Relevant Past Activity" in shown and "stages:" in shown
    assert database.read_bytes() == before
    assert main(["context", "--raw", "support"]) == 0
    assert capsys.readouterr().out.startswith("You are Kit")


def test_chat_answers_slash_commands_like_telegram_without_a_model(
    env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`kit chat` used to send /help to the model (issue 20); no key is set here, so any line
    that reached the model would fail."""
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("/help\n/facts\n/serch coffee\n/forget 99\n"))
    assert main(["chat"]) == 0
    captured = capsys.readouterr()
    assert "/history [date]" in captured.out and "/search <query>" in captured.out
    assert "No facts yet." in captured.out
    assert "I don't know /serch. Did you mean /search?" in captured.out
    assert "kit: there is no fact #99; /facts shows the ids" in captured.err
    with sqlite3.connect(env / "data" / "kit.db") as db:
        assert db.execute("SELECT COUNT(*) FROM messages").fetchone()[0] == 0


def test_running_kit_twice_in_one_process_keeps_one_terminal_log_handler(env: Path) -> None:
    """Each run used to add a stderr handler, so a second run printed every warning twice."""
    import logging

    from kit.logs import setup_logging

    setup_logging()
    setup_logging(verbose=True)
    ours = [h for h in logging.getLogger().handlers if type(h).__name__ == "_TerminalHandler"]
    assert len(ours) == 1
