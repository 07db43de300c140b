"""A context build checks what it keeps in memory (the cached part's versions, the shown facts,
the conversations' links, the word index's layers) in one statement, not one per check
(kit/retrieval/freshness.py), and still sees every change made since the last build."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.context.plan import Sandwich
from kit.memory.facts import Provenance
from kit.memory.messages import NewMessage

pytestmark = pytest.mark.stores

OWNER = Provenance("owner", "test")
TEXTS = [
    "I booked the ferry to Skye for the second week of June",
    "The dentist moved my appointment to Thursday morning",
    "Ana recommended a bakery near the harbour, the cardamom buns are great",
    "My sister is visiting in August, she wants to see the lighthouse",
]


async def archive(kit: Kit, clock: FakeClock) -> None:
    s = kit.services
    conv = await s.messages.conversation("owner", "local", "chat")
    at = clock.now() - timedelta(days=3)
    rows = [
        NewMessage("user" if n % 2 == 0 else "assistant", text, at + timedelta(minutes=n), "me")
        for n, text in enumerate(TEXTS * 5)
    ]
    async with s.db.transaction() as tx:
        await s.messages.insert_bulk(tx, conv, rows, "import")
    await kit.remember("Ana lives by the harbour")
    await kit.remember("The ferry leaves from Mallaig")
    await s.days.put_detailed(
        "owner", (clock.now() - timedelta(days=2)).date(), "Booked the ferry.", 2
    )
    await s.search.warm("owner")  # the word index, as a daemon loads it


def counting(kit: Kit, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every statement read through the store's reader seam from now on."""
    seen: list[str] = []
    cls = type(kit.services.db)
    original: Callable[..., Awaitable[list[Any]]] = cls.fetchall

    async def fetchall(self: Any, sql: str, params: Any = ()) -> list[Any]:
        seen.append(sql)
        return await original(self, sql, params)

    monkeypatch.setattr(cls, "fetchall", fetchall)
    return seen


async def build(kit: Kit, clock: FakeClock, query: str) -> Sandwich:
    s = kit.services
    return await s.context.build("owner", query, now=clock.now())


async def test_a_warm_build_checks_its_kept_state_in_one_statement(
    kit: Kit, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    await archive(kit, clock)
    await build(kit, clock, "when is the ferry")  # fills the cached part and the links
    seen = counting(kit, monkeypatch)
    await build(kit, clock, "where is the bakery Ana likes")
    versions = [sql for sql in seen if "memory_versions" in sql]
    assert len(versions) == 1, seen  # was twice: the cached part, then the shown facts
    if kit.services.db.engine == "sqlite":
        # The word index's three layers and the links were a statement each.
        checks = [sql for sql in seen if "_fts_data" in sql or "speaker FROM messages" in sql]
        assert checks == versions, seen
        assert len(seen) <= 3, seen  # the check, then the rows of the hits (days, messages)


async def test_the_one_check_gives_the_same_context_and_sees_every_change(
    kit: Kit, clock: FakeClock
) -> None:
    s = kit.services
    await archive(kit, clock)
    query = "what did Ana recommend near the harbour"
    await build(kit, clock, query)
    plan = await build(kit, clock, query)
    # The search as it reads its own checks: the same hits, the same scores.
    own = await s.search.search("owner", query, now=clock.now(), k=s.settings.memory.top_k)
    fresh = await s.search.freshness("owner")
    given = await s.search.search(
        "owner", query, now=clock.now(), k=s.settings.memory.top_k, fresh=fresh
    )
    assert [(h.kind, h.id, h.score) for h in given.hits] == [
        (h.kind, h.id, h.score) for h in own.hits
    ]
    assert {(h.kind, h.id) for h in plan.relevant} <= {(h.kind, h.id) for h in own.hits}

    # Changes since the last build: a new message (word index, links), a fact put aside
    # (shown facts, the cached part), a fact remembered.
    conv = await s.messages.conversation("owner", "local", "chat")
    async with s.db.transaction() as tx:
        await s.messages.insert_bulk(
            tx,
            conv,
            [NewMessage("user", "Ana says the quokka cafe opens at nine", clock.now(), "me")],
            "import",
        )
    harbour = next(f for f in await s.facts.core("owner", clock.now()) if "harbour" in f.content)
    await s.facts.deactivate("owner", harbour.id, OWNER)
    tea = await kit.remember("Ana drinks jasmine tea")
    after = await build(kit, clock, "the quokka cafe jasmine tea harbour")
    shown = {(h.kind, h.id) for h in after.relevant}
    newest = await s.db.scalar("SELECT max(id) FROM messages")
    assert ("message", newest) in shown
    # The owner's facts show in the cached part (core facts) or among the relevant ones.
    facts = {f.id for f in after.core_facts} | {i for kind, i in shown if kind == "fact"}
    assert tea.id in facts
    assert harbour.id not in facts
