"""`kit restore EXPORT` on PostgreSQL: one owner's memory replaced in place, in one
transaction, the other owners of the store untouched; what it replaces is first written
beside the data as a `kit export` (`kit restore` of that file puts it back). A backup file
(SQLite's) is not restored here: PostgreSQL has its own tools, and the message says which.
"""

from __future__ import annotations

import argparse
import re
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kit.commands.common import embed_pending, open_kit
from kit.commands.forget_lines import flag_line, forget_lines
from kit.text import plural

if TYPE_CHECKING:
    from kit.config import Settings

# What makes a memory not empty (a restore without `replace` refuses it: restore.py).
_HELD = ("conversations", "messages", "facts", "days", "notes")


async def restore_on_postgres(
    args: argparse.Namespace, settings: Settings, file: Path, export: bool
) -> int:
    from kit.errors import InputError
    from kit.forget.ledger import Ledger
    from kit.portability.restore import read_export
    from kit.store.engines import describe

    if not export:
        raise InputError(
            f"kit restore puts a SQLite file back, and memory lives on {describe(settings)}: "
            "restore PostgreSQL with its own tools (pg_restore of a pg_dump, or the server's "
            "base backups). To load a Kit backup file into it, point a config's storage.url "
            "at the file (sqlite:///path/to/backup.db) and run `kit storage copy --to URL` "
            "into an empty database; a `kit export` file restores here with kit restore FILE"
        )
    ledger = Ledger(settings.data_dir)
    document = read_export(file, ledger.salt_of)  # checked whole before the database is opened
    async with open_kit(args, exclusive=True) as kit:
        user = args.user or document["user_id"]
        current = await kit.export(user=user)
        held = any(current["counts"][k] for k in _HELD)
        aside = _set_aside(settings.data_dir, user, current, kit.now()) if held else None
        try:
            result = await kit.restore(
                document, user=user, allow_forgotten=args.allow_forgotten, replace=held
            )
        except BaseException:
            if aside is not None:  # nothing was replaced: the copy is not needed
                aside.unlink(missing_ok=True)
            raise
        _report(file, user, result, aside)
        if kit.embeddings_on:
            embedded = await embed_pending(kit)
            print(f"Embedded {plural(embedded, 'item')}; they are searchable now.")
    return 0


def _set_aside(data_dir: Path, user: str, document: dict[str, Any], now: datetime) -> Path:
    """`user`'s memory as it is, as a `kit export` in the data directory (owner-only)."""
    from kit.portability.export import to_json
    from kit.portability.target import private_file

    slug = re.sub(r"[^A-Za-z0-9_.-]", "_", user)[:40] or "user"
    base = f"kit-export-{slug}-before-restore-{now:%Y%m%d-%H%M%S}"
    target = data_dir / f"{base}.json"
    n = 1
    while target.exists():
        n += 1
        target = data_dir / f"{base}-{n}.json"
    with private_file(target, force=False) as fd, open(fd, "w", closefd=False) as out:
        out.write(to_json(document))
    return target


def _report(file: Path, user: str, result: Any, aside: Path | None) -> None:

    print(
        f"Restored the memory of {user!r} from {file}: {plural(result.facts, 'fact')} "
        f"({plural(result.history, 'history entry', 'history entries')}), "
        f"{plural(result.days, 'day')}, {plural(result.messages, 'message')} in "
        f"{plural(result.conversations, 'conversation')}, "
        f"{plural(result.passes, 'pass', 'passes')}, {plural(result.notes, 'note')}"
        + (" (ids renumbered: they were taken here)." if result.renumbered else ".")
    )
    if aside is not None:
        print(
            f"It replaced the memory of {user!r} only (no other owner's was touched); that "
            f"memory is kept (nothing was deleted) as {aside}: `kit restore {aside}` puts it "
            "back."
        )
    for line in forget_lines(result.reapplied, (), file):
        print(line)
    if result.forgotten:
        print(flag_line(list(result.forgotten), str(file)))
