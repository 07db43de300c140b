"""Two users in one database never see each other's memory, on any path."""

from __future__ import annotations

from datetime import timedelta

import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.errors import NotFound
from kit.memory.fact_writer import Provenance
from kit.retrieval.kinds import KINDS

pytestmark = pytest.mark.stores

USERS = ("ana", "ben")
SHARED = "garden tomatoes"  # both users talk about the same topic


async def seed(kit: Kit, clock: FakeClock) -> dict[str, dict[str, set[int]]]:
    """Each user: messages, a core fact, a relevant fact and two days, all about the garden."""
    s = kit.services
    ids: dict[str, dict[str, set[int]]] = {}
    for user in USERS:
        mark = f"secret{user}"
        conv = await s.messages.conversation(user, "local", "default")  # same external id
        messages = {
            (await s.messages.add(conv, "user", f"My {SHARED} need water {mark}")).id,
            (await s.messages.add(conv, "assistant", f"Water the {SHARED} at dawn {mark}")).id,
        }
        facts = {
            (await kit.remember(f"{user} grows {SHARED} {mark}", category="person", user=user)).id,
            (
                await kit.remember(
                    f"The {SHARED} bed is by the fence {mark}", category="projects", user=user
                )
            ).id,
        }
        days = set()
        for back in (1, 2):
            day = clock.now().date() - timedelta(days=back)
            await s.days.put_detailed(user, day, f"- worked in the {SHARED} {mark}", 2)
            found = await s.days.get(user, day)
            assert found is not None
            days.add(found.id)
        ids[user] = {"message": messages, "fact": facts, "day": days}
    await kit.settle()
    return ids


@pytest.fixture
async def seeded(kit: Kit, clock: FakeClock) -> dict[str, dict[str, set[int]]]:
    return await seed(kit, clock)


async def test_search_hits_belong_to_the_searching_user(
    kit: Kit, seeded: dict[str, dict[str, set[int]]]
) -> None:
    for user in USERS:
        hits = await kit.search(f"{SHARED} water", user=user)
        assert {(h.kind, h.id) for h in hits} == {
            (kind, i) for kind in KINDS for i in seeded[user][kind]
        }
        other = next(u for u in USERS if u != user)
        assert not [h for h in hits if f"secret{other}" in h.text]
        # a word only the other user used finds nothing at all
        assert await kit.search(f"secret{other}", user=user) == []


async def test_vector_matrices_hold_only_the_users_items(
    kit: Kit, seeded: dict[str, dict[str, set[int]]]
) -> None:
    vectors = kit.services.vectors
    query = await vectors.embed_query(SHARED)
    assert query is not None
    for user in USERS:
        for kind in KINDS:
            found = await vectors.search(user, kind, query, k=1000, threshold=-1.0)
            assert {i for i, _ in found} == seeded[user][kind], (user, kind)


async def test_context_sandwich_shows_only_the_users_memory(
    kit: Kit, seeded: dict[str, dict[str, set[int]]], clock: FakeClock
) -> None:
    for user in USERS:
        other = next(u for u in USERS if u != user)
        sandwich = await kit.services.context.build(user, f"{SHARED}?", now=clock.now())
        text = "\n".join(b.text for b in sandwich.system)
        assert f"secret{user}" in text
        assert f"secret{other}" not in text
        assert {f.user_id for f in sandwich.core_facts} == {user}
        assert {d.user_id for d in sandwich.recent_days} == {user}
        assert set(sandwich.fact_ids) <= seeded[user]["fact"]


async def test_rows_of_another_user_cannot_be_read_or_changed_by_id(
    kit: Kit, seeded: dict[str, dict[str, set[int]]]
) -> None:
    s = kit.services
    ben_fact = min(seeded["ben"]["fact"])
    with pytest.raises(NotFound):
        await s.facts.get("ana", ben_fact)
    with pytest.raises(NotFound):
        await kit.fact_history(ben_fact, user="ana")
    with pytest.raises(NotFound):
        await kit.forget_fact(ben_fact, reason="not mine", user="ana")
    with pytest.raises(NotFound):
        await s.facts.update("ana", ben_fact, Provenance(actor="api"), content="hijacked")
    assert (await s.facts.get("ben", ben_fact)).active
    assert await s.messages.get_many("ana", sorted(seeded["ben"]["message"])) == []
    assert await s.days.get_many("ana", sorted(seeded["ben"]["day"])) == []
    assert await s.facts.live("ana", kit.services.clock.now(), sorted(seeded["ben"]["fact"])) == []


async def test_lists_and_counts_are_per_user(
    kit: Kit, seeded: dict[str, dict[str, set[int]]], clock: FakeClock
) -> None:
    s = kit.services
    for user in USERS:
        assert await s.messages.count(user) == 2
        assert {f.id for f in await kit.facts(user=user)} == seeded[user]["fact"]
        assert {d.id for d in await kit.days(user=user)} == seeded[user]["day"]
        assert len(await s.days.recent(user, clock.now().date(), 5)) == 2
        assert [m.user_id for m in await s.messages.on_day(user, clock.now().date())] == [user] * 2
        assert await s.messages.days_with_messages(user) == [clock.now().date()]
    ana = await s.messages.conversation("ana", "local", "default")
    ben = await s.messages.conversation("ben", "local", "default")
    assert ana.id != ben.id
    assert {m.user_id for m in await s.messages.window(ana.id)} == {"ana"}


async def test_a_new_user_starts_with_empty_memory(
    kit: Kit, seeded: dict[str, dict[str, set[int]]], clock: FakeClock
) -> None:
    assert await kit.search(SHARED, user="cleo") == []
    sandwich = await kit.services.context.build("cleo", SHARED, now=clock.now())
    assert sandwich.core_facts == () and sandwich.recent_days == () and sandwich.relevant == ()
    assert await kit.days(user="cleo") == []
