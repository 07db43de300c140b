"""`kit restore FILE`: a backup (or an export) put in place of kit.db, the old files kept aside.

The finding behind it: copying a backup over kit.db after a crash leaves the crashed
database's kit.db-wal beside it; SQLite replays it onto the copy, which then fails its
integrity check and Kit refuses to start."""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import json
import os
import signal
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from kit.api import Kit
from kit.cli import main
from kit.clock import FakeClock
from kit.config import Settings, StorageSettings
from kit.daemon.lock import DataDirLock, SqliteFileLock
from kit.daemon.socket_client import DaemonUnavailable, SocketClient
from kit.embed.hashing import HashingEmbedder
from kit.errors import StorageError
from kit.llm.fake import FakeLLM
from kit.memory.messages import NewMessage
from kit.portability.backup import backup_database
from tests.servers.anthropic_api import FakeAnthropicServer
from tests.support.daemon_process import DaemonProcess, write_config
from tests.support.shared_model import require_model


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _files(folder: Path) -> dict[str, str]:
    """Every file of a data directory with its content hash (logs and locks aside)."""
    return {
        p.name: _digest(p)
        for p in sorted(folder.iterdir())
        if p.is_file() and not p.name.endswith((".lock", ".pid"))
    }


def _count(path: Path, table: str = "messages") -> int:
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])
    finally:
        conn.close()


def _cli(
    settings: Settings, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    *args: str,
) -> tuple[int, str, str]:  # fmt: skip
    config = settings.data_dir.parent / "config.toml"
    url = f'[storage]\nurl = "{settings.storage.url}"\n' if settings.storage.url else ""
    config.write_text('[schedule]\ntimezone = "UTC"\n' + url)
    monkeypatch.setenv("KIT_CONFIG", str(config))
    monkeypatch.setenv("KIT_DATA_DIR", str(settings.data_dir))
    capsys.readouterr()
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


async def _memory(settings: Settings, clock: FakeClock, messages: int) -> Path:
    """A closed Kit database holding `messages` imported messages."""
    async with Kit.open(
        settings=settings, llm=FakeLLM(), embedder=HashingEmbedder(), clock=clock, background=False
    ) as kit:
        await kit.import_messages(
            NewMessage("user", f"line {i} about the allotment", clock.now())
            for i in range(messages)
        )
    return settings.database_path


@pytest.fixture
def two(settings: Settings, clock: FakeClock, tmp_path: Path) -> tuple[Path, Path]:
    """The live database (30 messages) and a `kit backup` of another memory (12 messages).
    (The tests using it run the CLI, which runs its own event loop: they are not async.)"""
    other = dataclasses.replace(settings, data_dir=tmp_path / "other")
    backup = tmp_path / "backup.db"
    backup_database(asyncio.run(_memory(other, clock, 12)), backup)
    return asyncio.run(_memory(settings, clock, 30)), backup


async def _opens_and_finds(settings: Settings, clock: FakeClock, word: str) -> None:
    async with Kit.open(
        settings=settings, llm=FakeLLM(), embedder=HashingEmbedder(), clock=clock, background=False
    ) as kit:
        await kit.services.db.check_pages()
        assert len(await kit.search(word, kinds=("message",))) > 0


# -- the crash the finding describes, end to end --------------------------------------------


@pytest.fixture
def anthropic() -> Iterator[FakeAnthropicServer]:
    with FakeAnthropicServer() as server:
        yield server


@pytest.fixture
def daemon(tmp_path: Path, anthropic: FakeAnthropicServer) -> Iterator[DaemonProcess]:
    process = DaemonProcess(tmp_path, write_config(tmp_path / "config.toml", anthropic))
    yield process
    process.close()


def _kit(process: DaemonProcess, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        process.kit(*args), env=process.env, capture_output=True, text=True, timeout=300
    )


@pytest.mark.integration
async def test_after_a_crash_mid_write_kit_restore_leaves_a_kit_that_starts_and_passes_doctor(
    daemon: DaemonProcess, tmp_path: Path
) -> None:
    require_model()  # doctor checks the embedding model too
    daemon.start()
    client = SocketClient(daemon.socket)
    for i in range(5):
        await client.send(f"before the backup {i}", conversation="c")
    backup = tmp_path / "backup.db"
    made = _kit(daemon, "backup", str(backup))
    assert made.returncode == 0, made.stderr
    in_backup = _count(backup)

    # Writes keep coming; the daemon is killed while one is in flight.
    acked = 0
    twenty = asyncio.Event()

    async def writer() -> None:
        nonlocal acked
        with_text = "x" * 3000
        while True:
            try:
                await client.send(f"after the backup {acked} {with_text}", conversation="c")
            except DaemonUnavailable:
                return
            acked += 1
            if acked == 20:
                twenty.set()

    async with asyncio.TaskGroup() as group:
        group.create_task(writer())
        await twenty.wait()  # the writer's next message is on its way when the kill comes
        daemon.signal(signal.SIGKILL)
        await asyncio.to_thread(daemon.wait)
    database = daemon.data_dir / "kit.db"
    wal = daemon.data_dir / "kit.db-wal"
    assert wal.exists() and wal.stat().st_size > 0  # the crashed database's log is still there
    before = {name: _digest(daemon.data_dir / name) for name in ("kit.db", "kit.db-wal")}

    restored = _kit(daemon, "restore", str(backup))
    assert restored.returncode == 0, restored.stderr
    assert f"Restored {backup} into {database}" in restored.stdout
    assert "integrity check ok before and after" in restored.stdout
    aside = sorted(daemon.data_dir.glob("kit.db.before-restore-*"))
    (old,) = [p for p in aside if not p.name.endswith(("-wal", "-shm"))]
    assert {p.name for p in aside} == {old.name, old.name + "-wal", old.name + "-shm"}
    assert all(str(p) in restored.stdout for p in aside)
    # Kept byte for byte: together they still open as the crashed database, every ack in it.
    assert _digest(old) == before["kit.db"]
    assert _digest(Path(f"{old}-wal")) == before["kit.db-wal"]
    assert _count(old) >= in_backup + 2 * acked
    assert not wal.exists()  # nothing of the old log is left beside the restored file

    daemon.start()  # runs SQLite's page check first; a damaged file would stop it
    status = await SocketClient(daemon.socket).status()
    assert status is not None
    assert daemon.stop() == 0
    assert _count(database) == in_backup
    doctor = _kit(daemon, "doctor", "--offline")
    assert doctor.returncode == 0, doctor.stdout + doctor.stderr
    assert "FIX" not in doctor.stdout


# -- what it refuses, touching nothing ------------------------------------------------------


def test_a_missing_file_a_directory_and_a_fifo_are_refused_without_touching_anything(
    two: tuple[Path, Path],
    settings: Settings,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    before = _files(settings.data_dir)
    fifo = tmp_path / "pipe.db"
    os.mkfifo(fifo)  # opening it to read would block until a writer came: never opened
    for target, says in [
        (tmp_path / "nope.db", "no such file"),
        (tmp_path, "is a directory"),
        (fifo, "not a regular file"),
    ]:
        code, out, err = _cli(settings, monkeypatch, capsys, "restore", str(target))
        assert code == 2 and says in err and err.count("\n") == 1, err
        assert out == ""
    assert _files(settings.data_dir) == before


def test_a_file_that_is_not_a_database_or_is_damaged_or_newer_is_refused(
    two: tuple[Path, Path],
    settings: Settings,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    database, backup = two
    before = _files(settings.data_dir)
    text = tmp_path / "notes.txt"
    text.write_text("this is not a database\n" * 100)
    damaged = tmp_path / "damaged.db"
    damaged.write_bytes(backup.read_bytes())
    conn = sqlite3.connect(damaged)
    page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'messages'").fetchone()[0]
    conn.close()
    with damaged.open("r+b") as handle:  # the messages table's root page, zeroed
        handle.seek((root - 1) * page_size)
        handle.write(b"\x00" * page_size)
    newer = tmp_path / "newer.db"
    newer.write_bytes(backup.read_bytes())
    conn = sqlite3.connect(newer)
    conn.execute(
        "INSERT INTO schema_migrations (name, applied_at) VALUES ('m999_from_the_future', '')"
    )
    conn.commit()
    conn.close()
    plain = tmp_path / "plain.db"
    conn = sqlite3.connect(plain)
    conn.execute("CREATE TABLE t (x)")
    conn.commit()
    conn.close()
    for target, says in [
        (text, "not a SQLite database, so not a backup made by `kit backup`"),
        (damaged, "fails SQLite's integrity check"),
        (newer, "made by a newer Kit (its schema has"),
        (plain, "not Kit's"),
    ]:
        code, _, err = _cli(settings, monkeypatch, capsys, "restore", str(target))
        assert code == 2 and says in err and err.count("\n") == 1, (target, err)
    assert _files(settings.data_dir) == before  # no staged copy left, nothing moved
    assert _count(database) == 30


def test_kit_restore_refuses_while_kit_runs_naming_the_pid(
    two: tuple[Path, Path],
    settings: Settings,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, backup = two
    before = _files(settings.data_dir)
    lock = DataDirLock(settings.data_dir)
    lock.acquire("daemon")
    try:
        code, _, err = _cli(settings, monkeypatch, capsys, "restore", str(backup))
    finally:
        lock.release()
    assert code == 2 and f"a Kit daemon (pid {os.getpid()})" in err and "stop it first" in err
    # Another data directory's Kit on the same SQLite file (storage.url) is found too.
    file_lock = SqliteFileLock(settings.database_path, tmp_path / "elsewhere")
    file_lock.acquire("standalone")
    try:
        code, _, err = _cli(settings, monkeypatch, capsys, "restore", str(backup))
    finally:
        file_lock.release()
    assert code == 2 and f"(pid {os.getpid()})" in err
    assert _files(settings.data_dir) == before


def test_a_backup_replaces_the_memory_and_the_old_one_is_kept_whole(
    two: tuple[Path, Path],
    settings: Settings,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    database, backup = two
    old = _digest(database)
    code, out, _ = _cli(settings, monkeypatch, capsys, "restore", str(backup))
    assert code == 0
    assert f"{_count(backup)} messages" in out
    (aside,) = settings.data_dir.glob("kit.db.before-restore-*")
    assert _digest(aside) == old and _count(aside) == 30
    assert _count(database) == _count(backup)
    assert database.stat().st_mode & 0o777 == 0o600
    asyncio.run(_opens_and_finds(settings, clock, "allotment"))
    # Twice in one second: the second restore keeps the first one's files under another name.
    code, _, _ = _cli(settings, monkeypatch, capsys, "restore", str(backup))
    assert code == 0
    assert len([p for p in settings.data_dir.glob("kit.db.before-restore-*")]) == 2


def test_an_export_is_restored_the_same_way_into_a_fresh_database(
    two: tuple[Path, Path],
    settings: Settings,
    clock: FakeClock,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    database, _ = two
    export = tmp_path / "kit.json"
    code, _, err = _cli(settings, monkeypatch, capsys, "export", "-o", str(export))
    assert code == 0, err
    document = json.loads(export.read_text())
    document["messages"] = document["messages"][:10]  # a smaller, older memory
    export.write_text(json.dumps(document))
    code, out, err = _cli(settings, monkeypatch, capsys, "restore", str(export))
    assert code == 0, err
    assert "the memory of 'owner'" in out and "10 messages" in out
    (aside,) = settings.data_dir.glob("kit.db.before-restore-*")
    assert _count(aside) == 30 and _count(database) == 10
    assert not Path(f"{database}-wal").exists()


def test_on_postgresql_a_backup_file_gets_what_to_do_instead(
    settings: Settings,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    backup = tmp_path / "b.db"
    backup.write_bytes(b"SQLite format 3\x00")
    on_pg = dataclasses.replace(
        settings, storage=StorageSettings(url="postgresql://kit@127.0.0.1:1/kit")
    )
    code, _, err = _cli(on_pg, monkeypatch, capsys, "restore", str(backup))
    assert code == 2 and "pg_restore" in err and "kit storage copy" in err
    assert "postgresql://kit@127.0.0.1:1/kit" in err


def test_a_restore_that_does_not_check_out_in_place_puts_the_old_files_back(
    two: tuple[Path, Path], settings: Settings, clock: FakeClock
) -> None:
    from kit.portability import restore_file  # (imported here: the module is new)

    database, backup = two
    wal = Path(f"{database}-wal")
    wal.write_bytes(b"")  # a leftover log goes aside and comes back too
    before = _files(settings.data_dir)
    staged = restore_file.stage_copy(backup, database)
    checked = restore_file.check(staged, str(backup))
    claimed = dataclasses.replace(checked, messages=checked.messages + 1)  # in place: not so
    with pytest.raises(StorageError, match=r"did not check out in place.*back as it was"):
        restore_file.install(staged, database, claimed, clock.now())
    after = _files(settings.data_dir)
    (failed,) = [name for name in after if ".failed-restore-" in name]
    del after[failed]
    assert after == before


async def test_a_new_database_is_never_made_beside_a_stray_write_ahead_log(
    settings: Settings, clock: FakeClock
) -> None:
    database = await _memory(settings, clock, 3)
    stray = b"\x37\x7f\x06\x82" + b"\x00" * 28  # a WAL header, as a crashed Kit leaves it
    await asyncio.to_thread(Path(f"{database}-wal").write_bytes, stray)
    await asyncio.to_thread(database.unlink)
    with pytest.raises(StorageError, match=r"write-ahead log kit\.db-wal is still there"):
        async with Kit.open(
            settings=settings, llm=FakeLLM(), embedder=HashingEmbedder(), clock=clock
        ):
            pass
    assert not database.exists()


def test_a_backup_restores_into_a_data_directory_that_holds_no_database_yet(
    two: tuple[Path, Path],
    settings: Settings,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A new machine: nothing to move aside, and the restored file is the only one there."""
    _, backup = two
    fresh = dataclasses.replace(settings, data_dir=tmp_path / "new-machine")
    code, out, err = _cli(fresh, monkeypatch, capsys, "restore", str(backup))
    assert code == 0, err
    assert "previous database" not in out
    assert _count(fresh.database_path) == _count(backup)
    assert fresh.data_dir.stat().st_mode & 0o777 == 0o700
    assert sorted(p.name for p in fresh.data_dir.iterdir()) == ["kit.db"]
