"""What `kit restore` costs now that it rebuilds: a backup's rows copied into a fresh database
(kit/portability/rebuild.py) and the forgets made after it re-applied (kit/forget/reapply.py).

    python bench/restore.py [--scale 0.25]

On the realistic archive's text (bench/archive.py, generated; a hashing embedder stands in, so
every message, fact and day has a vector row to copy), in a fresh SQLite file: `kit backup`,
then `kit forget --person Hannah`, then the restore of that backup as `kit restore` stages it
(rebuilt, the forget re-applied, checked, put in place), beside the same-run baselines `kit
backup` itself and a plain staged copy with SQLite's integrity check (what a restore did
before it rebuilt). Then the restore of an export of the same memory, beside restoring it
into an empty database with no forget to answer to (what `kit import` of it costs). Wall and
CPU seconds (the host is shared: CPU is the steadier number). Numbers only.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from archive import fill, generate
from common import NOW, machine

from kit.api import Kit
from kit.clock import FakeClock
from kit.config import ScheduleSettings, Settings
from kit.embed.hashing import HashingEmbedder
from kit.forget.ledger import Ledger
from kit.forget.scope import ForgetScope
from kit.portability import restore_file, stage
from kit.portability.backup import backup_database
from kit.portability.export import export_document
from kit.portability.restore import Forgets, restore
from kit.store.migrate import migrate
from kit.store.sqlite import SqliteDatabase


@contextmanager
def timed(into: list[float]) -> Iterator[None]:
    wall, cpu = time.perf_counter(), time.process_time()
    yield
    into += [time.perf_counter() - wall, time.process_time() - cpu]


async def measure(scale: float) -> None:
    archive = generate(scale)
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(
            data_dir=Path(folder) / "data", schedule=ScheduleSettings(timezone="UTC")
        )
        clock = FakeClock(NOW)
        async with Kit.open(
            settings=settings, embedder=HashingEmbedder(), clock=clock, background=False
        ) as kit:
            await fill(kit, archive)
            await kit.services.vectors.backfill()
            document = await export_document(kit.services.db, "owner", clock.now())
        database = settings.database_path
        backup = Path(folder) / "backup.db"
        backup_t: list[float] = []
        with timed(backup_t):
            backup_database(database, backup)
        async with Kit.open(
            settings=settings, embedder=HashingEmbedder(), clock=clock, background=False
        ) as kit:
            report = await kit.forget(ForgetScope.named("Hannah"))
        plain_t: list[float] = []
        with timed(plain_t):
            copy = restore_file.stage_copy(backup, database)
            restore_file.check(copy, str(backup))
            restore_file.discard(copy)
        options = stage.Options(clock=clock, tz=UTC, ledger=Ledger(settings.data_dir))
        restore_t: list[float] = []
        with timed(restore_t):
            staged = await stage.stage_backup(backup, database, str(backup), options)
            checked = restore_file.check(staged.path, "bench")
            restore_file.install(staged.path, database, checked, clock.now())
        (again,) = staged.reapplied
        export_t: list[float] = []
        with timed(export_t):
            exported = await stage.stage_export(document, "owner", database, options)
        restore_file.discard(exported.path)
        empty = Path(folder) / "empty" / "kit.db"
        import_t: list[float] = []
        with timed(import_t):
            async with SqliteDatabase.open(empty) as db:
                await migrate(db, clock)
                await restore(db, document, "owner", Forgets(None, UTC, clock.now()))
        size = f"{len(archive.messages):,} messages, {len(archive.days):,} days"
        print(f"# kit restore, scale {scale}: {size}; {backup.stat().st_size / 2**20:.0f} MB")
        print(f"# {machine()}; seconds wall / CPU")
        print(f"kit backup                     {backup_t[0]:7.2f} / {backup_t[1]:6.2f}")
        print(
            f"staged copy + integrity check  {plain_t[0]:7.2f} / {plain_t[1]:6.2f}"
            "   (a restore before it rebuilt)"
        )
        print(
            f"kit restore BACKUP             {restore_t[0]:7.2f} / {restore_t[1]:6.2f}   rebuilt, "
            f"{again.report.messages_removed:,} messages of 1 later forget re-applied "
            f"({report.messages_removed:,} forgotten), checked, in place"
        )
        print(
            f"kit restore EXPORT (staged)    {export_t[0]:7.2f} / {export_t[1]:6.2f}"
            "   the same forget re-applied"
        )
        print(
            f"the export into an empty db    {import_t[0]:7.2f} / {import_t[1]:6.2f}"
            "   no forget to answer to (kit import)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=0.25)
    args = parser.parse_args()
    asyncio.run(measure(args.scale))


if __name__ == "__main__":
    main()
