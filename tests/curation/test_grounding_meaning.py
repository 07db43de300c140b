"""The grounding guard's meaning check (kit/curator/meaning.py): a fact whose hard parts all hold
but whose soft words fall short is stored when one sentence of its cited message says it, by
meaning, much more than the others do (the real MiniLM model); a fact with a hard part wrong is
never weighed; the check reads a pass's texts in one embedding call; with no model, or one it
was not measured with, the guard is the word-level one. Messages written here."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from datetime import UTC, datetime
from typing import Any

import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.config import Settings
from kit.curator.grounding import Grounding, Verdict
from kit.curator.meaning import BAR, MARGIN, Meanings, sentences
from kit.curator.ops import Insert
from kit.curator.unsaid import unsaid
from kit.embed.base import Vectors
from kit.embed.hashing import HashingEmbedder
from kit.llm.fake import FakeLLM
from kit.memory.messages import Message
from tests.support.curation import by_category, say, tool_reply
from tests.support.grounding import rules_only

AT = datetime(2023, 7, 9, 10, 0, tzinfo=UTC)
USER = "owner"

HIKES = "It rained all morning. I really like going on mountain hikes with my dog. My phone died."
HIKING = "The owner enjoys hiking mountain trails with their dog."


def message(said: str, id_: int = 1) -> Message:
    return Message(id_, "o", 1, "user", "", said, AT, AT.date(), None, "chat")


async def check(fact: str, said: str, meanings: Meanings | None) -> Verdict:
    grounding = Grounding([message(said)], [1], "", meanings)
    op = Insert(fact, 0.9, "", sources=(1,))
    await grounding.weigh([op], {})
    return grounding.check(op, {})


class Counting:
    """An embedder that counts its calls and the texts it was given (a hashing one inside)."""

    def __init__(self, model_id: str = "hashing-test") -> None:
        self._inner = HashingEmbedder()
        self.model_id = model_id
        self.calls: list[list[str]] = []

    @property
    def dim(self) -> int:
        return self._inner.dim

    async def embed(self, texts: Sequence[str]) -> Vectors:
        self.calls.append(list(texts))
        return await self._inner.embed(texts)


async def test_a_paraphrase_short_on_soft_words_is_stored_by_its_meaning(minilm: Any) -> None:
    """ "hiking mountain trails" for "going on mountain hikes": the word-level guard asks; one
    sentence of the message says it, by meaning, far more than the others."""
    assert (await check(HIKING, HIKES, None)).status == "partial"
    assert (await check(HIKING, HIKES, Meanings.calibrated(minilm))).status == "supported"


async def test_a_fact_its_message_does_not_say_stays_out(minilm: Any) -> None:
    """A fact on the message's topic that says something else: no sentence stands out."""
    said = "Long day at work. I sold my old bike last week. The weather is lovely here."
    fact = "The owner enjoys cycling on long routes at the weekend."
    words = await check(fact, said, None)
    assert words.status != "supported" and words.soft is not None  # the meaning is weighed
    assert (await check(fact, said, Meanings.calibrated(minilm))).status != "supported"


async def test_a_message_of_one_sentence_lifts_one_word_put_in_other_words(
    minilm: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No other sentence to stand out from, so no margin to read (docs/curation.md); since
    round 9 one common word put in other words is lifted when the sentence means the fact
    (kit/curator/grounding.py `_one_word_reworded`). A detail changed is not. (The rule
    itself: the weighing after it may still ask, tests/curation/test_grounding_weighing.py.)"""
    rules_only(monkeypatch)
    said = "I really like going on mountain hikes with my dog."
    meanings = Meanings.calibrated(minilm)
    assert (await check(HIKING, said, None)).status == "partial"
    assert (await check(HIKING, said, meanings)).status == "supported"
    for swapped in ("kayaking mountain trails", "hiking desert trails", "biking mountain trails"):
        fact = f"The owner enjoys {swapped} with their dog."
        assert (await check(fact, said, meanings)).status == "unsupported"
    weekly = "The owner enjoys going on mountain hikes with their dog every week."
    assert (await check(weekly, said, meanings)).status == "partial"  # two words unsaid


async def test_a_hard_part_wrong_is_never_weighed() -> None:
    """A number the message does not say drops the fact before any meaning is read."""
    embedder = Counting()
    meanings = Meanings(embedder, BAR, MARGIN)
    said = "It rained. I walk my 2 dogs along the river every morning. My phone died."
    verdict = await check("The owner walks 3 dogs along the river.", said, meanings)
    assert verdict.status == "unsupported" and verdict.soft is None
    assert embedder.calls == []


async def test_a_pass_is_read_in_one_embedding_call() -> None:
    """Every operation short on soft words, with its cited sentences, in one call; read
    texts are not embedded again."""
    embedder = Counting()
    said = [message(HIKES, 1), message("Work was busy. I'm a member of a choir. Talk soon.", 2)]
    grounding = Grounding(said, [1, 2], "", Meanings(embedder, BAR, MARGIN))
    ops = [
        Insert(HIKING, 0.9, "", sources=(1,)),
        Insert("The owner sings in a community choir.", 0.9, "", sources=(2,)),
        Insert("The owner has 4 dogs.", 0.9, "", sources=(1,)),  # a hard miss: not read
    ]
    await grounding.weigh(ops, {})
    assert len(embedder.calls) == 1
    (texts,) = embedder.calls
    assert HIKING in texts and "The owner has 4 dogs." not in texts
    assert set(sentences(HIKES)) <= set(texts)
    await grounding.weigh(ops, {})
    assert len(embedder.calls) == 1


def test_only_the_model_it_was_measured_with_checks_meaning() -> None:
    """Another model's cosines are on another scale: no meaning check, the word-level guard."""
    assert Meanings.calibrated(None) is None
    assert Meanings.calibrated(HashingEmbedder()) is None
    assert Meanings.calibrated(Counting("sentence-transformers/all-MiniLM-L6-v2")) is not None
    local = Counting("sentence-transformers/all-MiniLM-L6-v2@0a1b2c3d4e5f")  # a declared folder
    assert Meanings.calibrated(local) is not None


async def test_without_weighing_the_verdict_is_the_word_level_one() -> None:
    """A check of what `weigh` did not read (a caller that never weighs) keeps its words'."""
    embedder = Counting("sentence-transformers/all-MiniLM-L6-v2")
    grounding = Grounding([message(HIKES)], [1], "", Meanings.calibrated(embedder))
    verdict = grounding.check(Insert(HIKING, 0.9, "", sources=(1,)), {})
    assert verdict.status == "partial" and embedder.calls == []


@pytest.fixture
async def kit_minilm(
    settings: Settings, fake_llm: FakeLLM, clock: FakeClock, minilm: Any
) -> AsyncIterator[Kit]:
    async with Kit.open(
        settings=settings, llm=fake_llm, embedder=minilm, clock=clock, background=False
    ) as opened:
        yield opened


async def curate_hiking(kit: Kit, fake_llm: FakeLLM) -> set[str]:
    (said,) = await say(kit, HIKES)
    op = {"op": "INSERT", "subject": "", "confidence": 0.9, "content": HIKING,
          "sources": [said.id]}  # fmt: skip
    fake_llm.default = by_category({"person": tool_reply(op)})
    await kit.services.curator.curate_user(USER)
    return {f.content for f in await kit.facts()}


async def test_a_curation_pass_checks_meaning_with_the_search_model(
    kit_minilm: Kit, fake_llm: FakeLLM
) -> None:
    assert HIKING in await curate_hiking(kit_minilm, fake_llm)


async def test_a_curation_pass_with_another_model_is_word_level(
    kit: Kit, fake_llm: FakeLLM
) -> None:
    """The hashing embedder (tests, or embeddings off): the fact is asked about, as before."""
    assert HIKING not in await curate_hiking(kit, fake_llm)


async def test_remember_checks_meaning_with_the_search_model(minilm: Any) -> None:
    """The chat's `remember` shortcut (kit/curator/unsaid.py) holds a fact to the same bar."""

    async def model() -> Any:
        return minilm

    assert await unsaid("")(message(HIKES), HIKING, "") is not None  # words only: not stored
    assert await unsaid("", model)(message(HIKES), HIKING, "") is None
