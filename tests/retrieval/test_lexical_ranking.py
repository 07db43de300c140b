"""Lexical ranking is BM25 on both stores: a rare word weighs more than one every row holds."""

from __future__ import annotations

import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.retrieval.engines import lexical_search

pytestmark = pytest.mark.stores


async def test_a_rare_word_outranks_a_word_every_message_holds(kit: Kit, clock: FakeClock) -> None:
    """Inverse document frequency: PostgreSQL's ts_rank has none, and would rank the short
    messages holding only the common name above the longer one holding the rare word."""
    messages = kit.services.messages
    conv = await messages.conversation("owner", "local", "a")
    common = [(await messages.add(conv, "user", f"Caroline said {w}")).id for w in "abcdefgh"]
    rare = await messages.add(conv, "user", "we talked a long while about the pottery workshop")
    hits = await lexical_search(kit.services.db).search(
        "owner", "message", "Caroline pottery", 10, now=clock.now()
    )
    assert hits[0][0] == rare.id
    assert {i for i, _ in hits[1:]} == set(common)


async def test_more_of_a_word_in_a_shorter_message_ranks_higher(kit: Kit, clock: FakeClock) -> None:
    """Term frequency, saturated and normalised by length, as FTS5's bm25() does it."""
    messages = kit.services.messages
    conv = await messages.conversation("owner", "local", "a")
    await messages.add(conv, "user", "nothing to see here at all")
    once = await messages.add(conv, "user", "the kayak was red and the lake was cold that morning")
    twice = await messages.add(conv, "user", "kayak, kayak")
    hits = await lexical_search(kit.services.db).search(
        "owner", "message", "kayak", 10, now=clock.now()
    )
    assert [i for i, _ in hits] == [twice.id, once.id]
    assert hits[0][1] > hits[1][1] > 0
