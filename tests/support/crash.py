"""A statement that fails inside a transaction, in either engine's words: a trigger that
aborts an INSERT into `table` when `when` holds (SQL both engines read, NEW.* for the row)."""

from __future__ import annotations

from kit.store.db import Database


async def crash_on_insert(db: Database, table: str, message: str, when: str = "1 = 1") -> None:
    async with db.transaction() as tx:
        if db.engine == "sqlite":
            await tx.execute(
                f"CREATE TRIGGER boom BEFORE INSERT ON {table} WHEN {when}"
                f" BEGIN SELECT RAISE(ABORT, '{message}'); END"
            )
        else:
            await tx.execute(
                "CREATE FUNCTION boom() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
                f" IF {when} THEN RAISE EXCEPTION '{message}'; END IF; RETURN NEW; END $$"
            )
            await tx.execute(
                f"CREATE TRIGGER boom BEFORE INSERT ON {table} FOR EACH ROW EXECUTE FUNCTION boom()"
            )


async def stop_crashing(db: Database, table: str) -> None:
    async with db.transaction() as tx:
        if db.engine == "sqlite":
            await tx.execute("DROP TRIGGER boom")
        else:
            await tx.execute(f"DROP TRIGGER boom ON {table}")
            await tx.execute("DROP FUNCTION boom()")
