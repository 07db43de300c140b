"""Expired facts are never shown: not in core facts, search, or the context sandwich."""

from __future__ import annotations

from datetime import timedelta

import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.memory.fact_rows import Fact

pytestmark = pytest.mark.stores


async def seed(kit: Kit, clock: FakeClock) -> dict[str, Fact]:
    now = clock.now()
    facts = {
        "core_expired": await kit.remember(
            "Ana is training for the Lisbon marathon", expires_at=now - timedelta(minutes=1)
        ),
        "core_live": await kit.remember(
            "Ana is training for the Porto marathon", expires_at=now + timedelta(days=30)
        ),
        "core_forever": await kit.remember("Ana runs the marathon every spring"),
        "other_expired": await kit.remember(
            "Marathon shoes are on order from the Lisbon shop",
            category="projects",
            expires_at=now - timedelta(days=3),
        ),
        "other_live": await kit.remember(
            "Marathon shoes are on order from the Porto shop",
            category="projects",
            expires_at=now + timedelta(hours=1),
        ),
        "pinned_expired": await kit.remember(
            "Marathon registration code is pending",
            category="workflows",
            pinned=True,
            expires_at=now,  # expiring exactly now counts as expired
        ),
    }
    await kit.settle()
    return facts


def names_of(ids: set[int], facts: dict[str, Fact]) -> set[str]:
    return {name for name, fact in facts.items() if fact.id in ids}


async def test_core_facts_skip_expired_ones(kit: Kit, clock: FakeClock) -> None:
    facts = await seed(kit, clock)
    core = await kit.services.facts.core("owner", clock.now())
    assert names_of({f.id for f in core}, facts) == {"core_live", "core_forever"}


async def test_search_skips_expired_facts(kit: Kit, clock: FakeClock) -> None:
    facts = await seed(kit, clock)
    hits = await kit.search("marathon Lisbon Porto shoes registration", kinds=("fact",))
    assert names_of({h.id for h in hits}, facts) == {"core_live", "core_forever", "other_live"}


async def test_sandwich_never_shows_expired_facts(kit: Kit, clock: FakeClock) -> None:
    facts = await seed(kit, clock)
    sandwich = await kit.services.context.build(
        "owner", "How is the Lisbon marathon going?", now=clock.now()
    )
    text = "\n".join(b.text for b in sandwich.system)
    assert "Lisbon" not in text and "registration" not in text
    assert "Porto marathon" in text and "Porto shop" in text
    assert names_of(set(sandwich.fact_ids), facts) == {"core_live", "core_forever", "other_live"}


async def test_fact_disappears_once_its_time_passes(kit: Kit, clock: FakeClock) -> None:
    facts = await seed(kit, clock)
    clock.advance(timedelta(hours=2))  # other_live expires
    hits = await kit.search("shoes order shop", kinds=("fact",))
    assert names_of({h.id for h in hits}, facts) == set()
    sandwich = await kit.services.context.build("owner", "shoes?", now=clock.now())
    assert "shoes" not in "\n".join(b.text for b in sandwich.system)


async def test_expiry_is_judged_at_the_time_searched(kit: Kit, clock: FakeClock) -> None:
    written = clock.now()
    fact = await kit.remember(
        "Gym membership trial runs out", category="projects", expires_at=written + timedelta(days=2)
    )
    await kit.settle()
    clock.advance(timedelta(days=5))
    assert await kit.search("gym membership trial", kinds=("fact",)) == []
    then = await kit.search(
        "gym membership trial", kinds=("fact",), now=written + timedelta(days=1)
    )
    assert [h.id for h in then] == [fact.id]


async def test_expired_facts_stay_listed_with_their_history(kit: Kit, clock: FakeClock) -> None:
    """Expiry hides a fact from the model; it is not deleted."""
    facts = await seed(kit, clock)
    listed = {f.id for f in await kit.facts()}
    assert {f.id for f in facts.values()} <= listed
    history = await kit.fact_history(facts["core_expired"].id)
    assert [h.operation for h in history] == ["insert"]
    assert not facts["core_expired"].is_live(clock.now())
    assert facts["core_live"].is_live(clock.now())


async def test_live_ids_are_the_ids_live_reads(kit: Kit, clock: FakeClock) -> None:
    """The id-only check search uses for vector candidates keeps what `live` would read."""
    facts = await seed(kit, clock)
    ids = sorted(f.id for f in facts.values())
    s = kit.services
    live = await s.facts.live("owner", clock.now(), ids)
    assert await s.facts.live_ids("owner", clock.now(), ids) == {f.id for f in live}
    assert names_of({f.id for f in live}, facts) == {"core_live", "core_forever", "other_live"}
    assert await s.facts.live_ids("someone else", clock.now(), ids) == set()
