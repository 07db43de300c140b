"""The passages of long messages have vectors of their own, keyed by the model's id like every
vector, re-embedded by a change of model, gone with their message; a long message is found by
the passage that matches the question (issue 28, long turns)."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from datetime import UTC, date, datetime

import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.config import Settings
from kit.embed.hashing import HashingEmbedder
from kit.forget.scope import ForgetScope
from kit.llm.fake import FakeLLM
from kit.memory.messages import NewMessage
from kit.retrieval.passages import best_passage, split
from tests.support.tiny_onnx import TinyModels

pytestmark = pytest.mark.stores

# Many different words around the answer: the whole message's vector means all of them.
FILLER = [
    f"The {name} service moved to cluster {n} after the {name} audit in week {n + 3}."
    for n, name in enumerate(
        "billing search gateway ledger mailer scheduler auth reports uploads thumbnails"
        " metrics exporter webhooks invoices catalog pricing inventory shipping returns"
        " loyalty coupons ratings reviews wishlist".split()
    )
]
ANSWER = "Your sourdough starter needs feeding every twelve hours at room temperature."
LONG = " ".join([*FILLER[:12], ANSWER, *FILLER[12:]])
WHEN = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)
LATER = datetime(2024, 3, 9, 9, 0, tzinfo=UTC)


@pytest.fixture
async def kit(settings: Settings, clock: FakeClock) -> AsyncIterator[Kit]:
    """A Kit that gives long messages' passages vectors (`embedding.passages`, off by default)."""
    on = dataclasses.replace(
        settings, embedding=dataclasses.replace(settings.embedding, passages=True)
    )
    async with Kit.open(
        settings=on, llm=FakeLLM(), embedder=HashingEmbedder(), clock=clock, background=False
    ) as opened:
        yield opened


async def _import(kit: Kit) -> None:
    await kit.import_messages(
        [
            NewMessage("assistant", LONG, WHEN, "Assistant", "D1:2"),
            NewMessage("user", "I fed the cat this morning.", WHEN, "Me", "D1:3"),
        ],
        conversation="bread",
    )
    await kit.settle()


async def _passage_vectors(kit: Kit) -> list[tuple[int, str]]:
    rows = await kit.services.db.fetchall(
        "SELECT item_id, model_id FROM embeddings WHERE kind = 'passage' ORDER BY item_id"
    )
    return [(int(r[0]), str(r[1])) for r in rows]


async def test_a_long_message_gets_a_vector_per_passage_under_the_models_id(kit: Kit) -> None:
    await _import(kit)
    db = kit.services.db
    rows = await db.fetchall(
        "SELECT p.id, p.part, p.char_start, p.char_stop, m.ref FROM message_passages p"
        " JOIN messages m ON m.id = p.message_id ORDER BY p.part"
    )
    expected = split(LONG)
    assert [(int(r[2]), int(r[3])) for r in rows] == [(p.start, p.stop) for p in expected]
    assert {str(r[4]) for r in rows} == {"D1:2"}  # the short message has none
    vectors = await _passage_vectors(kit)
    assert [i for i, _ in vectors] == sorted(int(r[0]) for r in rows)
    assert {m for _, m in vectors} == {kit.embedding_model}
    await kit.settle()  # nothing derived or embedded twice
    assert len(await _passage_vectors(kit)) == len(expected)


async def test_a_long_message_is_found_by_the_passage_that_matches(kit: Kit) -> None:
    """By meaning alone (no words): the whole message's vector is the average of everything
    it says and stays under the cosine floor; its passage's is not."""
    await _import(kit)
    search = kit.services.search
    # the floor Kit had when this was measured: the whole message's cosine is under it
    vector_only = dataclasses.replace(search.params, lexical_weight=0.0, message_threshold=0.3)
    query = "how often should the sourdough starter get feeding"
    refs = {}
    for on in (False, True):
        search.params = dataclasses.replace(vector_only, passage_vectors=on)
        hits = await kit.search(query, kinds=("message",), now=LATER, k=5)
        refs[on] = {h.ref: h for h in hits}
    assert "D1:2" not in refs[False]
    hit = refs[True]["D1:2"]
    assert hit.cosine is not None and hit.cosine >= search.params.message_threshold
    assert ANSWER in hit.shown and hit.text == LONG


def test_the_passage_shown_is_the_one_that_matched_unless_another_holds_more_words() -> None:
    passages = split(LONG)
    answer = next(n for n, p in enumerate(passages, 1) if ANSWER in p.of(LONG))
    found = best_passage(LONG, {"feed"}, matched=answer)  # no passage holds "feed"
    assert found is not None and found[1] == answer
    found = best_passage(LONG, {"coupons"}, matched=answer)
    assert found is not None and found[1] != answer and "coupons" in found[0].of(LONG)
    found = best_passage(LONG, {"feed"}, matched=len(passages) + 5)  # stale: the first
    assert found is not None and found[1] == 1


async def test_forgetting_a_message_takes_its_passages_and_their_vectors(kit: Kit) -> None:
    await _import(kit)
    assert await _passage_vectors(kit)
    await kit.forget(ForgetScope.time(after=date(2024, 2, 28), before=date(2024, 3, 3)))
    db = kit.services.db
    assert await db.scalar("SELECT COUNT(*) FROM message_passages") == 0
    assert await _passage_vectors(kit) == []
    await kit.settle()  # and nothing derives them again
    assert await db.scalar("SELECT COUNT(*) FROM message_passages") == 0


async def test_a_change_of_model_re_embeds_the_passages(
    settings: Settings, tiny_models: TinyModels
) -> None:
    clock = FakeClock(LATER)
    a = tiny_models.a.settings(settings, passages=True)
    b = tiny_models.b.settings(settings, passages=True)
    async with Kit.open(settings=a, llm=FakeLLM(), clock=clock, background=False) as kit:
        await _import(kit)
        model_a = kit.embedding_model
        assert {m for _, m in await _passage_vectors(kit)} == {model_a}
    async with Kit.open(settings=b, llm=FakeLLM(), clock=clock, background=False) as kit:
        progress = await kit.reindex_progress()
        assert progress is not None and progress.total >= 2 + len(split(LONG))
        done = await kit.reindex()
        vectors = await _passage_vectors(kit)
        assert len(vectors) == len(split(LONG)) and {m for _, m in vectors} == {done.model}
        assert done.model != model_a
        hits = await kit.search("sourdough starter feeding", kinds=("message",), now=LATER)
        assert any(h.ref == "D1:2" for h in hits)


async def test_by_default_whole_messages_only_are_embedded(settings: Settings) -> None:
    off = settings  # embedding.passages is off unless the owner turns it on
    clock = FakeClock(LATER)
    async with Kit.open(
        settings=off, llm=FakeLLM(), embedder=HashingEmbedder(), clock=clock, background=False
    ) as kit:
        await _import(kit)
        assert await _passage_vectors(kit) == []
        assert await kit.services.vectors.pending_count() == 0
        hits = await kit.search("sourdough starter feeding", kinds=("message",), now=LATER)
        assert any(h.ref == "D1:2" and ANSWER in h.shown for h in hits)  # still shown by it
