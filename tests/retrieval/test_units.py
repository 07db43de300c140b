"""Lexical units (m010): a message is matched by its own words and, weighted low, by the words
of the message before it; the index follows inserts anywhere, deletes and edits."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta
from pathlib import Path

from kit.api import Kit
from kit.clock import FakeClock
from kit.forget.forgetter import ForgetScope, Forgetter
from kit.memory.messages import Conversation
from kit.store.migrate import migrate
from tests.support.schema import sqlite_before

LATER = timedelta(days=30)  # past the recency window


def lexical_only(kit: Kit, **changes: object) -> None:
    """Vectors and neighbour mixing off: what is found, the words found it."""
    s = kit.services.search
    s.params = dataclasses.replace(
        s.params,
        threshold=1.1,
        message_threshold=1.1,
        previous_weight=0.0,
        next_weight=0.0,
        **changes,
    )


async def say(kit: Kit, conv: Conversation, *texts: str) -> list[int]:
    return [(await kit.services.messages.add(conv, "user", t)).id for t in texts]


async def ids(kit: Kit, query: str, clock: FakeClock) -> list[int]:
    hits = await kit.search(query, kinds=("message",), now=clock.now() + LATER)
    return [h.id for h in hits]


async def check_index(kit: Kit) -> None:
    async with kit.services.db.transaction() as tx:
        await tx.execute("INSERT INTO messages_fts(messages_fts) VALUES ('integrity-check')")


async def test_a_reply_is_found_by_the_words_of_the_turn_it_answers(
    kit: Kit, clock: FakeClock
) -> None:
    conv = await kit.services.messages.conversation("owner", "local", "a")
    question, reply, later = await say(
        kit, conv, "where did you buy the kayak?", "at the harbour shop", "see you soon"
    )
    await kit.settle()
    lexical_only(kit, context_weight=0.0)
    assert await ids(kit, "kayak", clock) == [question]
    lexical_only(kit, context_weight=0.2)
    hits = await kit.search("kayak", kinds=("message",), now=clock.now() + LATER)
    assert [h.id for h in hits] == [question, reply]  # own words weigh more
    assert hits[1].lexical_rank == 2 and hits[1].score < hits[0].score
    assert later not in [h.id for h in hits]  # two turns away: not its unit


async def test_forgetting_a_message_takes_its_words_out_of_the_next_ones_unit(
    kit: Kit, clock: FakeClock
) -> None:
    s = kit.services
    conv = await s.messages.conversation("owner", "local", "a")
    first, named, reply = await say(
        kit, conv, "morning", "Ana moved to Lisbon", "lovely, for how long?"
    )
    lexical_only(kit, context_weight=0.2)
    assert await ids(kit, "Lisbon", clock) == [named, reply]
    await Forgetter(s.db, s.tz, s.forget_ledger).forget(
        "owner", ForgetScope.named("Ana"), now=clock.now()
    )
    assert await ids(kit, "Lisbon", clock) == []
    assert await ids(kit, "morning", clock) == [first, reply]  # its new previous turn
    await check_index(kit)


async def test_a_message_inserted_between_two_others_becomes_the_next_ones_context(
    kit: Kit, clock: FakeClock
) -> None:
    """A restore writes rows with their old ids, not always in order."""
    s = kit.services
    conv = await s.messages.conversation("owner", "local", "a")
    insert = (
        "INSERT INTO messages (id, user_id, conversation_id, role, speaker, text, at, day,"
        " content_hash) VALUES (?, 'owner', ?, 'user', '', ?, ?, '2026-03-02', 'h')"
    )
    at = clock.now().isoformat()
    async with s.db.transaction() as tx:
        await tx.execute(insert, (10, conv.id, "the cello recital", at))
        await tx.execute(insert, (30, conv.id, "it went well", at))
    lexical_only(kit, context_weight=0.2)
    assert await ids(kit, "cello", clock) == [10, 30]
    async with s.db.transaction() as tx:
        await tx.execute(insert, (20, conv.id, "the oboe solo", at))
    assert await ids(kit, "cello", clock) == [10, 20]
    assert await ids(kit, "oboe", clock) == [20, 30]
    await check_index(kit)


async def test_an_edited_message_changes_its_own_and_the_next_ones_unit(
    kit: Kit, clock: FakeClock
) -> None:
    s = kit.services
    conv = await s.messages.conversation("owner", "local", "a")
    edited, reply = await say(kit, conv, "the violin lesson", "Tuesdays")
    async with s.db.transaction() as tx:
        await tx.execute("UPDATE messages SET text = 'the piano lesson' WHERE id = ?", (edited,))
    lexical_only(kit, context_weight=0.2)
    assert await ids(kit, "violin", clock) == []
    assert await ids(kit, "piano", clock) == [edited, reply]
    await check_index(kit)


async def test_units_stay_inside_their_conversation(kit: Kit, clock: FakeClock) -> None:
    messages = kit.services.messages
    a = await messages.conversation("owner", "local", "a")
    b = await messages.conversation("owner", "local", "b")
    (kayak,) = await say(kit, a, "the kayak trip")
    (other,) = await say(kit, b, "unrelated")
    lexical_only(kit, context_weight=0.2)
    assert await ids(kit, "kayak", clock) == [kayak]
    assert other > kayak


async def test_messages_stored_before_the_migration_get_their_units(
    tmp_path: Path, clock: FakeClock
) -> None:
    async with sqlite_before(tmp_path / "kit.db", clock, "m010") as db:
        async with db.transaction() as tx:
            conv = await tx.insert(
                "INSERT INTO conversations (user_id, channel, external_id, created_at)"
                " VALUES ('owner', 'local', 'x', '2023-05-08T00:00:00+00:00')"
            )
            for text in ("which kayak?", "the red one"):
                await tx.execute(
                    "INSERT INTO messages (user_id, conversation_id, role, text, at, day,"
                    " content_hash) VALUES ('owner', ?, 'user', ?,"
                    " '2023-05-08T13:56:00+00:00', '2023-05-08', 'h')",
                    (conv, text),
                )
        assert "m010_retrieval_units" in await migrate(db, clock)
        rows = await db.fetchall(
            "SELECT rowid FROM messages_fts WHERE messages_fts MATCH 'context : kayak'"
        )
        assert [r[0] for r in rows] == [2]
        await db.fetchall("INSERT INTO messages_fts(messages_fts) VALUES ('integrity-check')")


async def test_speakers_are_the_distinct_names_of_one_users_archive(kit: Kit) -> None:
    s = kit.services
    conv = await s.messages.conversation("owner", "local", "a")
    elsewhere = await s.messages.conversation("someone-else", "local", "a")
    at = datetime(2026, 3, 1, tzinfo=UTC)
    for who in ("Ben", "Ana", "", "Ben", "Ana Silva"):
        await s.messages.add(conv, "user", "hello", at=at, speaker=who)
    await s.messages.add(elsewhere, "user", "hello", at=at, speaker="Cy")
    assert await s.messages.speakers("owner") == ["Ana", "Ana Silva", "Ben"]
    assert await s.messages.speakers("nobody") == []
