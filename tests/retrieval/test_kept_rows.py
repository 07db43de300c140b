"""The candidates' rows a search keeps in memory (kit/retrieval/rows.py) are the database's
rows: read once while their layer is unchanged, read again after any change to it, by this
process or another."""

from __future__ import annotations

import asyncio
from datetime import date, timedelta

import pytest

from kit.api import Kit
from kit.clock import FakeClock, to_iso
from kit.memory.fact_writer import Provenance
from kit.memory.messages import Message
from kit.memory.versions import MemoryVersions
from kit.retrieval.rows import KeptRows, _Layer

pytestmark = pytest.mark.stores

OWNER = Provenance("owner", "test")


def _rows(kit: Kit) -> tuple[KeptRows, MemoryVersions]:
    s = kit.services
    return KeptRows(s.facts, s.days, s.messages), MemoryVersions(s.db)


async def test_kept_facts_are_the_live_facts_after_every_change(kit: Kit, clock: FakeClock) -> None:
    s = kit.services
    now = clock.now()
    rows, versions = _rows(kit)
    tea = await kit.remember("Ana likes tea")
    unsure = await kit.remember("Ana may like coffee", confidence=0.1)
    soon = await kit.remember("Ana is in Porto", expires_at=now + timedelta(hours=1))
    other = await kit.remember("Bo likes chess", user="someone else")
    ids = [tea.id, unsure.id, soon.id, other.id, 10**9]

    async def agree(at: object = None) -> list[str]:
        when = now if at is None else at
        version = await versions.get("owner")
        kept = await rows.live_facts("owner", ids, when, version)  # type: ignore[arg-type]
        assert kept == await s.facts.live("owner", when, ids)  # type: ignore[arg-type]
        return [f.content for f in kept]

    assert await agree() == ["Ana likes tea", "Ana is in Porto"]
    assert await agree(now + timedelta(hours=2)) == ["Ana likes tea"]  # expiry: by the clock
    await s.facts.update("owner", tea.id, OWNER, content="Ana likes green tea")
    await s.facts.update("owner", unsure.id, OWNER, pinned=True)
    assert await agree() == ["Ana likes green tea", "Ana may like coffee", "Ana is in Porto"]
    # Another process's write: only the triggers' version bump tells this one.
    async with s.db.transaction() as tx:
        await tx.execute("UPDATE facts SET content = 'Ana likes mint tea' WHERE id = ?", (tea.id,))
    assert (await agree())[0] == "Ana likes mint tea"
    # Access stats (the usage boost's input), by a turn or by another process.
    await s.facts.touch("owner", [tea.id], now)
    assert await agree() == ["Ana likes mint tea", "Ana may like coffee", "Ana is in Porto"]
    version = await versions.get("owner")
    assert (await rows.live_facts("owner", [tea.id], now, version))[0].access_count == 1
    async with s.db.transaction() as tx:
        await tx.execute("UPDATE facts SET access_count = 7 WHERE id = ?", (tea.id,))
    version = await versions.get("owner")
    assert (await rows.live_facts("owner", [tea.id], now, version))[0].access_count == 7


async def test_kept_rows_are_read_once_while_their_layer_is_unchanged(
    kit: Kit, clock: FakeClock
) -> None:
    s = kit.services
    now = clock.now()
    rows, versions = _rows(kit)
    tea = await kit.remember("Ana likes tea")
    conv = await s.messages.conversation("owner", "local", "a")
    said = await s.messages.add(conv, "user", "we went to Porto")
    await s.days.put_detailed("owner", date(2026, 1, 2), "- a walk in Porto", 3)
    day = await s.days.get("owner", date(2026, 1, 2))
    assert day is not None
    v = await versions.get("owner")

    async def read() -> tuple[object, object, object]:
        return (
            (await rows.live_facts("owner", [tea.id], now, v))[0],
            (await rows.days("owner", [day.id], v))[0],
            (await rows.messages("owner", [said.id]))[0],
        )

    first = await read()
    again = await read()
    assert all(a is b for a, b in zip(first, again, strict=True))  # not read again
    await kit.remember("Ana likes jasmine tea")  # a fact changes: the facts are read anew
    v2 = await versions.get("owner")
    assert v2.facts != v.facts and v2.days == v.days
    assert (await rows.live_facts("owner", [tea.id], now, v2))[0] is not first[0]
    assert (await rows.days("owner", [day.id], v2))[0] is first[1]


async def test_a_day_rewritten_by_another_process_is_read_again(kit: Kit) -> None:
    s = kit.services
    rows, versions = _rows(kit)
    await s.days.put_detailed("owner", date(2026, 1, 2), "- a walk in Porto", 3)
    await s.days.put_detailed("owner", date(2026, 1, 1), "- rain all day", 2)
    listed = await s.days.listing("owner")
    ids = [d.id for d in listed][::-1]
    kept = await rows.days("owner", ids, await versions.get("owner"))
    assert [d.best for d in kept] == ["- rain all day", "- a walk in Porto"]  # by date
    async with s.db.transaction() as tx:
        await tx.execute("UPDATE days SET detailed = '- sun in Porto' WHERE day = '2026-01-02'")
    kept = await rows.days("owner", ids, await versions.get("owner"))
    assert [d.best for d in kept] == ["- rain all day", "- sun in Porto"]
    assert await rows.days("someone else", ids, await versions.get("someone else")) == []


async def test_a_forgotten_message_is_not_kept(kit: Kit, clock: FakeClock) -> None:
    s = kit.services
    rows, _ = _rows(kit)
    conv = await s.messages.conversation("owner", "local", "a")
    first = await s.messages.add(conv, "user", "we went to Porto")
    second = await s.messages.add(conv, "user", "the jury summons came")
    ids = [second.id, first.id, 10**9]
    assert [m.text for m in await rows.messages("owner", ids)] == [
        "we went to Porto",
        "the jury summons came",
    ]
    async with s.db.transaction() as tx:
        await tx.execute("DELETE FROM messages WHERE id = ?", (second.id,))
    rows.forget("owner")  # what `kit forget` and `kit restore --replace` do after removing rows
    assert [m.text for m in await rows.messages("owner", ids)] == ["we went to Porto"]
    assert await rows.messages("someone else", ids) == []


async def test_a_search_shows_a_fact_as_another_process_changed_it(
    kit: Kit, clock: FakeClock
) -> None:
    """End to end: the search's kept rows follow a change written past Kit's own API."""
    s = kit.services
    fact = await kit.remember("Ana's cat is called Miso")
    found = await kit.search("what is Ana's cat called", kinds=("fact",))
    assert [h.text for h in found] == ["Ana's cat is called Miso"]
    async with s.db.transaction() as tx:
        await tx.execute(
            "UPDATE facts SET content = ?, updated_at = ? WHERE id = ?",
            ("Ana's cat is called Tofu", to_iso(clock.now()), fact.id),
        )
    found = await kit.search("what is Ana's cat called", kinds=("fact",))
    assert [h.text for h in found] == ["Ana's cat is called Tofu"]
    assert found[0].fact is not None and found[0].fact.content == "Ana's cat is called Tofu"


async def test_rows_pushed_out_while_a_read_waits_are_still_returned(clock: FakeClock) -> None:
    """Two searches at once: the one reading its missing rows still returns the rows it found
    kept, even when the other pushed them out of the bounded layer meanwhile."""
    started, go = asyncio.Event(), asyncio.Event()

    def message(item: int) -> Message:
        at = clock.now()
        return Message(item, "owner", 1, "user", "", f"line {item}", at, at.date(), None, "chat")

    async def quick(user_id: str, ids: list[int]) -> list[Message]:
        return [message(i) for i in ids]

    async def slow(user_id: str, ids: list[int]) -> list[Message]:
        started.set()
        await go.wait()
        return [message(i) for i in ids]

    layer: _Layer[Message] = _Layer(None, limit=2)
    await layer.get("owner", [1], quick)
    first = asyncio.create_task(layer.get("owner", [1, 2], slow))  # 1 kept, 2 to read
    await started.wait()
    await layer.get("owner", [3, 4, 5], quick)  # pushes 1 out
    go.set()
    assert [m.id for m in await first] == [1, 2]
