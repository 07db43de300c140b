"""A message is indexed with the days its own words name, read as of the day it was written
(m024 / pg024): "last Friday" said on Monday 8 May 2023 is found by a later question about
5 May. The words are derived state: every write path derives them, and messages stored
before the migration get them from it."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.config import Settings, StorageSettings
from kit.memory.messages import NewMessage
from kit.portability.export import export_document, to_json
from kit.portability.restore import restore
from kit.store.db import Database
from kit.store.engines import open_database
from kit.store.migrate import migrate, migrations_for
from tests.support import postgres
from tests.support.receipts import at_restore
from tests.support.schema import migrate_before

pytestmark = pytest.mark.stores

MONDAY = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
LATER = datetime(2023, 9, 1, 12, 0, tzinfo=UTC)


def lexical_only(kit: Kit) -> None:
    """Words alone decide (no vectors, no neighbours, no recency): what the index holds shows."""
    s = kit.services.search
    s.params = dataclasses.replace(
        s.params,
        threshold=1.1,
        message_threshold=1.1,
        previous_weight=0.0,
        next_weight=0.0,
        recency_boost=0.0,
    )


async def texts(kit: Kit, query: str) -> list[str]:
    hits = await kit.search(query, kinds=("message",), now=LATER, k=10)
    return [h.text for h in hits]


async def named(kit: Kit) -> dict[str, str | None]:
    rows = await kit.services.db.fetchall("SELECT text, named_days FROM messages ORDER BY id")
    return {str(r[0]): None if r[1] is None else str(r[1]) for r in rows}


async def test_a_day_a_message_names_finds_it_later(kit: Kit) -> None:
    # every message of that May matches "May": the one that names the 5th must come first
    await kit.import_messages(
        [
            *(
                NewMessage("user", f"nothing much, chores {n}", datetime(2023, 5, n, tzinfo=UTC))
                for n in (2, 3, 4, 9, 10, 11, 12)
            ),
            NewMessage("user", "I ran a charity race last Friday", MONDAY),
        ]
    )
    lexical_only(kit)
    for question in ("what did I do on 5 May?", "what happened on 2023-05-05?", "on 05/05/2023"):
        assert (await texts(kit, question))[:1] == ["I ran a charity race last Friday"], question
    assert (await texts(kit, "what did I do on 3 May?"))[:1] == ["nothing much, chores 3"]


async def test_a_relative_question_finds_what_was_said_about_that_day(kit: Kit) -> None:
    """ "The day before yesterday" asked on Tuesday 9 May is Sunday 7 May: the message that
    told of it on Monday ("yesterday") is found, not the other days' messages."""
    tuesday = MONDAY + timedelta(days=1)
    await kit.import_messages(
        [
            NewMessage("user", "quiet day, nothing to report", MONDAY - timedelta(days=3)),
            NewMessage("user", "I went to a support group yesterday", MONDAY),
            NewMessage("user", "the weather turned", tuesday - timedelta(days=20)),
        ]
    )
    lexical_only(kit)
    hits = await kit.search(
        "what did I do the day before yesterday?", kinds=("message",), now=tuesday, k=3
    )
    assert hits[0].text == "I went to a support group yesterday"


async def test_every_write_path_derives_the_days_a_message_names(
    kit: Kit, settings: Settings, clock: FakeClock
) -> None:
    s = kit.services
    conv = await s.messages.conversation("owner", "local", "chat")
    await s.messages.add(conv, "user", "a party last Friday", at=MONDAY)
    await kit.import_messages([NewMessage("user", "a race yesterday", MONDAY)], conversation="a")
    # into a conversation that holds messages already: the staged path
    await kit.import_messages([NewMessage("user", "a dinner yesterday", MONDAY)], conversation="a")
    await s.messages.add(conv, "user", "no day named here", at=MONDAY)
    derived = await named(kit)
    assert derived == {
        "a party last Friday": "5",  # its own words hold "Friday" already
        "a race yesterday": "Sunday 7",
        "a dinner yesterday": "Sunday 7",
        "no day named here": "",
    }
    document = json.loads(to_json(await export_document(s.db, "owner", clock.now())))
    assert "named_days" not in document["messages"][0]  # derived: never exported
    await restore(s.db, document, "copy", at_restore(s))
    rows = await s.db.fetchall(
        "SELECT text, named_days FROM messages WHERE user_id = 'copy' ORDER BY id"
    )
    assert {str(r[0]): str(r[1]) for r in rows} == derived


@pytest.fixture
def blank(settings: Settings, store: str, request: pytest.FixtureRequest) -> Iterator[Settings]:
    """Settings naming a store with no schema at all (tests' PostgreSQL databases are made
    from a migrated template)."""
    if store == "sqlite":
        yield settings
        return
    server = request.getfixturevalue("postgres_server")
    url = postgres.fresh_database(server, empty=True)
    try:
        yield dataclasses.replace(settings, storage=StorageSettings(url=url))
    finally:
        postgres.drop_database(server, url)


async def stored_before(db: Database, clock: FakeClock, migration: str, *texts: str) -> None:
    """Messages written on Monday 8 May 2023 by a Kit migrated up to `migration` (not
    including it), with only the columns it had then."""
    await migrate_before(db, clock, migration)
    async with db.transaction() as tx:
        conv = await tx.insert(
            "INSERT INTO conversations (user_id, channel, external_id, created_at)"
            " VALUES ('owner', 'local', 'x', '2023-05-08T00:00:00+00:00')"
        )
        for text in texts:
            await tx.execute(
                "INSERT INTO messages (user_id, conversation_id, role, text, at, day,"
                " content_hash) VALUES ('owner', ?, 'user', ?,"
                " '2023-05-08T13:56:00+00:00', '2023-05-08', 'h')",
                (conv, text),
            )


async def test_messages_stored_before_the_migration_get_the_days_they_name(
    blank: Settings, clock: FakeClock
) -> None:
    settings = blank
    async with open_database(settings) as db:
        prefix = "pg024" if db.engine == "postgres" else "m024"
        await stored_before(db, clock, prefix, "kayak lesson last Friday", "kayak lesson")
        assert [m.name for m in migrations_for(db) if m.name >= prefix][:1] == [
            f"{prefix}_message_named_days"
        ]
        await migrate(db, clock)
        rows = await db.fetchall("SELECT text, named_days FROM messages ORDER BY id")
        assert [tuple(r) for r in rows] == [
            ("kayak lesson last Friday", "5"),
            ("kayak lesson", ""),
        ]
    async with Kit.open(settings=settings, clock=clock, with_embedder=False) as kit:
        lexical_only(kit)
        assert (await texts(kit, "kayak on 5 May"))[:1] == ["kayak lesson last Friday"]
        assert (await texts(kit, "kayak on 8 May"))[0] in (
            "kayak lesson",
            "kayak lesson last Friday",
        )


async def test_the_index_follows_a_rederived_day(kit: Kit) -> None:
    """A later migration that reads dates better derives the words again: the index
    follows the column."""
    s = kit.services
    conv = await s.messages.conversation("owner", "local", "chat")
    said = await s.messages.add(conv, "user", "the ferry trip", at=MONDAY)
    lexical_only(kit)
    assert await texts(kit, "ferry on 20 April") == ["the ferry trip"]  # "ferry" alone
    async with s.db.transaction() as tx:
        await tx.execute(
            "UPDATE messages SET named_days = 'Thursday 20 April' WHERE id = ?", (said.id,)
        )
    hits = await kit.search("on 20 April", kinds=("message",), now=LATER, k=3)
    assert [h.id for h in hits] == [said.id]


async def test_a_message_at_a_dst_change_is_read_as_of_its_local_day(
    tmp_path: Path, settings: Settings, clock: FakeClock
) -> None:
    """Written at 00:30 in Berlin on the night clocks go forward (23:30 UTC the day
    before): "yesterday" is the local day before, Saturday 25 March 2023."""
    berlin = dataclasses.replace(
        settings, schedule=dataclasses.replace(settings.schedule, timezone="Europe/Berlin")
    )
    async with Kit.open(settings=berlin, clock=clock, with_embedder=False) as kit:
        conv = await kit.services.messages.conversation("owner", "local", "chat")
        at = datetime(2023, 3, 25, 23, 30, tzinfo=UTC)
        message = await kit.services.messages.add(conv, "user", "a long walk yesterday", at=at)
        assert message.day.isoformat() == "2023-03-26"
        assert await named(kit) == {"a long walk yesterday": "Saturday 25"}


@pytest.mark.parametrize(("configured", "read"), [("dmy", "2023-05-03"), ("mdy", "2023-03-05")])
async def test_a_question_reads_numeric_days_in_the_configured_order(
    settings: Settings, clock: FakeClock, configured: str, read: str
) -> None:
    ordered = dataclasses.replace(
        settings, memory=dataclasses.replace(settings.memory, date_order=configured)
    )
    async with Kit.open(settings=ordered, clock=clock, with_embedder=False) as kit:
        lexical_only(kit)
        await kit.import_messages(
            [
                NewMessage("user", "the ferry trip", datetime(2023, 5, 3, 9, tzinfo=UTC)),
                NewMessage("user", "the ferry trip", datetime(2023, 3, 5, 9, tzinfo=UTC)),
            ]
        )
        (best,) = await kit.search("the ferry on 03/05/2023", kinds=("message",), now=LATER, k=1)
        assert best.at.date().isoformat() == read
