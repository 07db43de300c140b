"""Both stores migrate to the same schema: same tables, same columns in the same order, and a
PostgreSQL twin for every SQLite migration (a new SQLite migration without one fails here)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kit.clock import FakeClock
from kit.config import Settings, StorageSettings
from kit.store.db import Database
from kit.store.engines import open_database
from kit.store.migrate import migrate
from kit.store.migrations import MIGRATIONS
from kit.store.postgres.migrations import PG_MIGRATIONS
from tests.support import postgres

# Full-text indexes are each engine's own: FTS5 virtual tables (and their shadow tables) on
# SQLite, `<table>_fts` tsvector tables on PostgreSQL.
_FTS = re.compile(r"_fts(_\w+)?$")


async def _tables(db: Database) -> dict[str, list[str]]:
    if db.engine == "sqlite":
        names = [
            r[0]
            for r in await db.fetchall(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        ]
        return {
            n: [r[1] for r in await db.fetchall(f"PRAGMA table_info({n})")]
            for n in names
            if not _FTS.search(n)
        }
    rows = await db.fetchall(
        "SELECT table_name, column_name FROM information_schema.columns"
        " WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position"
    )
    tables: dict[str, list[str]] = {}
    for table, column in rows:
        if not _FTS.search(table):
            tables.setdefault(table, []).append(column)
    return tables


async def test_sqlite_and_postgres_migrate_to_the_same_tables_and_columns(
    tmp_path: Path, clock: FakeClock, postgres_server: postgres.TestServer
) -> None:
    url = postgres.fresh_database(postgres_server, empty=True)
    try:
        schemas = []
        for storage in ("", url):
            settings = Settings(data_dir=tmp_path / "data", storage=StorageSettings(url=storage))
            async with open_database(settings) as db:
                await migrate(db, clock)
                assert await migrate(db, clock) == []  # applied once
                schemas.append(await _tables(db))
        sqlite, pg = schemas
        assert sorted(pg) == sorted(sqlite)
        for table, columns in sqlite.items():
            assert pg[table] == columns, table
    finally:
        postgres.drop_database(postgres_server, url)


def test_every_sqlite_migration_has_a_postgres_twin() -> None:
    """pg001_schema is m001 ... m014 at once; every later mNNN_x has its pgNNN_x."""
    consolidated = {"m001", "m002", "m003", "m004", "m005", "m006", "m007", "m009", "m010"}
    consolidated |= {"m014"}
    twins = {m.name.removeprefix("pg") for m in PG_MIGRATIONS}
    missing = [
        m.name
        for m in MIGRATIONS
        if m.name.split("_")[0] not in consolidated and m.name.removeprefix("m") not in twins
    ]
    assert missing == []
    assert PG_MIGRATIONS[0].name == "pg001_schema"


@pytest.mark.parametrize("name", [m.name for m in PG_MIGRATIONS])
def test_postgres_migrations_are_named_and_ordered_like_sqlites(name: str) -> None:
    assert re.fullmatch(r"pg\d{3}_[a-z0-9_]+", name)
    numbers = [int(m.name[2:5]) for m in PG_MIGRATIONS]
    assert numbers == sorted(numbers)
