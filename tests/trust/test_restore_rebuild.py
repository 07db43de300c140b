"""Issue 30: a restore rebuilds, it does not adopt. A backup given one extra trigger, a shadow
table, a view in place of `facts` or a dropped column used to restore "ok" and then rewrite the
owner's facts, deactivate them, stop every message write, keep what `kit forget` erased, or
break every facts command. Each attack file is a test here: its rows come back, nothing else
of it does (named in the report), and a file whose tables are not Kit's is refused in one
line with nothing changed. `kit doctor` says FIX on a live schema that is not Kit's."""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from kit.api import Kit
from kit.cli import main
from kit.clock import FakeClock
from kit.config import Settings
from kit.embed.hashing import HashingEmbedder
from kit.forget.scope import ForgetScope
from kit.llm.fake import FakeLLM
from kit.memory.messages import NewMessage
from kit.portability.backup import backup_database

MALLORY = "Sam authorises Mallory to manage all accounts"


def _run(
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    *args: str,
) -> tuple[int, str, str]:
    config = settings.data_dir.parent / "config.toml"
    config.write_text('[schedule]\ntimezone = "UTC"\n')
    monkeypatch.setenv("KIT_CONFIG", str(config))
    monkeypatch.setenv("KIT_DATA_DIR", str(settings.data_dir))
    capsys.readouterr()
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def _open(settings: Settings, clock: FakeClock) -> Kit:
    return Kit.open(  # type: ignore[return-value]
        settings=settings, llm=FakeLLM(), embedder=HashingEmbedder(), clock=clock, background=False
    )


async def _memory(settings: Settings, clock: FakeClock) -> Path:
    """A closed memory with messages and facts, as a `kit backup` file."""
    async with _open(settings, clock) as kit:
        await kit.import_messages(
            [
                NewMessage("user", "Ana likes tulips and jazz on Sundays.", clock.now()),
                NewMessage("user", "The boiler needs a service in March.", clock.now()),
            ]
        )
        await kit.add_fact("The owner plays the cello on Tuesdays.", category="preferences")
        await kit.add_fact("The owner's sister Ana lives in Lisbon.", category="people")
    backup = settings.data_dir.parent / "backup.db"
    backup_database(settings.database_path, backup)
    return backup


def _tamper(backup: Path, *statements: str) -> None:
    conn = sqlite3.connect(backup)
    try:
        for statement in statements:
            conn.execute(statement)
        conn.commit()
    finally:
        conn.close()


@pytest.fixture
def restored_from(
    settings: Settings,
    clock: FakeClock,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> Callable[..., tuple[Settings, int, str, str]]:
    """`restored_from(*statements)`: a backup changed by `statements`, restored with
    `kit restore` into a second data directory; its settings and what the command said."""

    def restore(*statements: str) -> tuple[Settings, int, str, str]:
        backup = asyncio.run(_memory(settings, clock))
        _tamper(backup, *statements)
        target = dataclasses.replace(settings, data_dir=tmp_path / "restored")
        code, out, err = _run(target, monkeypatch, capsys, "restore", str(backup))
        return target, code, out, err

    return restore


def test_an_extra_trigger_that_rewrites_added_facts_is_left_behind(
    restored_from: Callable[..., tuple[Settings, int, str, str]], clock: FakeClock
) -> None:
    target, code, out, err = restored_from(
        "CREATE TRIGGER kit_audit AFTER INSERT ON facts BEGIN UPDATE facts SET content ="
        f" '{MALLORY}' WHERE id = new.id; END"
    )
    assert code == 0, err

    async def add() -> list[str]:
        async with _open(target, clock) as kit:
            await kit.add_fact("The owner's dentist is Dr Okafor.", category="people")
            return [f.content for f in await kit.facts()]

    facts = asyncio.run(add())
    assert "The owner's dentist is Dr Okafor." in facts and MALLORY not in facts
    assert "The owner plays the cello on Tuesdays." in facts  # the backup's rows came back
    left = "Left behind (not Kit's, so not restored): trigger kit_audit (Kit does not make it)"
    assert left in out


def test_a_trigger_that_deactivates_every_fact_on_the_next_message_is_left_behind(
    restored_from: Callable[..., tuple[Settings, int, str, str]], clock: FakeClock
) -> None:
    target, code, out, err = restored_from(
        "CREATE TRIGGER sweep AFTER INSERT ON messages BEGIN UPDATE facts SET active = 0; END"
    )
    assert code == 0, err

    async def talk() -> int:
        async with _open(target, clock) as kit:
            await kit.import_messages([NewMessage("user", "Hello again, Kit.", clock.now())])
            return len(await kit.facts())

    assert asyncio.run(talk()) == 2
    assert "trigger sweep (Kit does not make it)" in out


def test_a_trigger_that_makes_every_message_write_fail_is_left_behind(
    restored_from: Callable[..., tuple[Settings, int, str, str]], clock: FakeClock
) -> None:
    target, code, out, err = restored_from(
        "CREATE TRIGGER jam BEFORE INSERT ON messages BEGIN SELECT RAISE(ABORT, 'jammed'); END"
    )
    assert code == 0, err

    async def talk() -> int:
        async with _open(target, clock) as kit:
            return await kit.import_messages([NewMessage("user", "Still here?", clock.now())])

    assert asyncio.run(talk()) == 1
    assert "trigger jam (Kit does not make it)" in out


def test_a_shadow_table_that_keeps_what_forget_erases_is_left_behind(
    restored_from: Callable[..., tuple[Settings, int, str, str]], clock: FakeClock
) -> None:
    target, code, out, err = restored_from(
        "CREATE TABLE audit_log (text TEXT)",
        "INSERT INTO audit_log SELECT text FROM messages",
        "CREATE TRIGGER keep BEFORE DELETE ON messages BEGIN"
        " INSERT INTO audit_log VALUES (old.text); END",
    )
    assert code == 0, err

    async def forget() -> bool:
        async with _open(target, clock) as kit:
            report = await kit.forget(ForgetScope.named("Ana"))
            assert report.receipt is not None and report.messages_removed == 1
            return (await kit.verify_forget(report.receipt.id)).ok

    assert asyncio.run(forget())
    assert b"tulips" not in target.database_path.read_bytes()
    conn = sqlite3.connect(target.database_path)
    try:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    finally:
        conn.close()
    assert "audit_log" not in tables and "keep" not in tables
    assert "table audit_log (Kit does not make it)" in out and "trigger keep" in out


@pytest.mark.parametrize(
    ("statements", "says"),
    [
        (
            (
                "ALTER TABLE facts RENAME TO facts_kept",
                "CREATE VIEW facts AS SELECT * FROM facts_kept",
            ),
            "its facts is a view where Kit has a table",
        ),
        (
            ("ALTER TABLE facts DROP COLUMN last_accessed_at",),
            "its table facts has the columns (",
        ),
        (
            ("UPDATE facts SET content = x'00ff00ff' WHERE id = 1",),
            "1 row(s) of facts hold a blob in content, where Kit keeps text",
        ),
        (
            ("UPDATE messages SET text = CAST(x'416e61ff' AS TEXT) WHERE id = 1",),
            "a row of messages holds text in text that is not UTF-8",
        ),
    ],
    ids=["view-in-place-of-facts", "dropped-column", "blob-for-text", "not-utf8"],
)
def test_a_file_whose_tables_are_not_kits_is_refused_in_one_line(
    restored_from: Callable[..., tuple[Settings, int, str, str]],
    statements: tuple[str, ...],
    says: str,
) -> None:
    target, code, out, err = restored_from(*statements)
    assert code == 2 and says in err and err.count("\n") == 1, err
    assert "it cannot be restored" in err and out == ""
    # nothing was put in place, and nothing is left over beside where it would have gone
    assert not target.database_path.exists()
    assert [p.name for p in target.data_dir.iterdir()] == []


def test_a_trigger_of_kits_name_with_another_body_is_left_behind_for_kits_own(
    restored_from: Callable[..., tuple[Settings, int, str, str]], clock: FakeClock
) -> None:
    target, code, out, err = restored_from(
        "DROP TRIGGER facts_fts_ai",
        "CREATE TRIGGER facts_fts_ai AFTER INSERT ON facts BEGIN"
        f" UPDATE facts SET content = '{MALLORY}' WHERE id = new.id; END",
    )
    assert code == 0, err

    async def add() -> list[str]:
        async with _open(target, clock) as kit:
            await kit.add_fact("The owner's dentist is Dr Okafor.", category="people")
            return [h.text for h in await kit.search("dentist Okafor", kinds=("fact",))]

    found = asyncio.run(add())
    assert found == ["The owner's dentist is Dr Okafor."]  # Kit's own trigger indexed it
    assert "trigger facts_fts_ai (Kit makes it differently)" in out


def test_a_backup_of_an_older_schema_is_rebuilt_at_its_version_then_migrated(
    settings: Settings,
    clock: FakeClock,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A backup from an older Kit (a database migrated one migration short) compares with a
    fresh database of its own version, not this one's, and comes back migrated."""
    from kit.store.migrate import migrate
    from kit.store.migrations import MIGRATIONS
    from kit.store.sqlite import SqliteDatabase

    old = tmp_path / "old" / "kit.db"

    async def make() -> None:
        async with SqliteDatabase.open(old) as db:
            await migrate(db, clock, MIGRATIONS[:-1])
            async with db.transaction() as tx:
                conv = await tx.insert(
                    "INSERT INTO conversations (user_id, channel, external_id, created_at,"
                    " last_message_at) VALUES ('owner', 'import', 'old', ?, ?)",
                    ("2026-01-01T10:00:00.000000+00:00",) * 2,
                )
                await tx.execute(
                    "INSERT INTO messages (user_id, conversation_id, role, speaker, text, at,"
                    " day, source, content_hash) VALUES ('owner', ?, 'user', '',"
                    " 'An old message about the allotment.', ?, '2026-01-01', 'import', 'x')",
                    (conv, "2026-01-01T10:00:00.000000+00:00"),
                )

    asyncio.run(make())
    backup = tmp_path / "old.db"
    backup_database(old, backup)
    target = dataclasses.replace(settings, data_dir=tmp_path / "restored")
    code, out, err = _run(target, monkeypatch, capsys, "restore", str(backup))
    assert code == 0, err
    assert f"{len(MIGRATIONS) - 1} of {len(MIGRATIONS)} migrations, brought up to date" in out
    assert "1 messages" in out or "1 message" in out
    assert "Left behind" not in out
    code, out, _ = _run(target, monkeypatch, capsys, "doctor", "--offline")
    assert "ok    schema:" in out, out


def test_the_backup_file_itself_is_only_read(
    settings: Settings,
    clock: FakeClock,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    backup = asyncio.run(_memory(settings, clock))
    _tamper(backup, "CREATE TRIGGER t AFTER INSERT ON facts BEGIN SELECT 1; END")
    before = hashlib.sha256(backup.read_bytes()).hexdigest()
    target = dataclasses.replace(settings, data_dir=tmp_path / "restored")
    code, _, err = _run(target, monkeypatch, capsys, "restore", str(backup))
    assert code == 0, err
    assert hashlib.sha256(backup.read_bytes()).hexdigest() == before
    assert sorted(p.name for p in backup.parent.iterdir() if p.name.startswith("backup")) == [
        "backup.db"
    ]
