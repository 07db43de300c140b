"""`kit backup`: one consistent moment of the database, taken while Kit keeps writing."""

from __future__ import annotations

import asyncio
import dataclasses
import sqlite3
import stat
from pathlib import Path

import pytest

from kit.api import Kit
from kit.cli import main
from kit.clock import FakeClock
from kit.config import Settings
from kit.embed.hashing import HashingEmbedder
from kit.errors import InputError, NotFound
from kit.llm.fake import FakeLLM
from kit.portability.backup import backup_database, backup_target
from tests.trust.locks import write_lock_held


async def test_backup_taken_during_a_stream_of_writes_is_consistent_and_private(
    kit: Kit, tmp_path: Path, settings: Settings, clock: FakeClock
) -> None:
    """Each write adds one message; a consistent copy therefore holds exactly ids 1..k."""
    s = kit.services
    chat = await s.messages.conversation("owner", "api", "stream")
    for i in range(50):
        await s.messages.add(chat, "user", f"before {i}")
    stop, started = asyncio.Event(), asyncio.Event()
    written = 0

    async def writer() -> None:
        nonlocal written
        while not stop.is_set():
            await s.messages.add(chat, "user", f"during {written} " + "x" * 2000)
            written += 1
            if written == 5:
                started.set()
            await asyncio.sleep(0)

    async with asyncio.TaskGroup() as group:
        group.create_task(writer())
        await started.wait()
        target = tmp_path / "copy.db"
        result = await asyncio.to_thread(backup_database, s.db.path, target)
        await asyncio.sleep(0.05)
        stop.set()
    assert written > 5
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert not target.with_name("copy.db-wal").exists()  # a single self-contained file
    copy = sqlite3.connect(target)
    try:
        ids = [r[0] for r in copy.execute("SELECT id FROM messages ORDER BY id")]
        assert copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        copy.close()
    assert ids == list(range(1, len(ids) + 1)) and 50 < len(ids) == result.messages
    # The copy is a working Kit database.
    restored = dataclasses.replace(settings, data_dir=tmp_path / "restored")
    restored.data_dir.mkdir()
    target.rename(restored.database_path)
    async with Kit.open(
        settings=restored, llm=FakeLLM(), embedder=HashingEmbedder(), clock=clock, background=False
    ) as again:
        assert await again.services.messages.count("owner") == len(ids)


async def test_backup_works_while_another_process_holds_the_write_lock(
    kit: Kit, tmp_path: Path
) -> None:
    await kit.send("hello")
    async with write_lock_held(kit.services.db.path):
        result = await asyncio.to_thread(backup_database, kit.services.db.path, tmp_path / "b.db")
    assert result.messages == 2


def test_backup_never_overwrites_and_names_files_in_a_directory(tmp_path: Path) -> None:
    from datetime import UTC, datetime

    now = datetime(2026, 3, 2, 9, 30, 15, tzinfo=UTC)
    assert backup_target(tmp_path, now) == tmp_path / "kit-backup-20260302-093015.db"
    (tmp_path / "taken.db").write_text("precious")
    with pytest.raises(InputError, match="already exists"):
        backup_target(tmp_path / "taken.db", now)
    with pytest.raises(InputError, match="no such directory"):
        backup_target(tmp_path / "nope" / "x.db", now)
    with pytest.raises(NotFound, match="nothing to back up"):
        backup_database(tmp_path / "missing.db", tmp_path / "out.db")
    assert (tmp_path / "taken.db").read_text() == "precious"


def test_cli_backup_of_a_missing_database_says_so_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("KIT_DATA_DIR", str(tmp_path / "empty"))
    monkeypatch.setenv("KIT_CONFIG", str(tmp_path / "none.toml"))
    (tmp_path / "none.toml").write_text("")
    assert main(["backup", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "nothing to back up" in err and err.count("\n") == 1
    assert not (tmp_path / "empty").exists()  # a backup never creates a database
