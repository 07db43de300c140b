"""Messages are indexed with their day in words (m005), so dates in a question find them."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from kit.api import Kit
from kit.clock import FakeClock
from kit.store.migrate import migrate
from tests.support.schema import sqlite_before

MONDAY = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)


async def message_ids(kit: Kit, query: str) -> list[int]:
    hits = await kit.search(query, kinds=("message",), now=datetime(2024, 1, 1, tzinfo=UTC))
    return [h.id for h in hits]


async def test_a_message_is_found_by_its_day_month_year_and_weekday(kit: Kit) -> None:
    conv = await kit.services.messages.conversation("owner", "local", "default")
    dinner = await kit.services.messages.add(conv, "user", "dinner with mum", at=MONDAY)
    await kit.services.messages.add(
        conv, "user", "nothing much", at=datetime(2023, 6, 2, tzinfo=UTC)
    )
    for query in ("what happened on 8 May?", "May 2023", "Monday", "on May 8th, 2023"):
        ids = await message_ids(kit, query)
        assert ids and ids[0] == dinner.id, query
    assert dinner.id not in await message_ids(kit, "June 2nd")
    assert dinner.id not in await message_ids(kit, "Tuesday")


async def test_the_index_follows_a_changed_day_and_a_deleted_message(kit: Kit) -> None:
    s = kit.services
    conv = await s.messages.conversation("owner", "local", "default")
    moved = await s.messages.add(conv, "user", "the boiler man came", at=MONDAY)
    gone = await s.messages.add(conv, "user", "the plumber came", at=MONDAY)
    async with s.db.transaction() as tx:
        await tx.execute("UPDATE messages SET day = '2023-07-14' WHERE id = ?", (moved.id,))
        await tx.execute("DELETE FROM messages WHERE id = ?", (gone.id,))
        await tx.execute("INSERT INTO messages_fts(messages_fts) VALUES ('integrity-check')")
    assert await message_ids(kit, "14 July") == [moved.id]
    assert await message_ids(kit, "8 May") == []
    assert await message_ids(kit, "plumber") == []


async def test_messages_stored_before_the_migration_are_indexed_with_their_day(
    tmp_path: Path, clock: FakeClock
) -> None:
    async with sqlite_before(tmp_path / "kit.db", clock, "m005") as db:
        async with db.transaction() as tx:
            conv = await tx.insert(
                "INSERT INTO conversations (user_id, channel, external_id, created_at)"
                " VALUES ('owner', 'local', 'x', '2023-05-08T00:00:00+00:00')"
            )
            await tx.execute(
                "INSERT INTO messages (user_id, conversation_id, role, text, at, day,"
                " content_hash) VALUES ('owner', ?, 'user', 'kayak lesson',"
                " '2023-05-08T13:56:00+00:00', '2023-05-08', 'h')",
                (conv,),
            )
        assert "m005_message_day_words" in await migrate(db, clock)
        rows = await db.fetchall(
            'SELECT rowid, text FROM messages_fts WHERE messages_fts MATCH \'"monday" AND "may"\''
        )
        assert [tuple(r) for r in rows] == [(1, "kayak lesson (Monday 8 May 2023)")]
        # the table itself is unchanged: the words live only in the index
        assert await db.scalar("SELECT text FROM messages WHERE id = 1") == "kayak lesson"
