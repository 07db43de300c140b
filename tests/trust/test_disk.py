"""Disk trouble: a lock held elsewhere, a full disk, a damaged or unwritable file. Each gives a
clear StorageError, nothing acknowledged is lost, nothing is half-written, and Kit recovers."""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import errno
import io
import json
import sqlite3
import subprocess
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from kit import cli
from kit.api import Kit
from kit.clock import FakeClock
from kit.commands import doctor
from kit.config import Settings
from kit.daemon.runner import run_daemon
from kit.embed.hashing import HashingEmbedder
from kit.errors import StorageError
from kit.llm.fake import FakeLLM
from kit.memory.messages import NewMessage
from kit.portability.backup import backup_database
from tests.trust.locks import write_lock_held


async def _texts(kit: Kit) -> list[str]:
    rows = await kit.services.db.fetchall("SELECT text FROM messages ORDER BY id")
    return [r[0] for r in rows]


async def _integrity(kit: Kit) -> str:
    return str(await kit.services.db.scalar("PRAGMA integrity_check"))


async def _writer_pragma(kit: Kit, pragma: str) -> None:
    async with kit.services.db.transaction() as tx:  # runs on the writer connection
        await tx.execute(f"PRAGMA {pragma}")


async def test_a_lock_held_by_another_process_is_a_clear_error_and_loses_nothing(
    kit: Kit,
) -> None:
    await kit.send("first")
    await _writer_pragma(kit, "busy_timeout = 300")  # fail in 0.3 s, not the default 5 s
    async with write_lock_held(kit.services.db.path):
        with pytest.raises(StorageError, match="another program holds the database"):
            await kit.send("second")
        assert await kit.search("first")  # reading goes on while the lock is held
    third = await kit.send("third")
    assert not third.failed
    assert await _texts(kit) == ["first", "ok", "third", "ok"]
    assert await _integrity(kit) == "ok"


async def test_a_full_database_is_a_clear_error_nothing_half_written_and_recovers(
    kit: Kit,
) -> None:
    """Simulated with max_page_count: SQLite answers exactly as on a full disk."""
    await kit.send("before")
    pages = int(await kit.services.db.scalar("PRAGMA page_count"))
    await _writer_pragma(kit, f"max_page_count = {pages + 8}")
    acknowledged: list[str] = []
    with pytest.raises(StorageError, match="the disk is full; free some space"):
        for i in range(100):
            await kit.send(f"message {i} " + "y" * 8000)
            acknowledged.append(f"message {i} ")
    batch = [NewMessage("user", "z" * 2000, datetime(2026, 1, 1, tzinfo=UTC))] * 50
    count = await kit.services.messages.count("owner")
    with pytest.raises(StorageError, match="disk is full"):
        await kit.import_messages(batch)  # all or nothing: none of the 50 lands
    assert await kit.services.messages.count("owner") == count
    assert await _integrity(kit) == "ok"
    await _writer_pragma(kit, "max_page_count = 1073741823")  # space returns
    assert not (await kit.send("after")).failed
    texts = await _texts(kit)
    for prefix in acknowledged:
        assert any(t.startswith(prefix) for t in texts)
    assert texts[-2:] == ["after", "ok"]
    assert await _integrity(kit) == "ok"


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A real 3 MB file system (tmpfs). Needs root; skipped elsewhere (the test above covers
    the full-disk path with SQLite's own limit)."""
    mount = tmp_path / "disk"
    mount.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=3m,mode=0700", "tmpfs", str(mount)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here: {done.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def _fill(path: Path) -> None:
    """Write zeros until the file system says ENOSPC."""
    with path.open("wb", buffering=0) as handle:  # unbuffered: close() has nothing to flush
        try:
            while True:
                handle.write(b"\0" * 65536)
        except OSError as exc:
            assert exc.errno == errno.ENOSPC


async def test_a_really_full_disk_is_a_clear_error_and_kit_recovers_when_space_returns(
    small_disk: Path, settings: Settings, clock: FakeClock
) -> None:
    on_disk = dataclasses.replace(settings, data_dir=small_disk / "data")
    async with Kit.open(
        settings=on_disk, llm=FakeLLM(), embedder=HashingEmbedder(), clock=clock, background=False
    ) as kit:
        await kit.send("before the disk filled up")
        ballast = small_disk / "ballast"
        await asyncio.to_thread(_fill, ballast)
        failures = 0
        for i in range(5):
            clock.advance(timedelta(seconds=1))
            try:
                await kit.send(f"while full {i} " + "w" * 4000)
            except StorageError as exc:
                assert "disk is full" in str(exc)
                failures += 1
        assert failures > 0
        with pytest.raises(StorageError, match="disk is full"):
            await asyncio.to_thread(backup_database, kit.services.db.path, small_disk / "b.db")
        assert not (small_disk / "b.db.partial").exists() and not (small_disk / "b.db").exists()
        assert await kit.search("disk filled")  # reads still work
        ballast.unlink()  # space returns
        result = await kit.send("after the disk was freed")
        assert not result.failed
        texts = await _texts(kit)
        assert texts[0] == "before the disk filled up" and texts[-2] == "after the disk was freed"
        assert await _integrity(kit) == "ok"
    async with Kit.open(
        settings=on_disk, llm=FakeLLM(), embedder=HashingEmbedder(), clock=clock, background=False
    ) as reopened:
        assert "after the disk was freed" in await _texts(reopened)


async def test_a_damaged_database_file_says_restore_from_backup(
    settings: Settings, clock: FakeClock
) -> None:
    settings.data_dir.mkdir(parents=True)
    settings.database_path.write_bytes(b"this is not a database " * 200)
    with pytest.raises(StorageError, match=r"not a SQLite database.*restore your latest backup"):
        async with Kit.open(
            settings=settings, llm=FakeLLM(), embedder=HashingEmbedder(), clock=clock
        ):
            pass


async def test_a_data_dir_that_cannot_be_created_says_which_and_what_to_do(
    settings: Settings, clock: FakeClock, tmp_path: Path
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    broken = dataclasses.replace(settings, data_dir=blocker / "data")
    with pytest.raises(StorageError, match=r"cannot create the data directory.*--data-dir"):
        async with Kit.open(
            settings=broken, llm=FakeLLM(), embedder=HashingEmbedder(), clock=clock
        ):
            pass


async def _closed_database(settings: Settings, clock: FakeClock, messages: int = 0) -> Path:
    async with Kit.open(
        settings=settings, llm=FakeLLM(), embedder=HashingEmbedder(), clock=clock, background=False
    ) as kit:
        await kit.import_messages(
            NewMessage("user", f"message {i} " + "t" * 400, clock.now()) for i in range(messages)
        )
    return settings.database_path


async def test_a_zero_length_database_is_refused_with_the_fix_not_taken_as_empty(
    settings: Settings, clock: FakeClock
) -> None:
    path = await _closed_database(settings, clock)
    path.write_bytes(b"")  # e.g. a copy that failed, or a disk that filled up during cp
    with pytest.raises(StorageError, match=r"empty \(0 bytes\).*backup.*mv ") as caught:
        async with Kit.open(
            settings=settings, llm=FakeLLM(), embedder=HashingEmbedder(), clock=clock
        ):
            pass
    assert str(path) in str(caught.value)
    assert path.stat().st_size == 0  # left for the owner to restore or move away


async def test_a_database_cut_short_is_refused_at_open(
    settings: Settings, clock: FakeClock
) -> None:
    path = await _closed_database(settings, clock, messages=300)
    size = path.stat().st_size
    with path.open("r+b") as handle:
        handle.truncate(size // 2)
    with pytest.raises(StorageError, match=r"cut short \([\d,]+ of [\d,]+ bytes\).*backup"):
        async with Kit.open(
            settings=settings, llm=FakeLLM(), embedder=HashingEmbedder(), clock=clock
        ):
            pass


async def _damage_messages(settings: Settings, clock: FakeClock) -> None:
    """Zero the root page of the messages table: the header and schema stay readable."""
    path = await _closed_database(settings, clock, messages=300)
    with sqlite3.connect(path) as conn:
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
        root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'messages'").fetchone()
    conn.close()
    with path.open("r+b") as handle:
        handle.seek((root[0] - 1) * page_size)
        handle.write(b"\xa5" * page_size)


async def test_a_damaged_page_stops_the_daemon_at_start_with_the_fix(
    settings: Settings, clock: FakeClock
) -> None:
    await _damage_messages(settings, clock)
    with pytest.raises(StorageError, match=r"failed its integrity check \(Page \d+: [^\n]*backup"):
        await run_daemon(settings, llm=FakeLLM(), embedder=HashingEmbedder(), clock=clock)
    assert not (settings.data_dir / "kit.pid").exists()  # the lock was let go


async def test_kit_doctor_names_a_damaged_page(
    settings: Settings,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    await _damage_messages(settings, clock)
    monkeypatch.setenv("KIT_DATA_DIR", str(settings.data_dir))
    monkeypatch.setenv("KIT_CONFIG", str(settings.data_dir / "none.toml"))
    (settings.data_dir / "none.toml").write_text('[schedule]\ntimezone = "UTC"\n')
    assert await doctor.run(argparse.Namespace(config=None, data_dir=None, offline=True)) == 1
    out = capsys.readouterr().out
    assert "FIX   database:" in out and "failed its integrity check" in out
    # The fix is the command that keeps the damaged file and its -wal/-shm aside, never a copy
    # over kit.db (a -wal left beside it would damage the copy).
    assert "`kit restore BACKUP`" in out and "over it" not in out


# Every command that takes the data directory's lock (status and the REPLs take it when no
# daemon runs, to run Kit in-process).
LOCKING_COMMANDS = [
    ["import", "--no-embed", "{data}/../in.jsonl"],
    ["summarize"],
    ["forget", "--before", "2030-01-01", "--yes"],
    ["chat"],
    ["status"],
    ["rem"],
    ["run"],
    ["tui"],
]


@pytest.mark.parametrize("argv", LOCKING_COMMANDS, ids=lambda a: a[0])
def test_every_locking_command_on_a_full_disk_says_so_in_one_line(
    argv: list[str],
    small_disk: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = small_disk / "data"
    config = small_disk.parent / "config.toml"
    config.write_text('[schedule]\ntimezone = "UTC"\n')
    monkeypatch.setenv("KIT_CONFIG", str(config))
    monkeypatch.setenv("KIT_DATA_DIR", str(data))
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test-not-used")
    monkeypatch.setattr("sys.stdin", io.StringIO("hello\n"))
    rows = [{"role": "user", "text": f"note {i}", "at": "2026-01-01T10:00:00Z"} for i in range(9)]
    (small_disk / "in.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert cli.main(["import", "--no-embed", str(small_disk / "in.jsonl")]) == 0
    _fill(small_disk / "ballast")
    capsys.readouterr()
    assert cli.main([a.format(data=data) for a in argv]) in (1, 2)
    err = capsys.readouterr().err
    assert err.startswith("kit: ") and err.count("\n") == 1, err
    assert "the disk is full; free some space" in err and "Traceback" not in err
