"""Backfill after the first sweep looks only above the newest message vector, yet misses
nothing: not new rows, not a row that reuses the id of a forgotten one."""

from __future__ import annotations

import pytest

from kit.api import Kit
from kit.memory.fact_writer import Provenance

pytestmark = pytest.mark.stores


async def test_new_messages_after_the_first_sweep_are_embedded(kit: Kit) -> None:
    s = kit.services
    conv = await s.messages.conversation("owner", "local", "default")
    for text in ("first", "second", "third"):
        await s.messages.add(conv, "user", f"{text} message")
    assert await s.vectors.backfill() == 3
    assert await s.vectors.backfill() == 0
    await s.messages.add(conv, "user", "fourth message about quinces")
    assert await s.vectors.backfill() == 1
    assert await s.vectors.pending_count() == 0
    hits = await kit.search("quinces", kinds=("message",))
    assert [h.text for h in hits][:1] == ["fourth message about quinces"]


async def test_a_reused_id_after_forgetting_the_newest_message_is_embedded(kit: Kit) -> None:
    s = kit.services
    conv = await s.messages.conversation("owner", "local", "default")
    await s.messages.add(conv, "user", "kept message")
    newest = await s.messages.add(conv, "user", "a message to forget")
    assert await s.vectors.backfill() == 2
    async with s.db.transaction() as tx:  # what forgetting does: the row and its vector go
        await tx.execute("DELETE FROM messages WHERE id = ?", (newest.id,))
        await tx.execute(
            "DELETE FROM embeddings WHERE kind = 'message' AND item_id = ?", (newest.id,)
        )
    s.vectors.forget_cache()
    again = await s.messages.add(conv, "user", "a new message about medlars")
    if s.db.engine == "sqlite":
        assert again.id == newest.id  # SQLite hands out the freed rowid again
    assert await s.vectors.backfill() == 1
    assert await s.vectors.pending_count() == 0
    hits = await kit.search("medlars", kinds=("message",))
    assert hits and hits[0].id == again.id and hits[0].cosine is not None


async def test_facts_changed_in_place_are_embedded_again(kit: Kit) -> None:
    """Facts are swept whole every time: an edit anywhere gets a fresh vector."""
    s = kit.services
    fact = await kit.remember("The spare key is under the blue pot", category="entities")
    await kit.remember("The bins go out on Tuesday", category="workflows")
    assert await s.vectors.backfill() == 2
    change = Provenance(actor="api", reason="moved")
    await s.facts.update("owner", fact.id, change, content="The spare key is with Ines")
    assert await s.vectors.backfill() == 1
    assert await s.vectors.pending_count() == 0
