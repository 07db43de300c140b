"""Kit's schema, compared: a database's tables, columns, triggers, views and indexes against
the ones Kit's own migrations make.

Two users. `kit restore` (kit/portability/rebuild.py) copies a backup's rows into a fresh
database and must know that the backup's tables are Kit's, and what else it holds (left
behind). `kit doctor` compares the live database with a fresh one of the same version and says
FIX on any difference: an object Kit does not make (a trigger that rewrites facts, a shadow
table keeping what `kit forget` erases), one it makes differently, one missing, a view where a
table should be, a column too many or too few.

Objects are compared by kind, name and definition (its SQL with spaces collapsed). The
full-text indexes are Kit's own too: FTS5 tables and their shadow tables on SQLite, `<table>_fts`
tables on PostgreSQL; SQLite's internal objects (`sqlite_%`, automatic indexes) are the
engine's. On PostgreSQL the fresh schema is made inside a transaction that is rolled back, in
a schema of its own: nothing of it stays.
"""

from __future__ import annotations

import re
import secrets
import sqlite3
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from kit.clock import Clock
from kit.errors import StorageError
from kit.store.db import Database, Transaction
from kit.store.migrate import migrate
from kit.store.migrations import MIGRATIONS, Migration

_FTS = re.compile(r"_fts(_\w+)?$")
_BOOKKEEPING = "schema_migrations"
_MIGRATIONS_TABLE = (
    "CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)"
)


@dataclass(frozen=True)
class SqliteSchema:
    tables: dict[str, tuple[str, ...]]  # real tables: name -> columns (in order)
    objects: dict[tuple[str, str], str]  # (kind, name) -> definition (spaces collapsed)
    migrations: tuple[str, ...] = ()


@dataclass(frozen=True)
class SchemaDiff:
    mismatched: tuple[str, ...] = ()  # Kit tables missing or not as Kit makes them
    extra: tuple[tuple[str, str, str], ...] = ()  # (kind, name, why): not Kit's, or changed
    missing: tuple[tuple[str, str], ...] = ()  # (kind, name) Kit makes, absent

    @property
    def same(self) -> bool:
        return not (self.mismatched or self.extra or self.missing)

    def lines(self) -> list[str]:
        """Each difference in words, the tables first."""
        return [
            *self.mismatched,
            *(f"{kind} {name}: {why}" for kind, name, why in self.extra),
            *(f"{kind} {name}: Kit makes it, and it is missing" for kind, name in self.missing),
        ]


NOT_KITS = "Kit does not make it"
CHANGED = "Kit makes it differently"


def _normal(sql: str | None) -> str:
    return " ".join((sql or "").split())


def read_sqlite_schema(conn: sqlite3.Connection) -> SqliteSchema:
    """What `conn`'s main database holds. Reads sqlite_master and table_xinfo only."""
    tables: dict[str, tuple[str, ...]] = {}
    objects: dict[tuple[str, str], str] = {}
    for kind, name, sql in conn.execute(
        "SELECT type, name, sql FROM main.sqlite_master WHERE name NOT LIKE 'sqlite_%'"
    ).fetchall():
        objects[(str(kind), str(name))] = _normal(sql)
        if kind == "table" and not _normal(sql).upper().startswith("CREATE VIRTUAL TABLE"):
            info = conn.execute(f'PRAGMA main.table_xinfo("{name}")').fetchall()
            # A hidden or generated column is not a plain column (hidden != 0): named apart.
            tables[str(name)] = tuple(str(r[1]) if not r[6] else f"{r[1]} (hidden)" for r in info)
    migrations: tuple[str, ...] = ()
    if _BOOKKEEPING in tables:
        migrations = tuple(str(r[0]) for r in conn.execute("SELECT name FROM schema_migrations"))
    return SqliteSchema(tables, objects, migrations)


def kit_tables(schema: SqliteSchema) -> list[str]:
    """The tables whose rows are memory (or Kit's bookkeeping of it): every real table but the
    full-text indexes' own and the migrations' list, sorted."""
    return sorted(t for t in schema.tables if not _FTS.search(t) and t != _BOOKKEEPING)


def differences(
    ours: SqliteSchema, theirs: SqliteSchema
) -> tuple[list[str], list[tuple[str, str, str]]]:
    """(tables of Kit's not there as Kit makes them, in words; objects Kit does not make or
    makes differently, as (kind, name, why)). `ours`: a fresh database of the same version."""
    diff = compare(ours, theirs)
    return list(diff.mismatched), list(diff.extra)


def compare(ours: SqliteSchema, theirs: SqliteSchema) -> SchemaDiff:
    mismatched: list[str] = []
    for table in kit_tables(ours):
        kinds = [k for (k, n) in theirs.objects if n == table]
        if table not in theirs.tables:
            if "view" in kinds:
                mismatched.append(f"{table} is a view where Kit has a table")
            elif "table" in kinds:
                mismatched.append(f"{table} is a virtual table where Kit has a table")
            else:
                mismatched.append(f"table {table} is missing")
        elif theirs.tables[table] != ours.tables[table]:
            mismatched.append(
                f"table {table} has the columns ({', '.join(theirs.tables[table])}) where "
                f"Kit's has ({', '.join(ours.tables[table])})"
            )
    if _BOOKKEEPING in ours.tables and theirs.tables.get(_BOOKKEEPING) != ours.tables[_BOOKKEEPING]:
        mismatched.append(f"table {_BOOKKEEPING} is not Kit's")
    extra: list[tuple[str, str, str]] = []
    for key in sorted(theirs.objects):
        kind, name = key
        if name in ours.tables and key in ours.objects and kind == "table":
            if theirs.objects[key] != ours.objects[key] and name in theirs.tables:
                if theirs.tables.get(name) == ours.tables[name]:
                    extra.append((kind, name, CHANGED + " (its rules); its rows are Kit's"))
            continue
        if key not in ours.objects:
            if not (kind == "table" and name in ours.tables):
                extra.append((kind, name, NOT_KITS))
        elif theirs.objects[key] != ours.objects[key]:
            extra.append((kind, name, CHANGED))
    compared = {*kit_tables(ours), _BOOKKEEPING}  # said above, with their columns
    missing = [
        key
        for key in sorted(ours.objects)
        if key not in theirs.objects and not (key[0] == "table" and key[1] in compared)
    ]
    return SchemaDiff(tuple(mismatched), tuple(extra), tuple(missing))


async def fresh_sqlite(folder: Path, clock: Clock, migrations: Sequence[Migration]) -> Path:
    """A new empty database in `folder` (owner-only), migrated to exactly `migrations`."""
    from kit.store.sqlite import SqliteDatabase

    path = folder / f"fresh-{secrets.token_hex(4)}.db"
    async with SqliteDatabase.open(path) as db:
        await migrate(db, clock, tuple(migrations))
    return path


async def check_sqlite(path: Path, clock: Clock) -> SchemaDiff:
    """The SQLite database at `path` (migrated to this Kit's version) against a fresh one."""
    import asyncio

    with tempfile.TemporaryDirectory(prefix="kit-schema-") as folder:
        fresh = await fresh_sqlite(Path(folder), clock, MIGRATIONS)
        try:
            return await asyncio.to_thread(_compare_files, fresh, path)
        except sqlite3.Error as exc:
            raise StorageError(f"{path}: its schema cannot be read ({exc})") from exc


def _compare_files(fresh: Path, live: Path) -> SchemaDiff:
    ours_conn = sqlite3.connect(fresh)
    try:
        ours = read_sqlite_schema(ours_conn)
    finally:
        ours_conn.close()
    live_conn = sqlite3.connect(f"{live.resolve().as_uri()}?mode=ro", uri=True)
    try:
        live_conn.execute("PRAGMA trusted_schema = OFF")
        theirs = read_sqlite_schema(live_conn)
    finally:
        live_conn.close()
    return compare(ours, theirs)


# ---- PostgreSQL ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _PgSchema:
    tables: dict[str, tuple[str, ...]] = field(default_factory=dict)
    objects: dict[tuple[str, str], str] = field(default_factory=dict)


class _RolledBack(Exception):
    """Ends the transaction that made the fresh schema, so nothing of it stays."""


async def check_postgres(db: Database) -> SchemaDiff:
    """The live schema (migrated to this Kit's version) against one made fresh by PostgreSQL's
    migrations in a temporary schema of a transaction that is rolled back."""
    from kit.store.postgres.migrations import PG_MIGRATIONS

    live_schema = str(await db.scalar("SELECT current_schema()"))
    theirs = await _pg_schema(db, live_schema)
    fresh = f"kit_schema_check_{secrets.token_hex(4)}"
    ours = _PgSchema()
    try:
        async with db.transaction() as tx:
            path = str(await _scalar(tx, "SHOW search_path"))
            await tx.execute(f"CREATE SCHEMA {fresh}")
            await tx.execute(f"SET LOCAL search_path TO {fresh}, {path}")
            await tx.execute(_MIGRATIONS_TABLE)  # as migrate.py makes it
            for migration in PG_MIGRATIONS:
                for statement in migration.statements:
                    # A step (a callable) fills rows; the fresh schema has none to fill.
                    if isinstance(statement, str):
                        await tx.execute(statement)
            ours = await _pg_schema(tx, fresh)
            raise _RolledBack
    except _RolledBack:
        pass
    return _pg_compare(ours, theirs)


async def _scalar(tx: Transaction, sql: str) -> object:
    row = await tx.fetchone(sql)
    return None if row is None else row[0]


async def _pg_schema(db: Database | Transaction, schema: str) -> _PgSchema:
    found = _PgSchema()
    for table, column in await db.fetchall(
        "SELECT c.table_name, c.column_name FROM information_schema.columns c"
        " JOIN information_schema.tables t ON t.table_schema = c.table_schema"
        " AND t.table_name = c.table_name"
        " WHERE c.table_schema = ? AND t.table_type = 'BASE TABLE'"
        " ORDER BY c.table_name, c.ordinal_position",
        (schema,),
    ):
        found.tables[str(table)] = (*found.tables.get(str(table), ()), str(column))
    queries = {
        "view": "SELECT viewname, definition FROM pg_views WHERE schemaname = ?",
        "index": "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = ?",
        "trigger": "SELECT t.tgname || ' on ' || c.relname, pg_get_triggerdef(t.oid)"
        " FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid"
        " JOIN pg_namespace n ON n.oid = c.relnamespace"
        " WHERE n.nspname = ? AND NOT t.tgisinternal",
        # An extension's functions (pgvector's) are the extension's, not Kit's schema.
        "function": "SELECT p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')',"
        " md5(p.prosrc) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace"
        " WHERE n.nspname = ? AND NOT EXISTS (SELECT 1 FROM pg_depend d"
        " WHERE d.objid = p.oid AND d.deptype = 'e')",
    }
    for kind, sql in queries.items():
        for name, definition in await db.fetchall(sql, (schema,)):
            text = _normal(str(definition)).replace(f"{schema}.", "")
            found.objects[(kind, str(name))] = text
    return found


def _pg_compare(ours: _PgSchema, theirs: _PgSchema) -> SchemaDiff:
    mismatched: list[str] = []
    for table in sorted(ours.tables):
        if table not in theirs.tables:
            if ("view", table) in theirs.objects:
                mismatched.append(f"{table} is a view where Kit has a table")
            else:
                mismatched.append(f"table {table} is missing")
        elif theirs.tables[table] != ours.tables[table]:
            mismatched.append(
                f"table {table} has the columns ({', '.join(theirs.tables[table])}) where "
                f"Kit's has ({', '.join(ours.tables[table])})"
            )
    extra = [("table", name, NOT_KITS) for name in sorted(theirs.tables) if name not in ours.tables]
    extra += [
        (kind, name, NOT_KITS if (kind, name) not in ours.objects else CHANGED)
        for (kind, name), text in sorted(theirs.objects.items())
        if ours.objects.get((kind, name)) != text
    ]
    missing = [key for key in sorted(ours.objects) if key not in theirs.objects]
    return SchemaDiff(tuple(mismatched), tuple(extra), tuple(missing))
