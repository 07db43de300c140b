"""Reminder delivery latency: from a reminder's fire time to Telegram accepting the message,
with many due at the same instant. Real clock, the daemon's scheduler (APScheduler's wake-up
at the fire time), the real PTB Application against the local Bot API server.

    python bench/reminders.py [--count 100] [--rounds 3]

Two shapes: every reminder in the owner's one chat (delivered in fire order, one after
another, as one conversation must be) and each in its own chat (conversations side by side).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from kit.api import Kit
from kit.channel_settings import TelegramSettings
from kit.channels.telegram.channel import TelegramChannel
from kit.config import ScheduleSettings, Settings
from kit.embed.hashing import HashingEmbedder
from kit.llm.fake import FakeLLM
from kit.reminders.rules import Rule
from kit.reminders.store import NewReminder
from scheduler import KitScheduler
from tests.servers.telegram_api import FakeTelegramServer

OWNER = 1001
LEAD = timedelta(seconds=1.5)  # how far ahead the reminders are scheduled


class TimedChannel(TelegramChannel):
    """Notes when Telegram accepted each proactive message (its text is the key)."""

    accepted: dict[str, float]

    async def send_to_chat(self, chat: str, text: str) -> None:
        await super().send_to_chat(chat, text)
        self.accepted[text] = time.time()


async def latencies(count: int, one_chat: bool) -> list[float]:
    with tempfile.TemporaryDirectory() as folder, FakeTelegramServer() as tg:
        settings = Settings(
            data_dir=Path(folder),
            schedule=ScheduleSettings(timezone="UTC"),
            telegram=TelegramSettings(base_url=tg.base_url, allowed_user_ids={str(OWNER): "o"}),
        )
        async with Kit.open(
            settings=settings, llm=FakeLLM(), embedder=HashingEmbedder(), background=False
        ) as kit:
            reminders = kit.services.reminders
            channel = TimedChannel(kit.services, tg.token, poll_timeout=5.0)
            channel.accepted = {}
            async with asyncio.TaskGroup() as group, KitScheduler(kit.services):
                task = group.create_task(channel.run())
                while "telegram" not in reminders.dispatcher.channels:  # noqa: ASYNC110
                    await asyncio.sleep(0.01)
                fire = datetime.now(UTC) + LEAD
                for n in range(count):
                    chat = OWNER if one_chat else OWNER + n
                    new = NewReminder(
                        "o", "telegram", str(chat), "reminder", f"bench {n}", Rule("none"), fire
                    )
                    await reminders.store.add(new, max_active=count)
                reminders.dispatcher.on_change()  # what scheduling through the tool does
                while len(channel.accepted) < count:  # noqa: ASYNC110
                    await asyncio.sleep(0.01)
                task.cancel()
    return sorted(t - fire.timestamp() for t in channel.accepted.values())


def percentile(values: list[float], share: float) -> float:
    return values[max(0, round(len(values) * share) - 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    for one_chat in (True, False):
        shape = "one chat" if one_chat else "separate chats"
        for _ in range(args.rounds):
            ms = [t * 1000 for t in asyncio.run(latencies(args.count, one_chat))]
            print(
                f"{args.count} due at once, {shape}: fire time -> Telegram accepted "
                f"p50 {statistics.median(ms):.0f} ms, p95 {percentile(ms, 0.95):.0f} ms, "
                f"first {ms[0]:.0f} ms, last {ms[-1]:.0f} ms"
            )


if __name__ == "__main__":
    main()
