"""What a search keeps in memory between turns gives the database's answers: the facts that
may take a rank (kit/retrieval/liveness.py) and messages' neighbours (kit/retrieval/links.py)."""

from __future__ import annotations

import asyncio
import gc
import random
from datetime import datetime, timedelta

import pytest

from kit.api import Kit
from kit.clock import FakeClock, to_iso
from kit.memory.fact_writer import Provenance
from kit.memory.messages import NewMessage
from kit.memory.versions import MemoryVersions
from kit.retrieval.links import Links
from kit.retrieval.liveness import LiveFacts

pytestmark = pytest.mark.stores

OWNER = Provenance("owner", "test")


async def test_shown_facts_follow_every_change_to_a_fact(kit: Kit, clock: FakeClock) -> None:
    s = kit.services
    now = clock.now()
    live = LiveFacts(s.facts, MemoryVersions(s.db))
    plain = await kit.remember("Ana likes tea")
    unsure = await kit.remember("Ana may like coffee", confidence=0.1)
    soon = await kit.remember("Ana is in Porto", expires_at=now + timedelta(hours=1))
    gone = await kit.remember("Ana is in Lisbon", expires_at=now)
    ids = [plain.id, unsure.id, soon.id, gone.id, 10**9]

    async def agree(at: datetime | None = None) -> set[int]:
        when = now if at is None else at
        shown = (await live.snapshot("owner")).live(ids, when)
        assert shown == await s.facts.live_ids("owner", when, ids)
        return shown

    assert await agree() == {plain.id, soon.id}
    assert await agree(now + timedelta(hours=2)) == {plain.id}  # expiry needs no change
    await s.facts.update("owner", unsure.id, OWNER, pinned=True)  # pinned: shown however sure
    await s.facts.deactivate("owner", plain.id, OWNER)
    assert await agree() == {unsure.id, soon.id}
    # Another process's write: only the triggers' version bump tells this one.
    async with s.db.transaction() as tx:
        await tx.execute("UPDATE facts SET pinned = 0 WHERE id = ?", (unsure.id,))
    assert await agree() == {soon.id}
    assert (await live.snapshot("someone else")).live(ids, now) == set()


async def test_the_shown_facts_are_read_again_only_after_a_change(
    kit: Kit, clock: FakeClock
) -> None:
    s = kit.services
    live = LiveFacts(s.facts, MemoryVersions(s.db))
    await kit.remember("Ana likes tea")
    first = await live.snapshot("owner")
    assert await live.snapshot("owner") is first
    await kit.remember("Ana likes jasmine tea")
    assert await live.snapshot("owner") is not first


async def conversation_rows(kit: Kit, clock: FakeClock, seed: int) -> list[int]:
    """Three conversations written in turns (ids interleave), times mostly rising, with
    gaps of hours and days (other sittings) and one batch imported with older times."""
    s = kit.services
    rng = random.Random(seed)
    convs = [await s.messages.conversation("owner", "local", f"c{i}") for i in range(3)]
    other = await s.messages.conversation("someone else", "local", "c0")
    at = {c.id: clock.now() - timedelta(days=20) for c in [*convs, other]}
    for batch in range(12):
        conv = rng.choice([*convs, other] if batch % 5 == 4 else convs)
        rows = []
        for n in range(rng.randint(1, 6)):
            step = rng.choice([37, 600, 4_000, 30_000, 200_000]) + rng.random()
            at[conv.id] += timedelta(seconds=step)
            speaker = rng.choice(["", "Ana", "Bo", f"guest {batch}"])
            rows.append(NewMessage("user", f"batch {batch} line {n}", at[conv.id], speaker))
        if batch == 7:  # an import of older lines into a conversation
            rows = [NewMessage(r.role, r.text, r.at - timedelta(days=3), r.speaker) for r in rows]
        async with s.db.transaction() as tx:
            await s.messages.insert_bulk(tx, conv, rows, "import")
    found = await s.db.fetchall("SELECT id FROM messages ORDER BY id")
    return [int(r[0]) for r in found]


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_links_give_the_neighbours_the_database_gives(
    kit: Kit, clock: FakeClock, seed: int
) -> None:
    s = kit.services
    ids = [*await conversation_rows(kit, clock, seed), 10**9]
    links = await Links(s.db).current("owner")
    times = sorted(m.at for m in await s.messages.get_many("owner", ids))
    for now in (clock.now(), times[len(times) // 2], times[0] - timedelta(seconds=1)):
        for within in (None, timedelta(hours=6), timedelta(minutes=5)):
            expected = await s.messages.neighbours("owner", ids, now, within=within)
            assert links.neighbours(ids, now, within) == expected, (now, within)
    assert links.speakers == set(await s.messages.speakers("owner"))


async def test_links_take_in_new_messages_and_start_over_after_forget(
    kit: Kit, clock: FakeClock
) -> None:
    s = kit.services
    conv = await s.messages.conversation("owner", "local", "a")
    first = await s.messages.add(conv, "user", "one")
    links = Links(s.db)
    assert (await links.current("owner")).neighbours([first.id], clock.now()) == {
        first.id: (None, None)
    }
    clock.advance(timedelta(minutes=1))
    second = await s.messages.add(conv, "user", "two")
    kept = await links.current("owner")
    assert kept.neighbours([first.id], clock.now()) == {first.id: (None, second.id)}
    async with s.db.transaction() as tx:
        await tx.execute("DELETE FROM messages WHERE id = ?", (second.id,))
    links.forget("owner")
    assert (await links.current("owner")).neighbours([first.id], clock.now()) == {
        first.id: (None, None)
    }


async def test_a_message_that_commits_after_a_later_one_is_not_missed(
    kit: Kit, clock: FakeClock
) -> None:
    """PostgreSQL hands out ids before commit: a message can appear below the highest id a
    search already read. The links see it and are read anew."""
    s = kit.services
    conv = await s.messages.conversation("owner", "local", "a")
    first = await s.messages.add(conv, "user", "one")

    async def commit(item: int, text: str, minutes: int) -> None:
        at = clock.now() + timedelta(minutes=minutes)
        async with s.db.transaction() as tx:
            await tx.execute(
                "INSERT INTO messages (id, user_id, conversation_id, role, text, at, day,"
                " content_hash) VALUES (?, 'owner', ?, 'user', ?, ?, ?, ?)",
                (item, conv.id, text, to_iso(at), at.date().isoformat(), text),
            )

    later, late = first.id + 10, first.id + 5
    when = clock.now() + timedelta(hours=1)
    await commit(later, "three", 2)
    links = Links(s.db)
    assert (await links.current("owner")).neighbours([first.id], when) == {first.id: (None, later)}
    await commit(late, "two", 1)  # committed last, numbered before "three"
    ids = [first.id, late, later]
    kept = (await links.current("owner")).neighbours(ids, when)
    assert kept == await s.messages.neighbours("owner", ids, when)
    assert kept[late] == (first.id, later)


async def test_what_a_search_started_and_did_not_need_leaves_no_unseen_failure(
    kit: Kit, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without a vector no layer asks for the shown facts, whose read was started anyway:
    its failure must be seen (not logged as never retrieved) and the search still answers."""
    s = kit.services
    await kit.remember("Ana likes figs")
    unseen: list[str] = []
    loop = asyncio.get_running_loop()
    loop.set_exception_handler(lambda _, context: unseen.append(str(context.get("message"))))

    async def broken(user_id: str) -> object:
        raise RuntimeError("shown facts could not be read")

    assert s.search._live_facts is not None
    monkeypatch.setattr(s.search._live_facts, "snapshot", broken)
    s.vectors.embedder = None
    hits = await s.search.search("owner", "figs", now=clock.now(), k=5, kinds=("fact",))
    assert [h.text for h in hits.hits] == ["Ana likes figs"]
    await asyncio.sleep(0)
    gc.collect()
    await asyncio.sleep(0)
    loop.set_exception_handler(None)
    assert unseen == []
