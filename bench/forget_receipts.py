"""What a forget receipt costs: its size, `kit forget --verify`, and the import check.

    python bench/forget_receipts.py [--scale 0.25]

On the realistic archive's text (bench/archive.py, generated, not embedded: a hashing
embedder stands in, vectors are not what is measured), in a fresh SQLite file: forget a person
named in many messages and day summaries ("Hannah"), then time verifying the receipt beside
exporting the same memory (both read all of it: the same-run baseline), and importing the
archive's messages again into a new conversation with and without receipts to check against
(the messages the forget erased left out, so both imports write the same rows). Numbers only.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from archive import fill, generate
from common import NOW, machine

from kit.api import Kit
from kit.clock import FakeClock
from kit.config import ScheduleSettings, Settings
from kit.embed.hashing import HashingEmbedder
from kit.forget.forgetter import Forgetter
from kit.forget.receipt import to_json
from kit.forget.scope import ForgetScope
from kit.portability.export import export_document


async def measure(scale: float) -> None:
    archive = generate(scale)
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(data_dir=Path(folder), schedule=ScheduleSettings(timezone="UTC"))
        clock = FakeClock(NOW)
        async with Kit.open(
            settings=settings, embedder=HashingEmbedder(), clock=clock, background=False
        ) as kit:
            s = kit.services
            await fill(kit, archive)
            await s.vectors.backfill()
            began = time.perf_counter()
            report = await Forgetter(s.db, s.tz, s.forget_ledger).forget(
                "owner", ForgetScope.named("Hannah"), now=clock.now()
            )
            forget_s = time.perf_counter() - began
            s.vectors.forget_cache("owner")
            receipt = report.receipt
            assert receipt is not None
            verify_s, export_s = [], []
            for _ in range(3):
                began = time.perf_counter()
                result = await kit.verify_forget(receipt.id)
                verify_s.append(time.perf_counter() - began)
                began = time.perf_counter()
                json.dumps(await export_document(s.db, "owner", clock.now()))
                export_s.append(time.perf_counter() - began)
            assert result.ok, result.leftovers
            kept = [m for m in archive.messages if "Hannah" not in m.text]
            with_receipts, without = [], []
            for run in range(2):
                began = time.perf_counter()
                await kit.import_messages(kept, conversation=f"with-{run}")
                with_receipts.append(time.perf_counter() - began)
                began = time.perf_counter()
                await kit.import_messages(kept, user=f"nobody-{run}", conversation="without")
                without.append(time.perf_counter() - began)
        size = f"{len(archive.messages):,} messages, {len(archive.days):,} days"
        print(f"# forget receipts, scale {scale}: {size}")
        print(f"# {machine()}")
        print(f"forget --person Hannah      {forget_s:8.2f} s   counts {receipt.counts}")
        print(f"receipt size                {len(to_json(receipt)) / 1024:8.1f} KB")
        print(
            f"verify (best of 3)          {min(verify_s):8.2f} s   export of the same memory "
            f"{min(export_s):.2f} s: ratio {min(verify_s) / min(export_s):.2f}"
        )
        print(
            f"import {len(kept):,} (best of 2)  {min(with_receipts):8.2f} s with 1 receipt, "
            f"{min(without):.2f} s with none: ratio {min(with_receipts) / min(without):.2f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=0.25)
    args = parser.parse_args()
    asyncio.run(measure(args.scale))


if __name__ == "__main__":
    main()
