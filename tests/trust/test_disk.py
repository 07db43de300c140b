"""Disk trouble: a lock held elsewhere, a full disk, a damaged or unwritable file. Each gives a
clear StorageError, nothing acknowledged is lost, nothing is half-written, and Kit recovers."""

from __future__ import annotations

import asyncio
import dataclasses
import errno
import subprocess
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.config import Settings
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
    with pytest.raises(StorageError, match="restore it from a backup"):
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
