"""The days a message's text names, read as of its day, are stored with it (m038 / pg038) and
a dated question's search reads them instead of parsing every candidate's text again (issue
33, round 14). Derived state: every write path derives them, messages stored before the
migration get them from it, and the stored form answers `Query.dated` as the text does."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.memory.messages import NewMessage
from kit.portability.export import export_document, to_json
from kit.portability.restore import restore
from kit.retrieval.query import understand
from kit.store.migrate import migrate
from tests.retrieval.test_named_days import lexical_only, stored_before
from tests.support.receipts import at_restore
from tests.support.schema import blank_store

pytestmark = pytest.mark.stores

MONDAY = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)

# Texts with and without the days they name, in the forms kit/dates reads (and words that
# look like a date and are none).
TEXTS = (
    "",
    "no day named here",
    "may I ask you something",
    "I ran a charity race last Friday",
    "a dinner yesterday, and the movie tonight",
    "we met on 03/05 and again on 2023-05-01",
    "the week before 9 June was busy",
    "two weeks ago we moved; last month we painted",
    "back in 2021, and over the weekend",
    "on Monday 8 May 2023 at 10am, then next Tuesday",
    "31 February 2023 is no day at all",
    "I have lived here for four years now",
    "in three days, the day after tomorrow, this summer",
    "since March 2020 and until December",
)
QUESTIONS = (
    "what did I do last week?",
    "what happened on 5 May?",
    "anything on 2023-05-01?",
    "what did we do at the weekend?",
    "when did I move two weeks ago?",
    "what was on in June 2023?",
    "what happened in 2021?",
)


def test_the_stored_days_answer_as_the_text_does() -> None:
    """`Query.dated` with the days stored for a text gives the answer the text's parse gives,
    for texts with and without dates, written on many days, against many questions' spans."""
    from kit.dates.text import said_days, said_spans

    days = [date(2023, 5, 8) + timedelta(days=n) for n in range(-400, 400, 9)]
    asked = [understand(q, date(2023, 6, 12), ()) for q in QUESTIONS]
    assert all(q.spans for q in asked)
    checked = dated = 0
    for text in TEXTS:
        for day in days:
            stored = said_days(text, day)
            assert len(stored.split()) == len(said_spans(text, day)), (text, day)
            for query in asked:
                for slack in (0, 7):
                    want = query.dated(day, text, slack)
                    got = query.dated(day, text, slack, stored)
                    assert got == want, (text, day, query.text)
                    checked += 1
                    dated += want
    assert checked and 0 < dated < checked  # both answers are tested


async def said(kit: Kit, user_id: str = "owner") -> dict[str, str | None]:
    rows = await kit.services.db.fetchall(
        "SELECT text, said_days FROM messages WHERE user_id = ? ORDER BY id", (user_id,)
    )
    return {str(r[0]): None if r[1] is None else str(r[1]) for r in rows}


async def test_every_write_path_stores_the_days_a_message_names(kit: Kit, clock: FakeClock) -> None:
    s = kit.services
    conv = await s.messages.conversation("owner", "local", "chat")
    added = await s.messages.add(conv, "user", "a party last Friday", at=MONDAY)
    await kit.import_messages([NewMessage("user", "a race yesterday", MONDAY)], conversation="a")
    # into a conversation that holds messages already: the staged path
    await kit.import_messages([NewMessage("user", "a dinner yesterday", MONDAY)], conversation="a")
    await s.messages.add(conv, "user", "no day named here", at=MONDAY)
    stored = await said(kit)
    assert stored == {
        "a party last Friday": "2023-05-05/2023-05-05",
        "a race yesterday": "2023-05-07/2023-05-07",
        "a dinner yesterday": "2023-05-07/2023-05-07",
        "no day named here": "",
    }
    assert added.said_days == "2023-05-05/2023-05-05"
    assert [m.said_days for m in await s.messages.get_many("owner", [added.id])] == [
        added.said_days
    ]
    assert await restored(kit, clock, "said_days") == stored


async def restored(kit: Kit, clock: FakeClock, column: str) -> dict[str, object]:
    """The owner's messages exported (`column` is not: it is derived) and restored as "copy":
    `column` of the copy's messages, by text."""
    s = kit.services
    document = json.loads(to_json(await export_document(s.db, "owner", clock.now())))
    assert column not in document["messages"][0]
    await restore(s.db, document, "copy", at_restore(s))
    rows = await s.db.fetchall(
        f"SELECT text, {column} FROM messages WHERE user_id = 'copy' ORDER BY id"
    )
    return {str(r[0]): r[1] for r in rows}


async def test_messages_stored_before_the_migration_get_the_days_they_name(
    store: str, tmp_path: Path, request: pytest.FixtureRequest, clock: FakeClock
) -> None:
    assert await derived_by(store, tmp_path, request, clock, "038_message_said_days") == [
        ("kayak lesson last Friday", "2023-05-05/2023-05-05"),
        ("kayak lesson", ""),
    ]


async def derived_by(
    store: str, tmp_path: Path, request: pytest.FixtureRequest, clock: FakeClock, migration: str
) -> list[tuple[str, object]]:
    """What `migration` ("038_message_said_days": its name past the engine's prefix) derives
    for two messages stored before it, in the column its name ends with."""
    column = migration.split("_", 2)[2]
    async with blank_store(store, tmp_path, request) as db:
        name = ("pg" if db.engine == "postgres" else "m") + migration
        await stored_before(
            db, clock, name[: name.index("_")], "kayak lesson last Friday", "kayak lesson"
        )
        assert name in await migrate(db, clock)
        rows = await db.fetchall(f"SELECT text, {column} FROM messages ORDER BY id")
        return [(str(r[0]), r[1]) for r in rows]


async def two_lessons(kit: Kit, query: str) -> Callable[[], Awaitable[dict[str, float]]]:
    """Two messages found by their words alone, written 90 and 60 days before Monday; what a
    search for `query` 100 days after Monday scores them, read afresh each time."""
    s = kit.services
    lexical_only(kit)
    await kit.import_messages(
        [
            NewMessage("user", "kayak lesson number one", MONDAY - timedelta(days=90)),
            NewMessage("user", "kayak lesson number two", MONDAY - timedelta(days=60)),
        ]
    )
    later = MONDAY + timedelta(days=100)

    async def scores() -> dict[str, float]:
        s.search.forget_cache()
        return {h.text: h.score for h in await kit.search(query, now=later)}

    return scores


async def test_a_dated_search_reads_the_days_stored_with_a_message(kit: Kit) -> None:
    """The search's date fit takes a message's days from its stored `said_days`, not from
    its text (so a store whose days were derived by a better reading is believed)."""
    s = kit.services
    scores = await two_lessons(kit, "kayak lesson on 5 May")
    before = await scores()
    # what a rederivation would store for the older one: it names Friday 5 May
    async with s.db.transaction() as tx:
        await tx.execute(
            "UPDATE messages SET said_days = '2023-05-05/2023-05-05'"
            " WHERE text = 'kayak lesson number one'"
        )
    after = await scores()
    lifted = 1 + s.search.params.date_weight
    assert after["kayak lesson number one"] == pytest.approx(
        before["kayak lesson number one"] * lifted
    )
    assert after["kayak lesson number two"] == before["kayak lesson number two"]
