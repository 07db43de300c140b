"""Embedding throughput of the backfill, and how long a busy day's messages take to become
searchable (import, embed, found by a search) with the real model.

    python bench/searchable.py [--quick]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from datetime import timedelta
from pathlib import Path

from common import NOW, Row, load_minilm, print_rows, sentence

from kit.api import Kit
from kit.clock import FakeClock
from kit.config import ScheduleSettings, Settings
from kit.llm.fake import FakeLLM
from kit.memory.messages import NewMessage

FULL = {"day": 300, "runs": 3}  # a busy day: 150 turns, 300 messages
QUICK = {"day": 12, "runs": 1}


async def run(quick: bool = False) -> list[Row]:
    plan = QUICK if quick else FULL
    model = await load_minilm()
    if model is None:
        return [Row("searchable", "model", 0, "", "no local MiniLM: skipped")]
    rng = random.Random(9)
    seconds: list[float] = []
    for attempt in range(plan["runs"]):
        marker = f"zanzibarquest{attempt}"  # a word only the day's last message has
        day = [
            NewMessage("user" if i % 2 == 0 else "assistant", sentence(rng),
                       NOW - timedelta(hours=12) + timedelta(minutes=2 * i))
            for i in range(plan["day"] - 1)
        ]  # fmt: skip
        day.append(NewMessage("user", f"{sentence(rng)} {marker}", NOW - timedelta(minutes=1)))
        with tempfile.TemporaryDirectory(prefix="kit-bench-") as folder:
            settings = Settings(data_dir=Path(folder), schedule=ScheduleSettings(timezone="UTC"))
            async with Kit.open(
                settings=settings,
                llm=FakeLLM(),
                embedder=model,
                clock=FakeClock(NOW),
                background=False,
            ) as kit:
                began = time.perf_counter()
                await kit.import_messages(day)
                await kit.settle()  # what the daemon's background task does after an import
                hits = await kit.search(marker, kinds=("message",), k=1)
                seconds.append(time.perf_counter() - began)
                assert hits and marker in hits[0].text, "the day's last message was not found"
    best = min(seconds)
    count = plan["day"]
    return [
        Row("embedding", "backfill throughput", count / best, "items/s", "real MiniLM, one text"
            " per model run"),
        Row("embedding", f"busy day ({count} messages) searchable", best, "s",
            "import + embed + found"),
    ]  # fmt: skip


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes (CI)")
    print_rows(asyncio.run(run(parser.parse_args().quick)))
