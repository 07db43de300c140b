"""How long the Telegram channel adds to a turn: message in -> reply out through the real PTB
Application and the local Bot API server, with a scripted model (so the model costs ~0).

    python bench/telegram_roundtrip.py [--messages 50]

Prints latency percentiles (they include Kit's turn: storing, context building, hashing
embedder) and the cost of splitting a long reply.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from kit.api import Kit
from kit.channel_settings import TelegramSettings
from kit.channels.telegram.channel import TelegramChannel
from kit.clock import FakeClock
from kit.config import ScheduleSettings, Settings
from kit.delivery.splitting import split_message
from kit.embed.hashing import HashingEmbedder
from kit.llm.fake import FakeLLM
from tests.servers.telegram_api import FakeTelegramServer

USER = 1001


async def roundtrips(count: int) -> list[float]:
    with tempfile.TemporaryDirectory() as folder, FakeTelegramServer() as tg:
        settings = Settings(
            data_dir=Path(folder),
            schedule=ScheduleSettings(timezone="UTC"),
            telegram=TelegramSettings(base_url=tg.base_url, allowed_user_ids={str(USER): "owner"}),
        )
        clock = FakeClock(datetime(2026, 3, 2, 9, 0, tzinfo=UTC))
        llm = FakeLLM(default="Noted, thanks.")
        async with Kit.open(
            settings=settings, llm=llm, embedder=HashingEmbedder(), clock=clock, background=False
        ) as kit:
            channel = TelegramChannel(kit.services, tg.token, poll_timeout=5.0)
            async with asyncio.TaskGroup() as group:
                task = group.create_task(channel.run())
                times = []
                for n in range(1, count + 1):
                    started = time.perf_counter()
                    tg.push_text(USER, f"message number {n} about the garden")
                    await tg.async_wait_for_sent(n, timeout=30)
                    times.append(time.perf_counter() - started)
                task.cancel()
    return times


def split_cost() -> tuple[int, float, int]:
    text = "\n\n".join(
        " ".join(f"Sentence {i} of paragraph {p} says something." for i in range(12))
        for p in range(200)
    )
    started = time.perf_counter()
    chunks = split_message(text)
    return len(text), (time.perf_counter() - started) * 1000, len(chunks)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=50)
    args = parser.parse_args()
    times = sorted(asyncio.run(roundtrips(args.messages)))
    ms = [t * 1000 for t in times]
    p95 = ms[max(0, int(len(ms) * 0.95) - 1)]
    print(f"round trips: {len(ms)}  median {statistics.median(ms):.1f} ms  p95 {p95:.1f} ms")
    chars, elapsed, chunks = split_cost()
    print(f"split {chars:,} characters into {chunks} messages in {elapsed:.1f} ms")


if __name__ == "__main__":
    main()
