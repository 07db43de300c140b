"""Forget receipts from the command line (issue 22, item 4): `kit forget` prints a receipt,
`kit import` refuses what it erased (or flags it, forced), `--verify` and `kit repair` read it,
and a restore of an old export re-applies the forget. The API's behaviour:
tests/trust/test_forget_receipts.py."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest

from kit.cli import main
from kit.daemon.lock import DataDirLock
from kit.forget.receipt import read_file

pytestmark = pytest.mark.stores


def _cli_memory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KIT_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("KIT_CONFIG", str(tmp_path / "none.toml"))
    (tmp_path / "none.toml").write_text('[schedule]\ntimezone = "UTC"\n')
    lines = [
        {"role": "user", "text": "Ana likes tulips and jazz.", "at": "2026-01-01T10:00:00Z"},
        {"role": "user", "text": "The boiler needs a service.", "at": "2026-01-01T10:05:00Z"},
    ]
    chat = tmp_path / "chat.jsonl"
    chat.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert main(["import", "--no-embed", str(chat)]) == 0
    return chat


@pytest.mark.stores("sqlite")
def test_cli_forget_prints_a_receipt_and_import_refuses_then_flags_and_verify_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    chat = _cli_memory(tmp_path, monkeypatch)
    copy = tmp_path / "receipt.json"
    capsys.readouterr()
    assert main(["forget", "--person", "Ana", "--yes", "--receipt-file", str(copy)]) == 0
    out = capsys.readouterr().out
    receipt = read_file(copy)
    assert f"Receipt {receipt.id} (" in out and "1 message, 0 facts" in out
    assert f"hash of what was erased {receipt.erased[:16]}" in out
    assert f"kit forget --verify {receipt.id}" in out and os.stat(copy).st_mode & 0o777 == 0o600
    assert "tulips" not in copy.read_text()

    assert main(["forget", "--receipts"]) == 0
    assert capsys.readouterr().out.startswith(f"{receipt.id}  ")
    assert main(["forget", "--verify", receipt.id]) == 0
    assert f"Receipt {receipt.id} " in capsys.readouterr().out
    assert main(["forget", "--verify", str(copy)]) == 0
    assert "verifies" in capsys.readouterr().out

    assert main(["import", "--no-embed", str(chat)]) == 2
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1 and receipt.id in captured.err
    assert "1 message of this import was erased" in captured.err

    assert main(["import", "--no-embed", "--allow-forgotten", str(chat)]) == 0
    out = capsys.readouterr().out
    assert f"Flagged: 1 message of {chat} was erased" in out and receipt.id in out
    assert main(["forget", "--verify", receipt.id]) == 1
    out = capsys.readouterr().out
    assert "does NOT verify" in out
    assert "messages: erased messages back (imported or written again): 1 (ids " in out
    assert "Run the same forget again" in out


@pytest.mark.stores("sqlite")
@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--verify", "fr-aaaaaaaaaa"], "no forget receipt fr-aaaaaaaaaa"),
        (["--verify", "nonsense"], "neither a forget receipt id"),
        (["--verify", "missing/receipt.json"], "no such receipt file"),
        (["--verify", "fr-aaaaaaaaaa", "--person", "Ana"], "--person does not go with --verify"),
        (["--receipts", "--yes"], "--yes does not go with --receipts"),
        (["--person", "Ana", "--repair"], "--repair goes with --verify"),
        (["--person", "Ana", "--dry-run", "--receipt-file", "r.json"], "makes no receipt"),
    ],
)
def test_bad_receipt_flags_get_one_line_and_exit_2(
    flags: list[str],
    message: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _cli_memory(tmp_path, monkeypatch)
    capsys.readouterr()
    assert main(["forget", *flags]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


@pytest.mark.stores("sqlite")
def test_cli_verify_refuses_a_damaged_receipt_file_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _cli_memory(tmp_path, monkeypatch)
    copy = tmp_path / "receipt.json"
    assert main(["forget", "--person", "Ana", "--yes", "--receipt-file", str(copy)]) == 0
    text = copy.read_text()
    assert '"kind":"person"' in text
    copy.write_text(text.replace('"kind":"person"', '"kind":"persona"'))
    capsys.readouterr()
    assert main(["forget", "--verify", str(copy)]) == 2
    err = capsys.readouterr().err
    assert "the forget receipt is damaged" in err and err.count("\n") == 1


@pytest.mark.stores("sqlite")
def test_cli_repair_erases_a_derived_leftover_and_needs_kit_stopped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _cli_memory(tmp_path, monkeypatch)
    copy = tmp_path / "receipt.json"
    assert main(["forget", "--person", "Ana", "--yes", "--receipt-file", str(copy)]) == 0
    receipt = read_file(copy)
    (gone,) = receipt.ids.messages
    database = tmp_path / "data" / "kit.db"
    with sqlite3.connect(database) as conn:  # an index entry the forget missed
        conn.execute(
            "INSERT INTO messages_fts (rowid, speaker, text, context) VALUES (?, '', ?, '')",
            (gone, "Ana likes tulips and jazz."),
        )
    capsys.readouterr()
    assert main(["forget", "--verify", receipt.id]) == 1
    out = capsys.readouterr().out
    assert (
        f"search index (FTS): messages entries holding words of erased rows: 1 (ids {gone})" in out
    )
    assert f"kit forget --verify {receipt.id} --repair" in out
    daemon = DataDirLock(tmp_path / "data")
    daemon.acquire("daemon")
    try:
        assert main(["forget", "--verify", receipt.id, "--repair"]) == 2
    finally:
        daemon.release()
    assert "stop it first" in capsys.readouterr().err
    assert main(["forget", "--verify", receipt.id, "--repair"]) == 0
    out = capsys.readouterr().out
    assert "Repaired: 1 leftover in derived state erased." in out and "verifies" in out
    assert b"tulips" not in database.read_bytes()


@pytest.mark.stores("sqlite")
def test_cli_restore_of_an_old_export_reapplies_the_forget_unless_allow_forgotten(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _cli_memory(tmp_path, monkeypatch)
    old = tmp_path / "old.json"
    assert main(["export", "-o", str(old)]) == 0
    assert main(["forget", "--person", "Ana", "--yes"]) == 0
    assert main(["forget", "--receipts"]) == 0
    rid = capsys.readouterr().out.splitlines()[-1].split()[0]
    assert main(["restore", str(old)]) == 0
    out = capsys.readouterr().out
    assert f"Re-applied 1 forget made after {old} was written" in out
    assert f"receipt {rid} (" in out and "1 message, 0 facts" in out
    assert main(["forget", "--verify", rid]) == 0  # no receipt file needed
    assert main(["restore", "--allow-forgotten", str(old)]) == 0
    out = capsys.readouterr().out
    assert "Flagged: 1 message of" in out
    assert main(["forget", "--receipts"]) == 0  # the receipt came along
    (line,) = capsys.readouterr().out.splitlines()
    assert line.split()[0] == rid
    assert main(["forget", "--verify", rid]) == 1
