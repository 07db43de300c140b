"""Whose memory a store holds, and one owner's memory taken out of it for a restore.

Every table of an owner's memory has a `user_id` column (a namespace: `kit --user NAME`);
a store holds one owner's memory or several (PostgreSQL is made for many; a SQLite file can
hold several too). A restore touches the owners its file is about: an export replaces its one
owner's memory and nothing else, a backup (every owner's) replaces all of them, and says so.

Before an owner's memory is taken out, the caller keeps it whole elsewhere (the SQLite file
moved aside, or a `kit export` written beside the data: commands/restore.py): a restore never
deletes what the owner told Kit without that record.
"""

from __future__ import annotations

from kit.portability.tables import Table, load_order, tables
from kit.store.db import Database, Engine, Transaction

# What an owner holds that is not their memory, kept when their memory is replaced: the
# counters that tell a cached context it is stale (m014: they must only ever grow, so a cache
# made before a restore never matches one made after it), and the access tokens their remote
# clients hold, with their audit log (kit/access/: a restore must not lock a device out).
NOT_MEMORY = frozenset({"memory_versions", "access_tokens", "token_uses"})


def _owned(found: dict[str, Table]) -> list[Table]:
    return [t for t in found.values() if "user_id" in t.columns and t.name not in NOT_MEMORY]


async def owners(db: Database | Transaction, engine: Engine) -> list[str]:
    """Every user id with something in the store, sorted."""
    found: set[str] = set()
    for table in _owned(await tables(db, engine)):
        rows = await db.fetchall(
            f"SELECT DISTINCT user_id FROM {table.name} WHERE user_id IS NOT NULL"
        )
        found.update(str(r[0]) for r in rows)
    return sorted(found)


async def clear_owner(tx: Transaction, engine: Engine, user_id: str) -> None:
    """Delete every row of `user_id`'s memory, children before parents, in the caller's
    transaction (a restore's: the memory is replaced in the same step)."""
    found = await tables(tx, engine)
    owned = {t.name for t in _owned(found)}
    for table in reversed(load_order(found)):
        if table.name in owned:
            await tx.execute(f"DELETE FROM {table.name} WHERE user_id = ?", (user_id,))
