"""What `kit restore` builds beside kit.db before putting it in place (restore_file.py puts it
there): a fresh database holding the restored memory, whoever's it is, and nothing else.

- A backup (every owner's memory): its rows, rebuilt into a fresh database (rebuild.py). A
  store holding several owners is replaced whole only with `all_owners`.
- An export (one owner's memory): the live database rebuilt without that owner's rows (the
  other owners' memory goes across unchanged), then the export restored into it
  (restore.py).
- Either way, the forgets made after the file was written (the data directory's ledger, and
  the receipts of the memory being replaced, that the restored memory does not hold) are
  re-applied in one transaction (kit/forget/reapply.py), or with `allow_forgotten` only
  counted, and their receipts kept.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import tzinfo
from pathlib import Path
from typing import Any

from kit.clock import Clock
from kit.errors import InputError
from kit.forget.ledger import Ledger
from kit.forget.portability import keep_receipts
from kit.forget.reapply import Reapplied, reapply, would_take
from kit.forget.receipt import Receipt
from kit.portability.rebuild import Rebuilt, applied_migrations, copy_rows, owners_of
from kit.portability.restore import Forgets, RestoreResult, restore
from kit.portability.restore_file import (
    check,
    discard,
    kept_receipts,
    new_staging,
    snapshot,
    stage_copy,
)
from kit.store.migrate import migrate
from kit.store.migrations import MIGRATIONS
from kit.store.sqlite import SqliteDatabase


@dataclass(frozen=True)
class Staged:
    path: Path  # the database built beside kit.db
    replaced: tuple[str, ...]  # the owners whose memory it replaces
    kept: tuple[str, ...]  # the owners whose memory goes across unchanged (an export's others)
    owners: tuple[str, ...]  # the owners the restored file brings
    left_behind: tuple[str, ...] = ()  # what of the file (or the live database) was not Kit's
    reapplied: tuple[Reapplied, ...] = ()  # forgets made after the file, applied again
    brought_back: tuple[Reapplied, ...] = ()  # with allow_forgotten: what they had taken
    restored: RestoreResult | None = None  # an export's restore
    migrations: int = 0  # the file's schema, in migrations


@dataclass(frozen=True)
class Options:
    clock: Clock
    tz: tzinfo
    ledger: Ledger
    allow_forgotten: bool = False
    all_owners: bool = False


async def stage_backup(backup: Path, database: Path, label: str, options: Options) -> Staged:
    """A fresh database beside `database` holding the backup's rows, with the later forgets
    re-applied. Refuses a backup over a store of several owners without `all_owners`."""
    live = await asyncio.to_thread(owners_of, database)
    if live is not None and len(live) > 1 and not options.all_owners:
        raise InputError(
            f"{database} holds the memory of {len(live)} owners ({_names(live)}), and a backup "
            "replaces all of them with what it holds: add --all-owners to do that, or restore "
            "one owner's `kit export` instead (it replaces that owner's memory only)"
        )
    carried = await asyncio.to_thread(kept_receipts, database, None, options.ledger.salt_of)
    staged, rebuilt = await _rebuilt(backup, database, label, options.clock)
    try:
        reapplied, back = await _later_forgets(staged, rebuilt.owners, carried, options)
        await asyncio.to_thread(_single_file, staged)
    except BaseException:
        discard(staged)
        raise
    return Staged(
        path=staged,
        replaced=tuple(live or ()),
        kept=(),
        owners=rebuilt.owners,
        left_behind=tuple(item.describe() for item in rebuilt.left_behind),
        reapplied=tuple(reapplied),
        brought_back=tuple(back),
        migrations=rebuilt.migrations,
    )


async def stage_export(
    document: Mapping[str, Any], user_id: str, database: Path, options: Options
) -> Staged:
    """A fresh database beside `database` holding the other owners' memory as it is and the
    export as `user_id`'s, with the later forgets re-applied (restore.py)."""
    live = await asyncio.to_thread(owners_of, database)
    users = {user_id, str(document["user_id"])}
    carried = await asyncio.to_thread(kept_receipts, database, users, options.ledger.salt_of)
    left: tuple[str, ...] = ()
    others: Rebuilt | None = None
    why = "damaged?"
    if live:  # the other owners' memory, rebuilt like a backup (without this owner's rows)
        copy = new_staging(database)
        try:
            await asyncio.to_thread(snapshot, database, copy)
            staged, others = await _rebuilt(
                copy, database, str(database), options.clock, ours=True, skip_user=user_id
            )
        except InputError as exc:  # damaged: as unreadable (below)
            live, why = None, str(exc)
        finally:
            discard(copy)
    if live is None and not options.all_owners:
        raise InputError(
            f"{database} cannot be read ({why.removeprefix(f'{database}: ')}), so whatever "
            "memory of other owners it holds cannot go across into the restored database; "
            "restore a backup instead (kit restore BACKUP), or add --all-owners to restore "
            "this export on its own (the damaged file is kept aside either way)"
        )
    if others is not None:
        left = tuple(item.describe() for item in others.left_behind)
    else:
        staged = new_staging(database)
        staged.unlink()  # SqliteDatabase makes it, header first (kit/store/dbfile.py)
    try:
        async with SqliteDatabase.open(staged) as db:
            await migrate(db, options.clock)
            forgets = Forgets(options.ledger, options.tz, options.clock.now())
            result = await restore(
                db,
                document,
                user_id,
                forgets,
                allow_forgotten=options.allow_forgotten,
                carried=[receipt for _, receipt in carried],
            )
        await asyncio.to_thread(_single_file, staged)
    except BaseException:
        discard(staged)
        raise
    live = live or []
    return Staged(
        path=staged,
        replaced=(user_id,) if user_id in live else (),
        kept=tuple(u for u in live if u != user_id),
        owners=(user_id,),
        left_behind=left,
        reapplied=result.reapplied,
        restored=result,
    )


async def _rebuilt(
    source: Path,
    database: Path,
    label: str,
    clock: Clock,
    *,
    ours: bool = False,
    skip_user: str | None = None,
) -> tuple[Path, Rebuilt]:
    """`source` checked and rebuilt into a new staging file beside `database`, migrated to
    this Kit's version. Unless it is `ours` (a snapshot this restore made), it is read from a
    private copy: the file given is only ever read once, byte for byte."""
    copy = None if ours else await asyncio.to_thread(stage_copy, source, database)
    readable = copy or source
    staged = new_staging(database)
    staged.unlink()
    try:
        await asyncio.to_thread(check, readable, label)
        count = await asyncio.to_thread(applied_migrations, readable, label)
        async with SqliteDatabase.open(staged) as db:
            await migrate(db, clock, MIGRATIONS[:count])
        rebuilt = await asyncio.to_thread(copy_rows, readable, staged, label, skip_user=skip_user)
        async with SqliteDatabase.open(staged) as db:
            await migrate(db, clock)  # from an older version: up to this one
    except BaseException:
        discard(staged)
        raise
    finally:
        if copy is not None:
            discard(copy)
    return staged, rebuilt


async def _later_forgets(
    staged: Path,
    owners: Sequence[str],
    carried: Sequence[tuple[str, Receipt]],
    options: Options,
) -> tuple[list[Reapplied], list[Reapplied]]:
    """Re-apply (or with `allow_forgotten` count) each owner's receipts that the restored
    memory does not hold: the ledger's and the replaced memory's. Receipts are kept."""
    ledger = await asyncio.to_thread(options.ledger.of_users, owners)
    reapplied: list[Reapplied] = []
    back: list[Reapplied] = []
    async with SqliteDatabase.open(staged) as db:
        async with db.transaction(erasing=True) as tx:
            for owner in owners:
                held = {
                    str(r[0])
                    for r in await tx.fetchall(
                        "SELECT receipt_id FROM forget_receipts WHERE user_id = ?", (owner,)
                    )
                }
                later: dict[str, Receipt] = {}
                for user, receipt in [*carried, *ledger]:
                    if user == owner and receipt.id not in held:
                        later[receipt.id] = receipt  # the ledger's (listed last) preferred
                receipts = list(later.values())
                if options.allow_forgotten:
                    back += await would_take(tx, owner, receipts, options.tz)
                    await keep_receipts(tx, owner, receipts)
                else:
                    now = options.clock.now()
                    reapplied += await reapply(tx, owner, receipts, options.tz, now)
    return reapplied, back


def _single_file(staged: Path) -> None:
    """The staged database as one file (no -wal beside it), ready to be renamed into place."""
    conn = sqlite3.connect(staged)
    try:
        conn.execute("PRAGMA journal_mode=DELETE").fetchall()
    finally:
        conn.close()


def _names(users: Sequence[str]) -> str:
    shown = ", ".join(repr(u) for u in users[:5])
    return shown + (f" and {len(users) - 5} more" if len(users) > 5 else "")
