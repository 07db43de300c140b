"""Schema migrations: a blank file reaches the full schema, once, with bookkeeping."""

from __future__ import annotations

import threading
from datetime import timedelta
from pathlib import Path

import pytest

from kit.clock import FakeClock, to_iso
from kit.errors import StorageError
from kit.store.migrate import migrate
from kit.store.migrations import MIGRATIONS, Migration
from kit.store.sqlite import READERS, SqliteDatabase
from tests.support.schema import sqlite_before

# The columns the memory modules rely on. Later migrations may add more, never remove these.
EXPECTED_COLUMNS = {
    "conversations": {
        "id", "user_id", "channel", "external_id", "created_at", "last_message_at",
        "window_summary", "window_start_id",
    },
    "messages": {
        "id", "user_id", "conversation_id", "role", "speaker", "text", "at", "day", "ref",
        "source", "content_hash", "forwarded_from", "spoken",
    },
    "facts": {
        "id", "user_id", "category", "subject", "content", "confidence", "expires_at", "active",
        "pinned", "created_at", "updated_at", "access_count", "last_accessed_at", "replaced_by",
        "content_hash", "owner_written",
    },
    "fact_history": {
        "id", "fact_id", "user_id", "at", "actor", "operation", "pass_id", "reason",
        "before_json", "after_json", "source_message_ids", "sources_are_batch",
    },
    "passes": {
        "id", "user_id", "kind", "category", "started_at", "finished_at", "status", "reason",
        "detail_json",
    },
    "days": {
        "id", "user_id", "day", "detailed", "condensed", "message_count", "created_at",
        "updated_at", "condensed_at", "content_hash",
    },
    "embeddings": {"kind", "item_id", "user_id", "model_id", "content_hash", "vector"},
    "llm_usage": {
        "id", "at", "user_id", "model", "purpose", "input_tokens", "output_tokens",
        "cache_read_tokens", "cache_write_tokens",
    },
    "schema_migrations": {"name", "applied_at"},
    "notes": {
        "id", "user_id", "name", "description", "revision_id", "lines", "bytes", "created_at",
        "updated_at",
    },
    "note_history": {
        "id", "user_id", "name", "at", "actor", "operation", "source", "body", "description",
        "content_hash", "bytes", "lines", "withheld",
    },
    "note_chunks": {
        "id", "note_id", "user_id", "name", "start_line", "end_line", "heading", "text",
        "content_hash",
    },
    "forget_receipts": {
        "user_id", "receipt_id", "at", "scope", "counts_json", "erased", "document",
    },
    "access_tokens": {
        "id", "user_id", "name", "public_id", "token_hash", "read_only", "created_at",
        "expires_at", "revoked_at", "last_used_at",
    },
    "token_uses": {
        "id", "user_id", "token_id", "token_name", "at", "call", "peer", "outcome",
    },
}  # fmt: skip

EXPECTED_INDEXES = {
    "messages_conversation": ("messages", ["conversation_id", "id"]),
    "messages_user_day": ("messages", ["user_id", "day"]),
    "messages_user_speaker": ("messages", ["user_id", "speaker"]),
    "facts_user_active": ("facts", ["user_id", "active", "category"]),
    "passes_user": ("passes", ["user_id", "id"]),
    "fact_history_fact": ("fact_history", ["fact_id", "id"]),
    "fact_history_pass": ("fact_history", ["pass_id"]),
    "embeddings_user": ("embeddings", ["user_id", "kind", "model_id"]),
    "llm_usage_at": ("llm_usage", ["at"]),
    "note_history_user": ("note_history", ["user_id", "name", "id"]),
    "note_chunks_note": ("note_chunks", ["note_id", "start_line"]),
    "forget_receipts_id": ("forget_receipts", ["receipt_id"]),
    "access_tokens_live_name": ("access_tokens", ["user_id", "name"]),
    "token_uses_user": ("token_uses", ["user_id", "id"]),
}

FTS = {"messages_fts": ("speaker", "text", "context"), "facts_fts": ("subject", "content"),
       "days_fts": ("detailed", "condensed"),
       "note_chunks_fts": ("name", "heading", "text")}  # fmt: skip


async def _columns(db: SqliteDatabase, table: str) -> list[str]:
    return [row[1] for row in await db.fetchall(f"PRAGMA table_info({table})")]


async def test_blank_database_migrates_to_the_expected_schema(
    tmp_path: Path, clock: FakeClock
) -> None:
    async with SqliteDatabase.open(tmp_path / "kit.db") as db:
        applied = await migrate(db, clock)
        assert applied == [m.name for m in MIGRATIONS]
        tables = {
            row[0]
            for row in await db.fetchall("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
        for table, columns in EXPECTED_COLUMNS.items():
            assert table in tables
            assert columns <= set(await _columns(db, table)), table
        for index, (table, columns) in EXPECTED_INDEXES.items():
            row = await db.fetchone(
                "SELECT tbl_name FROM sqlite_master WHERE type = 'index' AND name = ?", (index,)
            )
            assert row is not None and row[0] == table, index
            info = await db.fetchall(f"PRAGMA index_info({index})")
            assert [r[2] for r in info] == columns
        for fts, columns in FTS.items():
            sql = await db.scalar("SELECT sql FROM sqlite_master WHERE name = ?", (fts,))
            assert sql is not None and "USING fts5" in sql and "porter" in sql
            assert await _columns(db, fts) == list(columns)
            base = fts.removesuffix("_fts")
            triggers = {
                row[0]
                for row in await db.fetchall(
                    "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ?",
                    (base,),
                )
            }
            assert {f"{fts}_ai", f"{fts}_ad", f"{fts}_au"} <= triggers


async def test_unique_keys_hold(tmp_path: Path, clock: FakeClock) -> None:
    """One conversation per (user, channel, id), one day row per (user, day)."""
    async with SqliteDatabase.open(tmp_path / "kit.db") as db:
        await migrate(db, clock)
        # PRAGMAs read the connection's cached schema; a real query refreshes it first (on
        # each reader connection: reads take turns on them).
        for _ in range(READERS):
            await db.fetchall("SELECT name FROM sqlite_master")
        for table, columns in (
            ("conversations", ["user_id", "channel", "external_id"]),
            ("days", ["user_id", "day"]),
            ("embeddings", ["kind", "item_id", "model_id"]),
            ("notes", ["user_id", "name"]),
        ):
            uniques = [
                [r[2] for r in await db.fetchall(f"PRAGMA index_info({row[1]})")]
                for row in await db.fetchall(f"PRAGMA index_list({table})")
                if row[2]  # unique
            ]
            assert columns in uniques, table


async def test_second_run_applies_nothing_and_keeps_bookkeeping(
    tmp_path: Path, clock: FakeClock
) -> None:
    path = tmp_path / "kit.db"
    async with SqliteDatabase.open(path) as db:
        await migrate(db, clock)
    first_time = to_iso(clock.now())
    clock.advance(timedelta(days=1))
    async with SqliteDatabase.open(path) as db:
        assert await migrate(db, clock) == []
        rows = await db.fetchall("SELECT name, applied_at FROM schema_migrations ORDER BY name")
    assert {r[0] for r in rows} == {m.name for m in MIGRATIONS}
    assert all(r[1] == first_time for r in rows)


def test_migration_names_are_ordered_and_unique() -> None:
    names = [m.name for m in MIGRATIONS]
    assert names[0] == "m001_core"
    assert len(set(names)) == len(names)
    numbers = [int(name[1:4]) for name in names]
    assert numbers == sorted(numbers) and all(name[4] == "_" for name in names)


async def test_failing_migration_leaves_nothing_behind(tmp_path: Path, clock: FakeClock) -> None:
    """A migration lands whole with its bookkeeping row, or not at all; later ones wait."""
    broken = (
        *MIGRATIONS,
        Migration("m900_half", ("CREATE TABLE half (id INTEGER)", "CREATE TABLE half (id)")),
        Migration("m901_after", ("CREATE TABLE after_broken (id INTEGER)",)),
    )
    async with SqliteDatabase.open(tmp_path / "kit.db") as db:
        with pytest.raises(StorageError):
            await migrate(db, clock, broken)
        names = {r[0] for r in await db.fetchall("SELECT name FROM schema_migrations")}
        tables = {r[0] for r in await db.fetchall("SELECT name FROM sqlite_master")}
    assert names == {m.name for m in MIGRATIONS}
    assert "half" not in tables and "after_broken" not in tables


async def test_damaged_file_is_a_storage_error_and_leaves_no_thread(tmp_path: Path) -> None:
    """The error says what to do, and no connection thread keeps the process from exiting."""
    path = tmp_path / "kit.db"
    path.write_bytes(b"SQLite format 3\x00" + b"not a database " * 100)  # passes the header
    before = set(threading.enumerate())
    with pytest.raises(StorageError) as err:
        async with SqliteDatabase.open(path):
            pass
    assert str(err.value).startswith(f"{path}: database error (file is not a database)")
    assert "restore a backup with `kit restore BACKUP`" in str(err.value)
    for thread in set(threading.enumerate()) - before:
        thread.join(timeout=5)
        assert not thread.is_alive(), thread.name


async def test_curation_history_from_before_cited_sources_is_flagged_as_batch_wide(
    tmp_path: Path, clock: FakeClock
) -> None:
    """m007: a curator row's ids were its whole batch; a `remember` row's were its message."""
    async with sqlite_before(tmp_path / "kit.db", clock, "m007") as db:
        async with db.transaction() as tx:
            fact = await tx.insert(
                "INSERT INTO facts (user_id, category, content, confidence, created_at, updated_at,"
                " content_hash) VALUES ('owner', 'people', 'x', 1, '2026-01-01', '2026-01-01', 'h')"
            )
            for actor, ids in (("curator", "[1, 2, 3]"), ("remember", "[4]"), ("rem", "[]")):
                await tx.execute(
                    "INSERT INTO fact_history (fact_id, user_id, at, actor, operation,"
                    " source_message_ids) VALUES (?, 'owner', '2026-01-01', ?, 'update', ?)",
                    (fact, actor, ids),
                )
        await migrate(db, clock)
        rows = await db.fetchall("SELECT actor, sources_are_batch FROM fact_history ORDER BY id")
    assert [tuple(r) for r in rows] == [("curator", 1), ("remember", 0), ("rem", 0)]


async def test_a_store_before_a_migration_no_list_has_is_refused(
    tmp_path: Path, clock: FakeClock
) -> None:
    """A mistyped "before m0NN" in a test fails it, instead of migrating nothing at all."""
    with pytest.raises(ValueError, match="no sqlite migration is named 'm999'"):
        async with sqlite_before(tmp_path / "kit.db", clock, "m999"):
            pass
