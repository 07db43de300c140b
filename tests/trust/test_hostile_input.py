"""Hostile or broken input: every case gets a clear, specific error or is handled, and none of
them crashes Kit or writes half of anything."""

from __future__ import annotations

import json
import os
import sqlite3
import stat
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from kit.api import Kit
from kit.cli import main
from kit.clock import FakeClock
from kit.config import Settings
from kit.embed.hashing import HashingEmbedder
from kit.errors import InputError
from kit.llm.fake import FakeLLM
from kit.memory.messages import NewMessage
from kit.portability.importer import parse_lines
from kit.untrusted.clean import clean_text


async def _stored(kit: Kit) -> list[str]:
    rows = await kit.services.db.fetchall("SELECT text FROM messages ORDER BY id")
    return [r[0] for r in rows]


@pytest.mark.parametrize("text", ["", "   \n\t ", "\x00\x00", "\x1b\x07\x7f", "\r\n\r"])
async def test_empty_messages_are_refused_and_nothing_is_stored(kit: Kit, text: str) -> None:
    with pytest.raises(InputError, match="the message is empty"):
        await kit.send(text)
    assert await _stored(kit) == []


async def test_a_one_megabyte_message_is_refused_with_the_limit_and_a_way_out(kit: Kit) -> None:
    with pytest.raises(InputError, match=r"too long \(1,048,576 characters.*kit import"):
        await kit.send("a" * 1_048_576)
    assert await _stored(kit) == []
    at_limit = await kit.send("b" * 100_000)  # the limit itself is fine
    assert not at_limit.failed and len((await _stored(kit))[0]) == 100_000


async def test_control_characters_and_terminal_escapes_are_dropped_text_kept(kit: Kit) -> None:
    result = await kit.send("\x1b[2J\x1b[31mred\x1b[0m alert\x07\x00 line\r\nnext\ttab")
    assert not result.failed
    assert await _stored(kit) == ["[2J[31mred[0m alert line\nnext\ttab", "ok"]


async def test_invalid_unicode_smuggled_through_json_escapes_is_stored_safely(
    kit: Kit, fake_llm: FakeLLM
) -> None:
    """A lone surrogate ("\\ud800" in a JSON body) cannot be encoded for SQLite at all."""
    text = json.loads('"caf\\ud800e"')
    result = await kit.send(text)
    assert not result.failed
    assert (await _stored(kit))[0] == "caf\ufffde"
    sent = fake_llm.requests[0].messages[-1].content[0]
    assert getattr(sent, "text", "") == "caf\ufffde"  # and the model API gets valid text


def test_clean_text_keeps_everything_printable() -> None:
    sample = "Zoë — 日本語 🙂 <b>&amp;</b> \\n tabs\there\nnew line"
    assert clean_text(sample) == sample


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (b'{"role": "user", "text": "\xff\xfe broken", "at": "2026-01-01T00:00:00Z"}', "UTF-8"),
        (b'{"role": "user", "text": "x", "at": "0000-01-01T00:00:00Z"}', "not an ISO-8601"),
        (b'{"role": "user", "text": "x", "at": "10000-01-01T00:00:00Z"}', "not an ISO-8601"),
        (b'{"role": "user", "text": "x", "at": "9999-12-31T23:59:59-05:00"}', "out of range"),
        (b'{"role": "user", "text": "x", "at": "0001-01-01T00:00:00+05:00"}', "out of range"),
        (b'{"role": "user", "text": "x", "at": "2026-01-01T00:00:00"}', "no timezone"),
        (b'{"role": "user", "text": "\\u001b\\u0007", "at": "2026-01-01T00:00:00Z"}', "non-empty"),
        (b'{"role": "user", "text": "x", "at": "2026-01-01T00:00:00Z", "x": 1}', "unknown field"),
        (b'{"role": "system", "text": "x", "at": "2026-01-01T00:00:00Z"}', "'role' must be"),
        (b'["not", "an", "object"]', "expected a JSON object"),
        (b'{"role": "user", "text": "unterminated', "not valid JSON"),
        (b'{"role": "user", "text": 12, "at": "2026-01-01T00:00:00Z"}', "non-empty string"),
    ],
)
def test_a_bad_import_line_is_named_and_nothing_is_imported(line: bytes, message: str) -> None:
    good = b'{"role": "user", "text": "fine", "at": "2026-01-01T00:00:00Z"}'
    with pytest.raises(InputError, match=message) as caught:
        parse_lines([good, good, line, good], "data.jsonl")
    assert str(caught.value).startswith("data.jsonl:3: ")


def test_import_cleans_text_the_same_way_as_chat() -> None:
    line = b'{"speaker": "Ana", "text": "a\\u0000b\\ud800c\\r\\nd", "at": "2026-01-01T00:00:00Z"}'
    (item,) = parse_lines([line], "x")
    assert item.text == "ab\ufffdc\nd"


def test_cli_import_of_a_file_with_a_bad_line_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _env(tmp_path, monkeypatch)
    lines = [
        json.dumps({"role": "user", "text": f"m{i}", "at": "2026-01-01T00:00:00Z"})
        for i in range(1000)
    ]
    lines[700] = '{"role": "user", "text": "x", "at": "9999-12-31T23:59:59-05:00"}'
    (tmp_path / "in.jsonl").write_text("\n".join(lines))
    assert main(["import", "--no-embed", str(tmp_path / "in.jsonl")]) == 2
    err = capsys.readouterr().err
    assert "in.jsonl:701: 'at'" in err and "out of range" in err and err.count("\n") == 1
    assert not (tmp_path / "data").exists()  # the file is checked before the database opens


def test_a_large_jsonl_import_lands_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """20k lines in one transaction (bench/hostile_import.py measures 200k: time and memory)."""
    _env(tmp_path, monkeypatch)
    with (tmp_path / "big.jsonl").open("w") as handle:
        for i in range(20_000):
            at = f"2025-{1 + i % 12:02d}-{1 + i % 28:02d}T10:00:00Z"
            handle.write(json.dumps({"role": "user", "text": f"note {i} about tulips", "at": at}))
            handle.write("\n")
    assert main(["import", "--no-embed", str(tmp_path / "big.jsonl")]) == 0
    assert "Imported 20,000 messages" in capsys.readouterr().out
    with sqlite3.connect(tmp_path / "data" / "kit.db") as conn:
        rows = conn.execute("SELECT COUNT(*), MAX(text) FROM messages").fetchall()
    conn.close()
    assert rows == [(20_000, "note 9999 about tulips")]


def _env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, config: str = "") -> Path:
    path = tmp_path / "config.toml"
    path.write_bytes(config.encode() if config else b'[schedule]\ntimezone = "UTC"\n')
    monkeypatch.setenv("KIT_CONFIG", str(path))
    monkeypatch.setenv("KIT_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    return path


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["history", "99999-01-01"], "is not a date"),
        (["history", "2026-02-30"], "is not a date"),
        (["search", "--now", "garbage", "x"], "is not an ISO-8601 time"),
        (["search", "--now", "9999-12-31T23:59:59-05:00", "x"], "out of range"),
        (["search", "--now", "2026-01-01", "x"], "needs a timezone"),
        (["forget", "--after", "0000-00-00"], "is not a date"),
    ],
)
def test_dates_out_of_range_get_one_line_and_exit_2(
    argv: list[str],
    message: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _env(tmp_path, monkeypatch)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.startswith("kit: ") and err.count("\n") == 1


@pytest.mark.parametrize(
    ("config", "message"),
    [
        (b"\xff\xfe[llm]\n", "not UTF-8"),
        (b"[llm\n", "not valid TOML"),
        (b'[llm]\nmax_tokens = "lots"\n', "llm.max_tokens must be an integer (got 'lots')"),
        (b"[llm]\nmax_tokens = true\n", "llm.max_tokens must be an integer"),
        (b"[memory]\ntop_k = 99999999999999999999\n", "memory.top_k is far too large"),
        (b"[memory]\nsimilarity_threshold = 7\n", "between 0 and 1"),
        (b"[memory]\nwindow_keep = 1.5\n", "memory.window_keep must be an integer"),
        (b"owner = 5\n", "[owner] must be a table"),
        (b"[ownr]\n", "unknown section [ownr]"),
        (b"[owner]\nnmae = 'x'\n", "unknown setting owner.nmae"),
        (b'[schedule]\ntimezone = "Mars/Olympus"\n', "not a known IANA zone"),
        (b'[schedule]\nrem = "25:99"\n', "schedule.rem must be a time like"),
        (b'[telegram]\nallowed_user_ids = { "abc" = "owner" }\n', "numeric Telegram user ids"),
        (b"[telegram]\nallowed_user_ids = [1, 2]\n", "must be a table like"),
    ],
)
def test_a_config_with_wrong_types_names_the_setting_and_exits_2(
    config: bytes,
    message: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "config.toml"
    path.write_bytes(config)
    monkeypatch.setenv("KIT_CONFIG", str(path))
    monkeypatch.setenv("KIT_DATA_DIR", str(tmp_path / "data"))
    assert main(["history"]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


async def test_database_and_data_dir_are_private_even_with_a_permissive_umask(
    settings: Settings, clock: FakeClock
) -> None:
    old = os.umask(0)
    try:
        async with Kit.open(
            settings=settings,
            llm=FakeLLM(),
            embedder=HashingEmbedder(),
            clock=clock,
            background=False,
        ) as kit:
            await kit.send("hello")
            for name in ("kit.db", "kit.db-wal", "kit.db-shm"):
                assert stat.S_IMODE((settings.data_dir / name).stat().st_mode) == 0o600, name
    finally:
        os.umask(old)
    assert stat.S_IMODE(settings.data_dir.stat().st_mode) == 0o700


async def test_a_world_readable_database_copy_is_made_private_on_open(
    settings: Settings, clock: FakeClock
) -> None:
    async with Kit.open(
        settings=settings, llm=FakeLLM(), embedder=HashingEmbedder(), clock=clock, background=False
    ):
        pass
    settings.database_path.chmod(0o644)
    async with Kit.open(
        settings=settings, llm=FakeLLM(), embedder=HashingEmbedder(), clock=clock, background=False
    ):
        assert stat.S_IMODE(settings.database_path.stat().st_mode) == 0o600


async def test_an_api_message_time_out_of_range_is_refused(kit: Kit) -> None:
    with pytest.raises(InputError, match="out of range"):
        await kit.send("hi", at=datetime(9999, 12, 31, 23, 0, tzinfo=UTC))
    assert await _stored(kit) == []


async def test_an_import_failing_after_several_batches_leaves_nothing_behind(kit: Kit) -> None:
    """Batches share one transaction: a file that goes bad at message 2,500 (e.g. changed
    between the check and the import) stores none of the 2,499 before it."""

    def messages() -> Iterator[NewMessage]:
        for i in range(5000):
            if i == 2499:
                raise InputError("data.jsonl:2500: 'text' must be a non-empty string")
            yield NewMessage("user", f"m{i}", datetime(2026, 1, 1, tzinfo=UTC))

    with pytest.raises(InputError, match="2500"):
        await kit.import_messages(messages())
    assert await _stored(kit) == []
    assert (
        await kit.import_messages(
            NewMessage("user", "ok", datetime(2026, 1, 2, tzinfo=UTC)) for _ in "ab"
        )
        == 2
    )


DEEP = 100_000  # far past Python's recursion limit (1,000)


@pytest.mark.parametrize(
    ("name", "content", "argv", "message"),
    [
        (
            "in.jsonl",
            '{"role": "user", "text": "hi", "at": "2026-01-01T00:00:00Z"}\n'
            + '{"text": '
            + "[" * DEEP
            + "]" * DEEP
            + "}\n",
            ["import", "--no-embed", "{file}"],
            "in.jsonl:2: nested too deeply to read",
        ),
        (
            "export.json",
            '{"format": "kit-export", "version": 1, "facts": ' + "[" * DEEP + "]" * DEEP + "}",
            ["import", "--no-embed", "{file}"],
            "export.json: nested too deeply to read",
        ),
        (
            "locomo.json",
            "[" * DEEP + "]" * DEEP,
            ["eval", "retrieval", "--lexical-only", "{file}"],
            "locomo.json: nested too deeply to read",
        ),
    ],
    ids=["jsonl", "export", "eval"],
)
def test_deeply_nested_json_is_one_line_and_exit_2(
    name: str,
    content: str,
    argv: list[str],
    message: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _env(tmp_path, monkeypatch)
    path = tmp_path / name
    path.write_text(content)
    assert main([a.format(file=path) for a in argv]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err
    assert not (tmp_path / "data" / "kit.db").exists()


@pytest.mark.parametrize(
    "config",
    ["a = " + "[" * DEEP + "]" * DEEP, "a = " + "{b = " * DEEP + "1" + "}" * DEEP],
    ids=["arrays", "inline-tables"],
)
def test_a_deeply_nested_config_is_one_line_and_exit_2(
    config: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _env(tmp_path, monkeypatch, config)
    assert main(["history"]) == 2
    err = capsys.readouterr().err
    assert "config.toml: nested too deeply to read" in err and err.count("\n") == 1
