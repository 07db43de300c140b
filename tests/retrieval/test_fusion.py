"""Score fusion and conversational neighbours in MemorySearch (the ranking `kit eval` tunes)."""

from __future__ import annotations

import dataclasses
from datetime import timedelta

import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.config import Settings
from kit.embed.hashing import HashingEmbedder
from kit.llm.fake import FakeLLM
from kit.memory.messages import Conversation, NewMessage
from tests.conftest import with_memory

pytestmark = pytest.mark.stores

LATER = timedelta(days=30)  # past the recency window: scores are relevance alone


async def say(kit: Kit, conv: Conversation, *texts: str) -> list[int]:
    return [(await kit.services.messages.add(conv, "user", t)).id for t in texts]


async def test_score_fusion_is_one_for_best_in_both_and_under_half_for_lexical_only(
    kit: Kit, clock: FakeClock
) -> None:
    s = kit.services
    s.search.params = dataclasses.replace(s.search.params, threshold=0.99)
    both = await kit.remember("kayak paddle", category="entities", confidence=1.0)
    lexical = await kit.remember("kayak", category="entities", confidence=1.0)  # cosine 0.71
    await kit.settle()
    hits = await kit.search("kayak paddle", kinds=("fact",), now=clock.now() + LATER)
    by_id = {h.id: h for h in hits}
    assert [h.id for h in hits] == [both.id, lexical.id]
    assert by_id[both.id].score == pytest.approx(1.0)
    assert by_id[lexical.id].cosine is None and by_id[lexical.id].lexical_rank == 2
    # half the weight, scaled by its BM25 against the best one's
    assert 0.0 < by_id[lexical.id].score < 0.5


async def test_a_reply_to_a_relevant_turn_outranks_the_same_words_elsewhere(
    kit: Kit, clock: FakeClock
) -> None:
    messages = kit.services.messages
    elsewhere = await messages.conversation("owner", "local", "b")
    here = await messages.conversation("owner", "local", "a")
    # the unrelated copy comes first, so an id tie-break would favour it
    (_, other) = await say(kit, elsewhere, "lunch was fine today", "which colour was the paddle")
    # the same words, not the same line (identical lines are one hit: see below)
    (_, reply) = await say(kit, here, "my kayak paddle snapped", "Which colour was the paddle?")
    await kit.settle()
    hits = await kit.search("kayak paddle colour", kinds=("message",), now=clock.now() + LATER)
    order = [h.id for h in hits]
    assert order.index(reply) < order.index(other)
    by_id = {h.id: h for h in hits}
    assert by_id[reply].score > by_id[other].score
    assert by_id[reply].cosine == pytest.approx(by_id[other].cosine)  # same own relevance


async def test_without_neighbour_weights_identical_turns_score_the_same(
    kit: Kit, clock: FakeClock
) -> None:
    """(Nor the previous turn's words in the lexical unit: test_units.py.)"""
    s = kit.services
    s.search.params = dataclasses.replace(
        s.search.params, previous_weight=0.0, next_weight=0.0, context_weight=0.0
    )
    elsewhere = await s.messages.conversation("owner", "local", "b")
    here = await s.messages.conversation("owner", "local", "a")
    (_, other) = await say(kit, elsewhere, "lunch was fine today", "which colour was the paddle")
    (_, reply) = await say(kit, here, "my kayak paddle snapped", "Which colour was the paddle?")
    await kit.settle()
    hits = {
        h.id: h
        for h in await kit.search("colour paddle", kinds=("message",), now=clock.now() + LATER)
    }
    assert hits[reply].score == pytest.approx(hits[other].score)


async def test_neighbours_stay_inside_a_conversation_and_before_now(
    kit: Kit, clock: FakeClock
) -> None:
    messages = kit.services.messages
    a = await messages.conversation("owner", "local", "a")
    b = await messages.conversation("owner", "local", "b")
    first = await messages.add(a, "user", "one")
    stranger = await messages.add(b, "user", "elsewhere")  # id between a's messages
    second = await messages.add(a, "user", "two", at=clock.now() + timedelta(hours=1))
    links = await messages.neighbours("owner", [first.id, stranger.id, second.id], clock.now())
    assert links[first.id] == (None, None)  # "two" is not written yet at this `now`
    assert links[stranger.id] == (None, None)
    assert links[second.id] == (first.id, None)
    later = await messages.neighbours("owner", [first.id], clock.now() + timedelta(hours=2))
    assert later[first.id] == (None, second.id)
    assert await messages.neighbours("someone-else", [first.id], clock.now()) == {}


async def test_rrf_fusion_remains_available(kit: Kit, clock: FakeClock) -> None:
    s = kit.services
    s.search.params = dataclasses.replace(s.search.params, fusion="rrf", rrf_k=60)
    only = await kit.remember("kayak paddle", category="entities", confidence=1.0)
    await kit.settle()
    (hit,) = await kit.search("kayak paddle", kinds=("fact",), now=clock.now() + LATER)
    assert hit.id == only.id and hit.score == pytest.approx(1.0)


async def test_a_zero_weight_switches_a_ranking_off(kit: Kit, clock: FakeClock) -> None:
    """vector_weight=0 is lexical search alone: vector-only candidates are not hits at all."""
    s = kit.services
    s.search.params = dataclasses.replace(
        s.search.params, vector_weight=0.0, threshold=0.0, message_threshold=0.0
    )
    word = await kit.remember("kayak paddle", category="entities")
    await kit.remember("paddling canoe trips", category="entities")  # no shared word
    await kit.settle()
    hits = await kit.search("kayak", kinds=("fact",), now=clock.now() + LATER)
    assert [h.id for h in hits] == [word.id]


async def test_many_dead_facts_above_a_live_one_cost_it_neither_rank_nor_slot(
    kit: Kit, clock: FakeClock
) -> None:
    """More deactivated near-duplicates than the first fetch holds: search asks for more."""
    s = kit.services
    s.search.params = dataclasses.replace(s.search.params, candidates=5)
    for _ in range(30):
        old = await kit.remember("kayak paddle", category="entities")
        await kit.forget_fact(old.id, reason="replaced")
    live = await kit.remember("kayak paddle club", category="entities")
    await kit.settle()
    hits = await kit.search("kayak paddle", kinds=("fact",), now=clock.now() + LATER)
    assert [(h.id, h.vector_rank, h.lexical_rank) for h in hits] == [(live.id, 1, 1)]


async def test_identical_lines_are_one_hit_with_their_count_and_newest_time(
    kit: Kit, clock: FakeClock
) -> None:
    """An echoed reply said ten times took ten of the places (issue 21): now it is one hit,
    and the places go to the other lines."""
    s = kit.services
    conv = await s.messages.conversation("owner", "local", "a")
    echo = "Sure, the kayak paddle is in the shed"
    said = [
        await s.messages.add(conv, "assistant", echo, at=clock.now() + timedelta(minutes=m))
        for m in range(10)
    ]
    others = [(await s.messages.add(conv, "user", f"kayak paddle note {n}")).id for n in range(4)]
    await kit.settle()
    hits = await kit.search("kayak paddle shed", kinds=("message",), now=clock.now() + LATER, k=5)
    echoes = [h for h in hits if h.text == echo]
    assert len(echoes) == 1
    assert echoes[0].repeats == 10 and echoes[0].latest == said[-1].at
    assert {h.id for h in hits if h.text != echo} == set(others)
    # the context shows it once, with its count and the day it was last said
    sandwich = await kit.context("kayak paddle shed", at=clock.now() + LATER)
    text = "\n".join(block.text for block in sandwich.system)
    assert text.count(echo) == 1
    assert f"(said 10×, the last on {said[-1].at.date().isoformat()})" in text


async def test_a_weak_best_lexical_match_no_longer_counts_as_certain(
    kit: Kit, clock: FakeClock
) -> None:
    """The lexical share is BM25 over the best match's, or over `lexical_reference` when
    the best is weaker: a match on common words alone stays small."""
    s = kit.services
    s.search.params = dataclasses.replace(
        s.search.params, threshold=1.1, message_threshold=1.1
    )  # words alone
    fact = await kit.remember("kayak", category="entities", confidence=1.0)
    await kit.settle()
    (alone,) = await kit.search("kayak", kinds=("fact",), now=clock.now() + LATER)
    p = s.search.params
    lexical_share = p.lexical_weight / (p.vector_weight + p.lexical_weight)
    assert alone.id == fact.id and alone.score == pytest.approx(lexical_share)  # words alone
    s.search.params = dataclasses.replace(s.search.params, lexical_reference=1e6)
    (weak,) = await kit.search("kayak", kinds=("fact",), now=clock.now() + LATER)
    assert 0 < weak.score < 0.001


async def test_a_named_speakers_name_need_not_be_a_word_to_match(
    kit: Kit, clock: FakeClock
) -> None:
    """Every message of Ana carries her name: as a word it lifted all of them over the one
    about the question's topic. With `speaker_names_as_words` off, the topic decides."""
    s = kit.services
    s.search.params = dataclasses.replace(
        s.search.params,
        threshold=1.1,
        message_threshold=1.1,
        previous_weight=0.0,
        next_weight=0.0,
        other_speaker_weight=0.4,
        speaker_names_as_words=True,  # as before (the default is now off)
    )
    now = clock.now()
    await kit.import_messages(
        [NewMessage("user", f"Ana here, lunch {n}", now, "Ana") for n in range(2)]
        + [NewMessage("user", f"Cy here, weather {n}", now, "Cy") for n in range(6)]
        + [NewMessage("user", "the kayak trip was fun", now, "Ben")],
    )
    await kit.settle()
    query = "What did Ana say about the kayak?"
    named = await kit.search(query, kinds=("message",), now=now + LATER, k=3)
    assert named[0].message is not None and named[0].message.speaker == "Ana"  # her name wins
    s.search.params = dataclasses.replace(s.search.params, speaker_names_as_words=False)
    (topic,) = await kit.search(query, kinds=("message",), now=now + LATER, k=3)
    assert topic.text == "the kayak trip was fun"  # Ana's own turns share no other word


async def test_a_strong_vector_hit_survives_fusion_without_a_shared_word(
    kit: Kit, clock: FakeClock
) -> None:
    """A cosine far above the layer's candidates is lifted into the first `strong_within`
    places even when thirty lexical matches outrank it, and is marked strong."""
    s = kit.services
    s.search.params = dataclasses.replace(
        s.search.params,
        previous_weight=0.0,
        next_weight=0.0,
        strong_within=5,
        strong_z=None,  # off first (the default lifts them)
        vector_weight=1.0,  # equal shares: the words outrank the meaning here
    )
    conv = await s.messages.conversation("owner", "local", "a")
    # shares the query's stopwords (the hashing embedder sees them), none of its words
    meant = await s.messages.add(conv, "user", "what did you do with them all after that")
    for n in range(30):
        await s.messages.add(conv, "user", f"kayak log {n}: what a day")
    await kit.settle()
    query = "what did you do with them all after that kayak"
    later = clock.now() + LATER
    before = [h.id for h in await kit.search(query, kinds=("message",), now=later, k=10)]
    assert meant.id not in before  # fusion alone: half the weight, below every word match
    s.search.params = dataclasses.replace(s.search.params, strong_z=2.0)
    hits = await kit.search(query, kinds=("message",), now=later, k=10)
    (strong,) = [h for h in hits if h.strong]
    assert strong.id == meant.id and [h.id for h in hits].index(meant.id) < 5
    assert strong.lexical_rank is None


async def test_a_larger_vector_share_lets_meaning_outrank_one_incidental_shared_word(
    kit: Kit, clock: FakeClock
) -> None:
    """With the vector share twice the lexical one, the turn closest in meaning (here: the
    hashing embedder's shared stopwords) outranks a turn sharing one word of the question;
    with equal shares the word wins. (The default share, 1.5, was chosen on two corpora:
    docs/retrieval-quality.md.)"""
    s = kit.services
    s.search.params = dataclasses.replace(
        s.search.params, previous_weight=0.0, next_weight=0.0, vector_weight=2.0
    )
    conv = await s.messages.conversation("owner", "local", "a")
    meant = await s.messages.add(conv, "user", "what did you do with them all after that")
    word = await s.messages.add(conv, "user", "kayak")
    await kit.settle()
    query = "what did you do with them all after that kayak"
    later = clock.now() + LATER
    first, *_ = await kit.search(query, kinds=("message",), now=later)
    assert first.id == meant.id
    s.search.params = dataclasses.replace(s.search.params, vector_weight=1.0)
    first, *_ = await kit.search(query, kinds=("message",), now=later)
    assert first.id == word.id


async def test_the_context_budget_cuts_a_strong_vector_hit_last(
    settings: Settings, clock: FakeClock
) -> None:
    """Over budget, the least relevant retrieved items go first, but a strong vector hit
    (its meaning stands out, whatever its words) only after every other one."""
    tight = with_memory(settings, context_budget_tokens=165)
    async with Kit.open(
        settings=tight, llm=FakeLLM(), embedder=HashingEmbedder(), clock=clock, background=False
    ) as kit:
        s = kit.services
        s.search.params = dataclasses.replace(
            s.search.params,
            previous_weight=0.0,
            next_weight=0.0,
            vector_weight=1.0,
            strong_z=2.0,
            strong_within=5,
        )
        conv = await s.messages.conversation("owner", "local", "a")
        meant = "what did you do with them all after that"
        await s.messages.add(conv, "user", meant)
        for n in range(30):
            await s.messages.add(conv, "user", f"kayak log {n}: what a day")
        await kit.settle()
        query = "what did you do with them all after that kayak"
        plan = await kit.context(query, at=clock.now() + LATER)
    kept = [h for h in plan.relevant if h.kind == "message"]
    assert plan.trimmed > 0 and len(kept) < 5  # the budget cut most of the fifteen
    assert meant in [h.text for h in kept]  # ranked fifth, it outlived the four above it
    assert [h.text for h in kept if h.strong] == [meant]


async def test_a_vector_floor_measures_cosines_from_the_crowd_not_from_zero(
    kit: Kit, clock: FakeClock
) -> None:
    """`vector_floor` (off by default): a vector score counts from that quantile of the
    layer's candidates up to the best, so the weakest candidate's vector share is zero."""
    s = kit.services
    s.search.params = dataclasses.replace(
        s.search.params, threshold=0.0, message_threshold=0.0, lexical_weight=0.0
    )
    await kit.remember("kayak paddle shed", category="entities", confidence=1.0)
    await kit.remember("kayak paddle", category="entities", confidence=1.0)
    await kit.remember("kayak", category="entities", confidence=1.0)
    await kit.settle()
    query = "kayak paddle shed"
    plain = [h.score for h in await kit.search(query, kinds=("fact",), now=clock.now() + LATER)]
    assert plain[0] == pytest.approx(1.0) and plain[-1] > 0.4  # cosine over the best's
    s.search.params = dataclasses.replace(s.search.params, vector_floor=0.0)
    floored = [h.score for h in await kit.search(query, kinds=("fact",), now=clock.now() + LATER)]
    assert floored[0] == pytest.approx(1.0) and floored[-1] == pytest.approx(0.0)
    assert plain[1] > floored[1] > 0.0


async def test_a_rank_cut_lets_the_best_vector_candidates_under_the_floor_take_part(
    kit: Kit, clock: FakeClock
) -> None:
    """With `floor_ranks`, the first vector candidates count whatever their cosine; the
    rest still have to reach the floor (issue 33: a rank-based cut beside it)."""
    s = kit.services
    s.search.params = dataclasses.replace(
        s.search.params, message_threshold=0.99, previous_weight=0.0, next_weight=0.0
    )
    conv = await s.messages.conversation("owner", "local", "a")
    ids = await say(kit, conv, "kayak paddle river", "kayak paddle", "kayak trip", "lunch was fine")
    await kit.settle()
    query = "kayak paddle river today"
    later = clock.now() + LATER
    floored = await kit.search(query, kinds=("message",), now=later)
    assert all(h.cosine is None for h in floored)  # nothing reaches 0.99
    s.search.params = dataclasses.replace(s.search.params, floor_ranks=2)
    hits = {h.id: h for h in await kit.search(query, kinds=("message",), now=later)}
    with_cosine = [i for i in ids if i in hits and hits[i].cosine is not None]
    assert len(with_cosine) == 2
    assert {hits[i].vector_rank for i in with_cosine} == {1, 2}
    assert all(hits[i].cosine < 0.99 for i in with_cosine)  # type: ignore[operator]


async def test_the_best_word_match_is_lifted_over_a_crowd_of_middling_cosines(
    kit: Kit, clock: FakeClock
) -> None:
    """With `lexical_lift`, the layer's best lexical candidates enter the first
    `lexical_within` places even when thirty closer cosines outrank them in fusion."""
    s = kit.services
    s.search.params = dataclasses.replace(
        s.search.params,
        previous_weight=0.0,
        next_weight=0.0,
        vector_weight=2.0,  # meaning twice the words: the crowd outranks the word match
        lexical_lift=0,
        lexical_within=5,
    )
    conv = await s.messages.conversation("owner", "local", "a")
    # the crowd shares the query's stopwords (the hashing embedder sees them), not its word
    for n in range(30):
        await s.messages.add(conv, "user", f"what did you do with them all after that {n}")
    word = await s.messages.add(conv, "user", "kayak")
    await kit.settle()
    query = "what did you do with them all after that kayak"
    later = clock.now() + LATER
    before = [h.id for h in await kit.search(query, kinds=("message",), now=later, k=10)]
    assert word.id not in before
    s.search.params = dataclasses.replace(s.search.params, lexical_lift=1)
    hits = await kit.search(query, kinds=("message",), now=later, k=10)
    order = [h.id for h in hits]
    assert word.id in order and order.index(word.id) < 5
    assert hits[order.index(word.id)].lexical_rank == 1


async def test_a_word_match_outside_the_vector_candidates_takes_its_own_cosine(
    kit: Kit, clock: FakeClock
) -> None:
    """With `cosines_for_words`, a word match the vector ranking left out (only the best
    `candidates` cosines are ranked) is scored by its cosine too, not by its words alone."""
    s = kit.services
    s.search.params = dataclasses.replace(
        s.search.params,
        candidates=2,
        message_threshold=0.0,
        previous_weight=0.0,
        next_weight=0.0,
        cosines_for_words=0,
    )
    conv = await s.messages.conversation("owner", "local", "a")
    # two turns closer in meaning (the query's stopwords), one holding its only word
    await say(kit, conv, "what did you do with them all after that", "what did you do after that")
    (word,) = await say(kit, conv, "the kayak, what did you do with it")
    await kit.settle()
    query = "what did you do with them all after that kayak"
    later = clock.now() + LATER
    hits = {h.id: h for h in await kit.search(query, kinds=("message",), now=later)}
    assert hits[word].vector_rank is None and hits[word].cosine is None
    without = hits[word].score
    s.search.params = dataclasses.replace(s.search.params, cosines_for_words=5)
    hits = {h.id: h for h in await kit.search(query, kinds=("message",), now=later)}
    assert hits[word].vector_rank is None  # not a vector candidate: ranked by its words
    assert hits[word].cosine is not None and hits[word].cosine > 0
    assert hits[word].score > without
