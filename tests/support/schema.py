"""A store as an older Kit left it: migrated up to, not including, one migration, so a test can
write rows the way that Kit did and then check what the migration does to them
(`migrate(db, clock)` applies the rest)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from kit.clock import Clock
from kit.config import Settings, StorageSettings
from kit.store.db import Database
from kit.store.engines import open_database
from kit.store.migrate import migrate, migrations_for
from kit.store.sqlite import SqliteDatabase
from tests.support import postgres


async def migrate_before(db: Database, clock: Clock, migration: str) -> None:
    """Apply the engine's migrations that come before `migration` (its name or the start of it:
    "m010", "pg021") and no others. A name no migration has is an error, not an empty list."""
    every = migrations_for(db)
    if not any(m.name.startswith(migration) for m in every):
        raise ValueError(f"no {db.engine} migration is named {migration!r}")
    await migrate(db, clock, tuple(m for m in every if m.name < migration))


@asynccontextmanager
async def sqlite_before(path: Path, clock: Clock, migration: str) -> AsyncIterator[SqliteDatabase]:
    """A SQLite file at `path`, open and migrated up to `migration` (not including it)."""
    async with SqliteDatabase.open(path) as db:
        await migrate_before(db, clock, migration)
        yield db


@asynccontextmanager
async def blank_store(
    store: str, tmp_path: Path, request: pytest.FixtureRequest
) -> AsyncIterator[Database]:
    """An empty store of the engine `store` (no migration applied): a SQLite file under
    `tmp_path`, or a fresh PostgreSQL database, dropped afterwards."""
    url = ""
    if store == "postgres":
        url = postgres.fresh_database(request.getfixturevalue("postgres_server"), empty=True)
    try:
        settings = Settings(data_dir=tmp_path / "data", storage=StorageSettings(url=url))
        async with open_database(settings) as db:
            yield db
    finally:
        if url:
            postgres.drop_database(request.getfixturevalue("postgres_server"), url)
