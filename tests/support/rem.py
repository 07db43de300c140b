"""Shared helpers for the REM and daily-summary tests: messages on given days, bullet text."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

from kit.api import Kit
from kit.memory.messages import NewMessage


def at(day: date, hh: int, mm: int = 0) -> datetime:
    return datetime.combine(day, time(hh, mm), tzinfo=UTC)


async def chat_on(kit: Kit, day: date, *texts: str, user: str | None = None) -> None:
    """Owner/Kit messages on `day` (UTC settings), a minute apart from 10:00, as an import."""
    items = [
        NewMessage("user" if i % 2 == 0 else "assistant", text, at(day, 10) + timedelta(minutes=i))
        for i, text in enumerate(texts)
    ]
    await kit.import_messages(items, user=user, conversation=f"c-{day}")


async def job_message(kit: Kit, day: date, text: str) -> None:
    """A message a scheduled job wrote (source='job'): never part of a day's summary."""
    s = kit.services
    conv = await s.messages.conversation(kit.settings.owner.user_id, "job", "jobs")
    await s.messages.add(conv, "assistant", text, at=at(day, 12), source="job")


def bullets(n: int, word: str = "item") -> str:
    return "\n".join(f"- {word} {i}" for i in range(1, n + 1))
