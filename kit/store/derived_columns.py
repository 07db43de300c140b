"""Columns derived in Python from a message's text and day, filled by a migration's step (SQL
cannot say them) in batches, inside the migration's transaction; the writes derive the same
values for every new message (kit/memory/messages.py, kit/portability/restore.py)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import date

from kit.dates.text import mentions_time, named_days, said_days
from kit.store.db import Transaction


def derived(text: str, day: date) -> tuple[str, str, int]:
    """What a message's row holds derived from its text and the day it was written, in this
    order: `named_days`, `said_days`, `says_time` (every write of a message and restore)."""
    return named_days(text, day), said_days(text, day), int(mentions_time(text))


async def _fill(tx: Transaction, column: str, derive: Callable[[str, date], object]) -> None:
    """Set `column` of every message to `derive(text, day)`, 2,000 rows at a time."""
    last = 0
    while True:
        rows = await tx.fetchall(
            "SELECT id, text, day FROM messages WHERE id > ? ORDER BY id LIMIT 2000", (last,)
        )
        if not rows:
            return
        await tx.executemany(
            f"UPDATE messages SET {column} = ? WHERE id = ?",
            [(derive(str(r[1]), date.fromisoformat(str(r[2]))), int(r[0])) for r in rows],
        )
        last = int(rows[-1][0])


async def fill_named_days(tx: Transaction) -> None:
    """Derive every message's `named_days` (the days its text names, as words: kit/dates/text.py)
    from its text and day (a migration's step: m024 / pg024)."""
    await _fill(tx, "named_days", named_days)


async def fill_said_days(tx: Transaction) -> None:
    """Derive every message's `said_days` (the days its text names, as spans: kit/dates/text.py)
    from its text and day (a migration's step: m038 / pg038)."""
    await _fill(tx, "said_days", said_days)


# m038 / pg038: the days a message's text names, as spans a search reads instead of parsing
# every candidate's text on each dated question (kit/retrieval/query.py `Query.dated`).
# NULL until derived, and a later migration that reads dates better derives it again.
MESSAGE_SAID_DAYS: tuple[str | Callable[[Transaction], Awaitable[None]], ...] = (
    "ALTER TABLE messages ADD COLUMN said_days TEXT",
    fill_said_days,
)


async def fill_says_time(tx: Transaction) -> None:
    """Derive every message's `says_time` (1 when its text places something in time:
    kit/dates/text.py `mentions_time`, else 0) from its text (a migration's step: m039 / pg039)."""
    await _fill(tx, "says_time", lambda text, _day: int(mentions_time(text)))


# m039 / pg039: whether a message's text places something in time, read by a search for a
# question that asks when instead of parsing every candidate's text (kit/retrieval/search.py
# `_fit`). NULL until derived, as m038's days.
MESSAGE_SAYS_TIME: tuple[str | Callable[[Transaction], Awaitable[None]], ...] = (
    "ALTER TABLE messages ADD COLUMN says_time INTEGER",
    fill_says_time,
)
