"""Lexical search bounded by common words, on both stores (kit/retrieval/lexical.py,
kit/retrieval/pg_lexical.py): rows with a rarer word are ranked first by every word of the
query; rows with only common words are ranked among the newest, and only when the rare
words' rows are too few."""

from __future__ import annotations

from datetime import timedelta

import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.memory.messages import Conversation, NewMessage
from kit.retrieval.engines import lexical_search

pytestmark = pytest.mark.stores

COMMON = 20  # a word in more rows than this is common in these tests


async def fill(kit: Kit, clock: FakeClock, texts: list[str]) -> tuple[list[int], Conversation]:
    """One message per text, a minute apart, oldest first; their ids in that order."""
    s = kit.services
    conv = await s.messages.conversation("owner", "local", "words")
    start = clock.now() - timedelta(days=10)
    rows = [NewMessage("user", text, start + timedelta(minutes=i)) for i, text in enumerate(texts)]
    async with s.db.transaction() as tx:
        await s.messages.insert_bulk(tx, conv, rows, "import")
    found = await s.db.fetchall(
        "SELECT id FROM messages WHERE conversation_id = ? ORDER BY id", (conv.id,)
    )
    return [int(r[0]) for r in found], conv


async def lexical(
    kit: Kit, clock: FakeClock, query: str, common_rows: int, limit: int = 200
) -> list[tuple[int, float]]:
    return await lexical_search(kit.services.db).search(
        "owner",
        "message",
        query,
        limit,
        now=clock.now(),
        context_weight=0.2,
        common_rows=common_rows,
    )


GARDEN = [f"the garden needs water {n}" for n in range(60)]


async def test_a_query_of_rare_words_ranks_exactly_as_before(kit: Kit, clock: FakeClock) -> None:
    """No word past the limit: the one full BM25 query, same ids, order and scores."""
    await fill(kit, clock, [*GARDEN[:15], "a tulip in the garden", "tulip bulbs", "roses"])
    for query in ("tulip garden", "tulip", "garden roses water"):
        assert await lexical(kit, clock, query, COMMON) == await lexical(kit, clock, query, 0)


@pytest.mark.stores("sqlite")
async def test_rows_with_a_rare_word_keep_their_full_score(kit: Kit, clock: FakeClock) -> None:
    """'garden' is common: the tulip rows are still scored by both words, exactly, and rank
    above the rows with only the common word. (FTS5's frequencies are the whole index's;
    PostgreSQL's are the rows scored: the next test holds there.)"""
    ids, _ = await fill(kit, clock, ["a tulip in the garden", "tulip bulbs", *GARDEN])
    bounded = await lexical(kit, clock, "tulip garden", COMMON)
    full = dict(await lexical(kit, clock, "tulip garden", 0))
    assert {i for i, _ in bounded[:2]} == set(ids[:2])
    for item, score in bounded:
        assert score == full[item]


async def test_rows_with_a_rare_word_rank_above_those_with_only_common_ones(
    kit: Kit, clock: FakeClock
) -> None:
    """The rows holding the rare word (the one after 'tulip bulbs' holds it in the words of
    the message before it) come first; after them, the newest rows with only 'garden'."""
    ids, _ = await fill(kit, clock, ["a tulip in the garden", "tulip bulbs", *GARDEN])
    bounded = await lexical(kit, clock, "tulip garden", COMMON)
    assert {i for i, _ in bounded[:3]} == set(ids[:3])
    assert {i for i, _ in bounded[3:]} == set(ids[-COMMON:])
    assert min(s for _, s in bounded[:3]) > max(s for _, s in bounded[3:]) > 0


async def test_rows_with_only_common_words_are_taken_newest_first(
    kit: Kit, clock: FakeClock
) -> None:
    ids, _ = await fill(kit, clock, GARDEN)
    found = [i for i, _ in await lexical(kit, clock, "garden", COMMON)]
    assert sorted(found) == ids[-COMMON:]  # the newest window, and nothing older
    assert len(await lexical(kit, clock, "garden", 0)) == len(ids)


async def test_a_row_with_every_common_word_is_found_however_old(
    kit: Kit, clock: FakeClock
) -> None:
    both = "the garden shed roof"
    sheds = [f"the shed door {n}" for n in range(40)]
    ids, _ = await fill(kit, clock, [both, *GARDEN[:40], *sheds])
    found = [i for i, _ in await lexical(kit, clock, "garden shed", COMMON)]
    assert found[0] == ids[0]  # older than either word's newest rows, and the best match


async def test_enough_rows_with_a_rare_word_leave_the_common_ones_out(
    kit: Kit, clock: FakeClock
) -> None:
    """The rare word says what the query is about: when its rows fill the limit, rows with
    only the common word are not ranked at all."""
    tulips = [f"tulip bulb number {n}" for n in range(5)]
    ids, _ = await fill(kit, clock, [*tulips, *GARDEN])
    found = [i for i, _ in await lexical(kit, clock, "tulip garden", COMMON, limit=4)]
    assert len(found) == 4 and set(found) <= set(ids[:5])
    more = [i for i, _ in await lexical(kit, clock, "tulip garden", COMMON, limit=8)]
    assert set(ids[:5]) <= set(more) and len(more) == 8  # fewer: the newest garden rows join
