"""A SQLite database file rebuilt, never adopted: its rows copied into a fresh database that
Kit's own migrations made (`kit restore`: kit/portability/stage.py stages it).

A backup is a file anyone could have changed. Put in place as it is, whatever its schema holds
comes with it: a trigger that rewrites every fact Kit writes, one that deactivates every fact
or makes every message write fail, a shadow table that keeps what `kit forget` erases, a view
where the `facts` table should be. So a restore reads the file and trusts only its rows:

1. the file's `schema_migrations` must be the first N of this Kit's migrations (a prefix:
   nothing newer, nothing missing in between);
2. a fresh database is migrated to those same N migrations, and its tables are compared with
   the file's (kit/store/schema_check.py): every table Kit has at that version must be a table
   there (not a view, not a virtual table) with exactly the same columns, or the file
   is refused with one line;
3. the rows of those tables are copied across (Kit's own constraints and triggers apply to
   them as they arrive: the full-text indexes are rebuilt from the rows; a row that breaks a
   rule, a value of another type than its column's, or text that is not UTF-8 refuses the
   file); everything else in the file (a trigger, view, table or
   index Kit does not make, or makes differently) is named in the report and left behind;
4. the caller then migrates the copy to this Kit's version, as Kit would when it starts.

The file is only read: opened read-only, its schema read with `trusted_schema` off, and of its
contents only the rows of tables with Kit's columns selected, so nothing its schema defines (a
view, a trigger, a generated column) ever runs. Blocking throughout: run it with
`asyncio.to_thread`.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from kit.errors import InputError
from kit.portability.owners import NOT_MEMORY
from kit.store.migrations import MIGRATIONS
from kit.store.schema_check import SqliteSchema, differences, kit_tables, read_sqlite_schema

# What each declared type may hold (SQLite stores any value in any column): a BLOB where Kit
# keeps text would make every command reading it fail, as surely as a dropped column.
_ALLOWED = {
    "TEXT": ("text", "null"),
    "INTEGER": ("integer", "null"),
    "REAL": ("real", "integer", "null"),
    "BLOB": ("blob", "null"),
}

# Counters the tables' triggers write while the others are copied (kit/portability/owners.py
# says why they only grow): copied last, over what the triggers wrote.
_LAST = ("memory_versions",)


@dataclass(frozen=True)
class LeftBehind:
    kind: str  # "trigger", "view", "table", "index"
    name: str
    why: str  # "Kit does not make it", "Kit makes it differently"

    def describe(self) -> str:
        return f"{self.kind} {self.name} ({self.why})"


@dataclass(frozen=True)
class Rebuilt:
    migrations: int  # the file's schema: this many of Kit's migrations
    rows: int  # copied
    left_behind: tuple[LeftBehind, ...]
    owners: tuple[str, ...]  # whose memory the rebuilt file holds


def read_only(path: Path) -> sqlite3.Connection:
    """A connection that only reads `path` and runs nothing its schema defines."""
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    conn.execute("PRAGMA trusted_schema = OFF")
    conn.execute("PRAGMA query_only = ON")
    return conn


def applied_migrations(path: Path, label: str) -> int:
    """How many of Kit's migrations the file at `path` has: they must be the first N (checked
    by restore_file.check before: the table exists, nothing is newer)."""
    conn = read_only(path)
    try:
        names = {str(r[0]) for r in conn.execute("SELECT name FROM schema_migrations")}
    finally:
        conn.close()
    known = [m.name for m in MIGRATIONS]
    count = len(names)
    if names != set(known[:count]):
        missing = [n for n in known[:count] if n not in names]
        raise InputError(
            f"{label}: its schema lists {count} migrations but not in Kit's order (missing "
            f"{', '.join(missing[:3])}); it was not made by Kit, or was changed: restore another "
            "backup"
        )
    return count


def copy_rows(source: Path, fresh: Path, label: str, *, skip_user: str | None = None) -> Rebuilt:
    """Compare `source` with `fresh` (migrated to the same migrations, empty), then copy the
    rows of Kit's tables into `fresh` in one transaction; `skip_user`: leave that user's rows
    out (their memory is being replaced). Refuses (InputError) a file whose tables or columns
    are not Kit's."""
    with _closing(read_only(source)) as theirs:
        found = read_sqlite_schema(theirs)
    with _closing(sqlite3.connect(fresh, isolation_level=None)) as conn:
        ours = read_sqlite_schema(conn)
        mismatch, extra = differences(ours, found)
        if mismatch:
            raise InputError(
                f"{label}: its {mismatch[0]}, so it is not a Kit database as this Kit would "
                "make it; it cannot be restored (restore another backup, or a `kit export`)"
            )
        count = _copy(conn, source, ours, label, skip_user)
        owners = file_owners(conn)
    left = tuple(LeftBehind(kind, name, why) for kind, name, why in extra)
    return Rebuilt(len(ours.migrations), count, left, tuple(owners))


def _copy(
    conn: sqlite3.Connection,
    source: Path,
    ours: SqliteSchema,
    label: str,
    skip_user: str | None,
) -> int:
    conn.execute("PRAGMA foreign_keys = OFF")  # checked whole at the end, before the commit
    # trusted_schema stays on: Kit's own triggers write the FTS5 indexes. Of the file, only
    # the rows of tables with Kit's columns are read (a generated column is not Kit's:
    # refused before), so nothing its schema defines runs.
    conn.execute("ATTACH DATABASE ? AS old", (f"{source.resolve().as_uri()}?mode=ro",))
    copied = 0
    table = ""
    try:
        conn.execute("BEGIN IMMEDIATE")
        names = [t for t in kit_tables(ours) if t not in _LAST] + [
            t for t in _LAST if t in kit_tables(ours)
        ]
        for table in names:
            columns = ", ".join(ours.tables[table])
            if table in _LAST:
                conn.execute(f"DELETE FROM main.{table}")  # what the triggers wrote meanwhile
            where, params = "", ()
            if (
                skip_user is not None
                and "user_id" in ours.tables[table]
                and table not in NOT_MEMORY
            ):
                where, params = " WHERE user_id IS NOT ?", (skip_user,)  # type: ignore[assignment]
            cursor = conn.execute(
                f"INSERT INTO main.{table} ({columns}) SELECT {columns} FROM old.{table}{where}",
                params,
            )
            copied += max(cursor.rowcount, 0)
        _check_values(conn, names, label)
        table = "schema_migrations"
        conn.execute(
            "UPDATE main.schema_migrations SET applied_at = (SELECT o.applied_at FROM"
            " old.schema_migrations o WHERE o.name = main.schema_migrations.name)"
        )
        broken = conn.execute("PRAGMA main.foreign_key_check").fetchall()
        if broken:
            child, _, parent, _ = broken[0]
            raise InputError(
                f"{label}: {len(broken)} row(s) of {child} point at rows of {parent} that are "
                "not there; it was changed outside Kit, and it cannot be restored (restore "
                "another backup, or a `kit export`)"
            )
        conn.execute("COMMIT")
    except sqlite3.IntegrityError as exc:
        conn.execute("ROLLBACK")
        raise InputError(
            f"{label}: a row of {table} breaks Kit's rules ({exc}); it was changed outside "
            "Kit, and it cannot be restored (restore another backup, or a `kit export`)"
        ) from exc
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    finally:
        conn.execute("DETACH DATABASE old")
    return copied


def _check_values(conn: sqlite3.Connection, tables: list[str], label: str) -> None:
    """Every copied value of the type its column declares, and every text UTF-8: what Kit
    could not read back is refused now, not at the first command that reads it."""
    for table in tables:
        for _, column, declared, *_ in conn.execute(f"PRAGMA main.table_info({table})").fetchall():
            allowed = _ALLOWED.get(str(declared).upper())
            if allowed is None:
                continue
            kinds = ", ".join(f"'{k}'" for k in allowed)
            row = conn.execute(
                f"SELECT COUNT(*), MIN(typeof({column})) FROM main.{table}"
                f" WHERE typeof({column}) NOT IN ({kinds})"
            ).fetchone()
            if row[0]:
                raise InputError(
                    f"{label}: {row[0]} row(s) of {table} hold a {row[1]} in {column}, where "
                    f"Kit keeps {str(declared).lower()}; it was changed outside Kit, and it "
                    "cannot be restored (restore another backup, or a `kit export`)"
                )
            if allowed[0] == "text":
                _check_utf8(conn, table, column, label)


def _check_utf8(conn: sqlite3.Connection, table: str, column: str, label: str) -> None:
    cursor = conn.cursor()
    cursor.row_factory = None
    conn.text_factory = bytes
    try:
        for (value,) in cursor.execute(
            f"SELECT {column} FROM main.{table} WHERE typeof({column}) = 'text'"
        ):
            try:
                value.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise InputError(
                    f"{label}: a row of {table} holds text in {column} that is not UTF-8; it "
                    "was changed outside Kit, and it cannot be restored (restore another "
                    "backup, or a `kit export`)"
                ) from exc
    finally:
        cursor.close()  # an unfinished statement would keep the attached file locked
        conn.text_factory = str


def file_owners(conn: sqlite3.Connection) -> list[str]:
    """Every user id with something in the database (owners.py says which tables count)."""
    schema = read_sqlite_schema(conn)
    found: set[str] = set()
    for table in kit_tables(schema):
        if "user_id" in schema.tables[table] and table not in NOT_MEMORY:
            found.update(
                str(r[0])
                for r in conn.execute(
                    f"SELECT DISTINCT user_id FROM {table} WHERE user_id IS NOT NULL"
                )
            )
    return sorted(found)


def owners_of(path: Path) -> list[str] | None:
    """Whose memory the SQLite file at `path` holds; None when it cannot be read (damaged)."""
    if not path.is_file():
        return []
    wal = path.with_name(path.name + "-wal").exists()
    try:
        # Read as it is, creating nothing beside it (restore_file.kept_receipts says why).
        mode = "mode=ro" if wal else "immutable=1"
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?{mode}", uri=True)
        try:
            conn.execute("PRAGMA trusted_schema = OFF")
            return file_owners(conn)
        finally:
            conn.close()
    except sqlite3.Error:
        return None


@contextlib.contextmanager
def _closing(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    try:
        yield conn
    finally:
        conn.close()
