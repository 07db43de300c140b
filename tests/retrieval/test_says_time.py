"""Whether a message's text places something in time is stored with it (m039 / pg039) and a
"when" question's search reads it instead of parsing every candidate's text again (issue 33,
round 15). Derived state, as m038's days: every write path derives it, messages stored before
the migration get it from it, and the search believes the stored value."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.memory.messages import NewMessage
from tests.retrieval.test_said_days import derived_by, restored, two_lessons

pytestmark = pytest.mark.stores

MONDAY = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)


async def says(kit: Kit) -> dict[str, int | None]:
    rows = await kit.services.db.fetchall(
        "SELECT text, says_time FROM messages WHERE user_id = 'owner' ORDER BY id"
    )
    return {str(r[0]): None if r[1] is None else int(r[1]) for r in rows}


async def test_every_write_path_stores_whether_a_message_says_a_time(
    kit: Kit, clock: FakeClock
) -> None:
    s = kit.services
    conv = await s.messages.conversation("owner", "local", "chat")
    added = await s.messages.add(conv, "user", "a party last Friday", at=MONDAY)
    await kit.import_messages(
        [NewMessage("user", "lived there for four years", MONDAY)], conversation="a"
    )
    # into a conversation that holds messages already: the staged path
    await kit.import_messages([NewMessage("user", "a dinner with Ana", MONDAY)], conversation="a")
    await s.messages.add(conv, "user", "no day named here", at=MONDAY)
    stored = await says(kit)
    assert stored == {
        "a party last Friday": 1,
        "lived there for four years": 1,
        "a dinner with Ana": 0,
        "no day named here": 0,
    }
    assert added.says_time is True
    assert [m.says_time for m in await s.messages.get_many("owner", [added.id])] == [True]
    assert await restored(kit, clock, "says_time") == stored


async def test_messages_stored_before_the_migration_get_whether_they_say_a_time(
    store: str, tmp_path: Path, request: pytest.FixtureRequest, clock: FakeClock
) -> None:
    assert await derived_by(store, tmp_path, request, clock, "039_message_says_time") == [
        ("kayak lesson last Friday", 1),
        ("kayak lesson", 0),
    ]


async def test_a_when_search_reads_whether_a_message_says_a_time(kit: Kit) -> None:
    """The search's time fit takes a message's `says_time` as stored, not from its text."""
    s = kit.services
    scores = await two_lessons(kit, "when was the kayak lesson")
    before = await scores()
    async with s.db.transaction() as tx:
        await tx.execute("UPDATE messages SET says_time = 1 WHERE text = 'kayak lesson number one'")
    after = await scores()
    lifted = 1 + s.search.params.time_weight
    assert lifted > 1
    assert after["kayak lesson number one"] == pytest.approx(
        before["kayak lesson number one"] * lifted
    )
    assert after["kayak lesson number two"] == before["kayak lesson number two"]
