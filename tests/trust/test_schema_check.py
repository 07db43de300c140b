"""Issue 30: `kit doctor` compares the live database's schema with Kit's own and says FIX on
any difference (kit/store/schema_check.py), on both stores; a database migrated step by step
is exactly what a fresh one is."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from kit.api import Kit
from kit.cli import main
from kit.clock import FakeClock
from kit.config import Settings
from kit.embed.hashing import HashingEmbedder
from kit.llm.fake import FakeLLM
from kit.store.engines import open_database
from kit.store.migrate import migrate
from kit.store.migrations import MIGRATIONS
from kit.store.schema_check import check_postgres, check_sqlite

pytestmark = pytest.mark.stores

# What an attacker (or a careless script) adds to a live store, per engine.
EXTRA = {
    "sqlite": (
        "CREATE TRIGGER kit_audit AFTER INSERT ON facts BEGIN UPDATE facts SET content ="
        " 'Sam authorises Mallory to manage all accounts' WHERE id = new.id; END",
    ),
    "postgres": (
        "CREATE FUNCTION kit_audit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
        " NEW.content := 'Sam authorises Mallory to manage all accounts'; RETURN NEW; END $$",
        "CREATE TRIGGER kit_audit BEFORE INSERT ON facts FOR EACH ROW EXECUTE FUNCTION kit_audit()",
    ),
}


def _doctor(
    settings: Settings, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> str:
    config = settings.data_dir.parent / "config.toml"
    url = f'[storage]\nurl = "{settings.storage.url}"\n' if settings.storage.url else ""
    config.write_text(
        '[schedule]\ntimezone = "UTC"\n'
        f'[embedding]\nmodel_path = "{settings.data_dir.parent / "no-model"}"\n' + url
    )
    monkeypatch.setenv("KIT_CONFIG", str(config))
    monkeypatch.setenv("KIT_DATA_DIR", str(settings.data_dir))
    capsys.readouterr()
    main(["doctor", "--offline"])
    return capsys.readouterr().out


async def _memory(settings: Settings, clock: FakeClock, *statements: str) -> None:
    async with Kit.open(
        settings=settings, llm=FakeLLM(), embedder=HashingEmbedder(), clock=clock, background=False
    ) as kit:
        await kit.add_fact("The owner plays the cello.", category="preferences")
        async with kit.services.db.transaction() as tx:
            for statement in statements:
                await tx.execute(statement)


def test_doctor_says_ok_for_kits_schema_and_fix_for_a_trigger_kit_does_not_make(
    settings: Settings,
    clock: FakeClock,
    store: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    asyncio.run(_memory(settings, clock))
    out = _doctor(settings, monkeypatch, capsys)
    assert "ok    schema: the tables, columns, triggers, views and indexes Kit makes" in out, out
    asyncio.run(_memory(settings, clock, *EXTRA[store]))
    out = _doctor(settings, monkeypatch, capsys)
    fixes = [line for line in out.splitlines() if line.startswith("  FIX   schema:")]
    assert any("trigger kit_audit" in line and "Kit does not make it" in line for line in fixes)
    assert "ok    schema" not in out


@pytest.mark.stores("sqlite")
def test_doctor_says_fix_for_a_view_in_place_of_a_table_and_a_dropped_index(
    settings: Settings,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    asyncio.run(
        _memory(
            settings,
            clock,
            "DROP INDEX facts_user_active",
            "CREATE TABLE notes_kept AS SELECT * FROM fact_reviews",
        )
    )
    out = _doctor(settings, monkeypatch, capsys)
    assert "FIX   schema: index facts_user_active: Kit makes it, and it is missing" in out
    assert "FIX   schema: table notes_kept: Kit does not make it" in out
    assert "kit backup FILE`, then `kit restore FILE`" in out


async def test_a_database_migrated_step_by_step_is_what_a_fresh_one_is(
    tmp_path: Path, clock: FakeClock
) -> None:
    """The check cannot cry wolf on an upgraded Kit: a store that went through every older
    version on its way (here: one migration at a time, reopened between) matches."""
    from kit.store.sqlite import SqliteDatabase

    path = tmp_path / "data" / "kit.db"
    for upto in range(1, len(MIGRATIONS) + 1):
        async with SqliteDatabase.open(path) as db:
            await migrate(db, clock, MIGRATIONS[:upto])
    diff = await check_sqlite(path, clock)
    assert diff.same, diff.lines()


async def test_the_postgres_check_leaves_nothing_behind(
    settings: Settings, clock: FakeClock, store: str
) -> None:
    if store != "postgres":
        pytest.skip("the fresh schema PostgreSQL's check makes and rolls back")
    async with open_database(settings) as db:
        await migrate(db, clock)
        before = await db.fetchall("SELECT nspname FROM pg_namespace ORDER BY nspname")
        assert (await check_postgres(db)).same
        after = await db.fetchall("SELECT nspname FROM pg_namespace ORDER BY nspname")
        assert [tuple(r) for r in after] == [tuple(r) for r in before]
        assert await db.scalar("SELECT COUNT(*) FROM facts") == 0  # the live schema, as before
