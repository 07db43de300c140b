"""`kit storage copy --to URL`: a whole memory moves from SQLite to PostgreSQL and back, every
table verified, ids kept; a non-empty target is refused, a failure midway leaves the target
empty, and a wrong URL or password is one line that never shows the password."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from kit.api import Kit
from kit.cli import main
from kit.clock import FakeClock, to_iso
from kit.config import Settings, StorageSettings
from kit.embed.hashing import HashingEmbedder
from kit.errors import InputError, StorageError
from kit.llm.fake import FakeLLM
from kit.portability.copy import copy_memory
from kit.portability.export import export_document, to_json
from kit.portability.tables import table_hash, tables
from kit.store.db import Database
from kit.store.engines import open_database
from kit.store.migrate import migrate
from tests.support import postgres
from tests.support.small_memory import seed


@pytest.fixture
def pg_url(postgres_server: postgres.TestServer) -> Iterator[str]:
    """A database with nothing in it, not even Kit's schema (the copy migrates it)."""
    url = postgres.fresh_database(postgres_server, empty=True)
    yield url
    postgres.drop_database(postgres_server, url)


@asynccontextmanager
async def _store(url: str, tmp_path: Path, clock: FakeClock) -> AsyncIterator[Database]:
    settings = Settings(data_dir=tmp_path / "other", storage=StorageSettings(url=url))
    async with open_database(settings) as db:
        await migrate(db, clock)
        yield db


async def _populate(kit: Kit, clock: FakeClock) -> None:
    """Facts with history and a pass, days, messages, a window (seed), plus notes, a reminder
    with a delivery, model usage from a turn."""
    await seed(kit, clock)
    await kit.add_note("# Jam\nquince, sugar", name="jam", source="file jam.md")
    await kit.add_note("# Jam\nquince, less sugar", name="jam", replace=True)
    await kit.send("What do you remember about Ana?", channel="telegram", conversation="42")
    now = to_iso(clock.now())
    async with kit.services.db.transaction() as tx:
        reminder = await tx.insert(
            "INSERT INTO reminders (user_id, channel, conversation, kind, text, repeat,"
            " local_time, status, next_fire, created_at)"
            " VALUES ('owner', 'telegram', '42', 'reminder', 'Call Ana', 'daily', '09:00',"
            " 'active', ?, ?)",
            (to_iso(clock.now() + timedelta(days=1)), now),
        )
        await tx.execute(
            "INSERT INTO reminder_deliveries (reminder_id, user_id, fire_at, claimed_at, status,"
            " text, sent_at) VALUES (?, 'owner', ?, ?, 'sent', 'Call Ana', ?)",
            (reminder, now, now, now),
        )
    await kit.settle()


async def _export(db: Database, clock: FakeClock) -> dict[str, Any]:
    return dict(json.loads(to_json(await export_document(db, "owner", clock.now()))))


async def _hashes(db: Database) -> dict[str, tuple[int, str]]:
    found = await tables(db, db.engine)
    out = {}
    for name, table in found.items():
        h = await table_hash(db, table)
        out[name] = (h.rows, h.hexdigest())
    return out


async def _rows(db: Database) -> dict[str, int]:
    return {
        n: int(await db.scalar(f"SELECT COUNT(*) FROM {n}")) for n in await tables(db, db.engine)
    }


async def _kit_cli(*args: str) -> int:
    """`kit storage copy ...` as the shell runs it (its own event loop, in a thread)."""
    return await asyncio.to_thread(main, ["storage", "copy", *args])


def _cli(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, settings: Settings, url: str = ""
) -> None:
    config = tmp_path / "config.toml"
    config.write_text(f'[storage]\nurl = "{url}"\n' if url else "")
    monkeypatch.setenv("KIT_CONFIG", str(config))
    monkeypatch.setenv("KIT_DATA_DIR", str(settings.data_dir))


async def test_a_whole_memory_goes_to_postgresql_and_back_with_every_table_equal(
    kit: Kit,
    clock: FakeClock,
    settings: Settings,
    pg_url: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    await _populate(kit, clock)
    original = await _export(kit.services.db, clock)
    hashes = await _hashes(kit.services.db)
    assert {"facts", "fact_history", "passes", "days", "messages", "notes"} <= {
        n for n, (rows, _) in hashes.items() if rows
    }
    assert {"note_history", "reminders", "reminder_deliveries", "llm_usage", "embeddings"} <= {
        n for n, (rows, _) in hashes.items() if rows
    }

    _cli(monkeypatch, tmp_path, settings)
    assert await _kit_cli("--to", pg_url) == 0
    out = capsys.readouterr().out
    assert "content hash matched" in out and "Vectors: copied" in out
    assert "rebuilt by the target" in out and "tsvector" in out

    async with _store(pg_url, tmp_path, clock) as pg:
        assert await _hashes(pg) == hashes
        assert await _export(pg, clock) == original

    back = tmp_path / "back" / "kit.db"
    _cli(monkeypatch, tmp_path, settings, pg_url)
    assert await _kit_cli("--to", f"sqlite:///{back}") == 0
    assert "FTS5" in capsys.readouterr().out
    async with _store(f"sqlite:///{back}", tmp_path, clock) as home:
        assert await _hashes(home) == hashes
        assert await _export(home, clock) == original


async def test_kit_runs_on_the_copy_ids_follow_links_hold_and_search_is_rebuilt(
    kit: Kit, clock: FakeClock, pg_url: str, tmp_path: Path
) -> None:
    seeded = await seed(kit, clock)
    async with _store(pg_url, tmp_path, clock) as pg:
        result = await copy_memory(kit.services.db, pg)
    assert result.vectors == {
        HashingEmbedder().model_id: result.vectors[HashingEmbedder().model_id]
    }
    top = max(seeded.fact_ids.values())
    settings = Settings(data_dir=tmp_path / "pgkit", storage=StorageSettings(url=pg_url))
    async with Kit.open(
        settings=settings, llm=FakeLLM(), embedder=HashingEmbedder(), clock=clock, background=False
    ) as moved:
        new = await moved.remember("The owner's cat is called Pixel.", category="people")
        assert new.id > top  # the sequence moved past the copied ids
        zebra = await moved.fact_history(seeded.fact_ids["zebra"])
        assert zebra[-1].pass_id == seeded.pass_id  # history -> pass link kept
        hits = await moved.search("cardiologist Lisbon")
        assert hits and "cardiologist" in hits[0].text
        lexical = [h for h in hits if h.lexical_rank is not None]
        assert lexical  # the tsvector index was rebuilt from the copied rows


async def test_a_target_holding_rows_is_refused_in_one_line_with_exit_2(
    kit: Kit,
    clock: FakeClock,
    settings: Settings,
    pg_url: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    await seed(kit, clock)
    async with _store(pg_url, tmp_path, clock) as pg:
        await copy_memory(kit.services.db, pg)
        before = await _hashes(pg)
        with pytest.raises(InputError, match="already holds a memory"):
            await copy_memory(kit.services.db, pg)
        assert await _hashes(pg) == before
    _cli(monkeypatch, tmp_path, settings)
    assert await _kit_cli("--to", pg_url) == 2
    err = capsys.readouterr().err.strip()
    assert "already holds a memory" in err and "new database" in err
    assert len(err.splitlines()) == 1


async def test_a_failure_midway_leaves_the_target_empty(
    kit: Kit, clock: FakeClock, pg_url: str, tmp_path: Path
) -> None:
    """A reminder text PostgreSQL cannot hold (a NUL character, which SQLite keeps): tables
    before it were already copied inside the transaction; none of it is kept."""
    await seed(kit, clock)
    async with kit.services.db.transaction() as tx:
        await tx.execute(
            "INSERT INTO reminders (user_id, channel, conversation, kind, text, repeat, status,"
            " created_at) VALUES ('owner', 'telegram', '42', 'reminder', ?, 'none', 'done', ?)",
            ("call\x00Ana", to_iso(clock.now())),
        )
    async with _store(pg_url, tmp_path, clock) as pg:
        with pytest.raises(StorageError) as caught:
            await copy_memory(kit.services.db, pg)
        text = str(caught.value)
        assert "while copying reminders" in text and "nothing was kept" in text
        assert "\n" not in text and "call" not in text
        rows = await _rows(pg)
        assert rows["facts"] == 0 and set(rows.values()) == {0}
    assert (await _rows(kit.services.db))["facts"] == 5  # the source is unchanged


def test_a_password_in_the_target_url_is_refused_and_never_shown(
    settings: Settings,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _cli(monkeypatch, tmp_path, settings)
    assert main(["storage", "copy", "--to", "postgresql://kit:hunter2@127.0.0.1:1/kit"]) == 2
    out, err = capsys.readouterr()
    assert "PGPASSWORD" in err and "hunter2" not in out + err
    assert len(err.strip().splitlines()) == 1


def test_an_unreachable_target_is_one_line_naming_the_fix(
    settings: Settings,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _cli(monkeypatch, tmp_path, settings)
    monkeypatch.setenv("PGPASSWORD", "s3cret-value")
    assert main(["storage", "copy", "--to", "postgresql://kit@127.0.0.1:1/kit"]) == 2
    out, err = capsys.readouterr()
    assert "cannot reach the PostgreSQL server" in err and len(err.strip().splitlines()) == 1
    assert "s3cret-value" not in out + err


async def test_a_refused_password_is_one_line_saying_pgpassword_and_never_shows_it(
    settings: Settings,
    postgres_server: postgres.TestServer,
    pg_url: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    if postgres_server.pgdata is None:
        pytest.skip("needs the tests' own server (its pg_hba.conf)")
    hba = postgres_server.pgdata / "pg_hba.conf"
    before = hba.read_text()
    await _admin(postgres_server, "CREATE ROLE kit_copy_pw LOGIN PASSWORD 'right-one'")
    hba.write_text("local all kit_copy_pw scram-sha-256\n" + before)
    await _admin(postgres_server, "SELECT pg_reload_conf()")
    try:
        _cli(monkeypatch, tmp_path, settings)
        monkeypatch.setenv("PGPASSWORD", "wrong-one")
        assert await _kit_cli("--to", pg_url.replace("postgres@", "kit_copy_pw@", 1)) == 2
        out, err = capsys.readouterr()
        assert "refused the password" in err and "PGPASSWORD" in err
        assert len(err.strip().splitlines()) == 1 and "wrong-one" not in out + err
    finally:
        hba.write_text(before)
        await _admin(postgres_server, "SELECT pg_reload_conf()")
        await _admin(postgres_server, "DROP ROLE kit_copy_pw")


async def _admin(server: postgres.TestServer, sql: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(server.base)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()
