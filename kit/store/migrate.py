"""Applying schema migrations: each store's ordered list (SQLite's in migrations.py,
PostgreSQL's twins in postgres/migrations.py), each migration in one transaction with its
bookkeeping row, checked again inside it so two processes starting at once apply it once."""

from __future__ import annotations

from kit.clock import Clock, to_iso
from kit.store.db import Database
from kit.store.migrations import MIGRATIONS, Migration
from kit.store.postgres.migrations import PG_MIGRATIONS


def migrations_for(db: Database) -> tuple[Migration, ...]:
    """The engine's own list: SQLite's here, PostgreSQL's twins in postgres/migrations.py."""
    if db.engine == "postgres":
        return PG_MIGRATIONS
    return MIGRATIONS


async def migrate(
    db: Database, clock: Clock, migrations: tuple[Migration, ...] | None = None
) -> list[str]:
    """Apply every migration not yet applied, in order. Returns the names applied now.
    Each is checked again inside its transaction (which holds the store's write lock), so
    two processes starting at once apply it once."""
    async with db.transaction() as tx:
        await tx.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations "
            "(name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)"
        )
    done = {row[0] for row in await db.fetchall("SELECT name FROM schema_migrations")}
    applied: list[str] = []
    for migration in migrations_for(db) if migrations is None else migrations:
        if migration.name in done:
            continue
        async with db.transaction() as tx:
            if await tx.fetchone(
                "SELECT 1 FROM schema_migrations WHERE name = ?", (migration.name,)
            ):
                continue
            for statement in migration.statements:
                if isinstance(statement, str):
                    await tx.execute(statement)
                else:
                    await statement(tx)
            await tx.execute(
                "INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)",
                (migration.name, to_iso(clock.now())),
            )
        applied.append(migration.name)
    return applied
