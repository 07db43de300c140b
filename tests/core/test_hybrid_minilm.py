"""Hybrid retrieval with the real MiniLM model: FTS5 finds rare names that cosine misses, and
cosine finds paraphrases that share no words with the archive."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import numpy as np
import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.config import Settings
from kit.llm.fake import FakeLLM
from kit.memory.messages import NewMessage

pytestmark = pytest.mark.integration

THANDIWE = (
    "Long day. Dropped the car at the garage, the roof invoice came in higher than expected, "
    "and Thandiwe says the Ethiopian place on Mill Road is worth it. Need to call the bank "
    "tomorrow."
)
PLUMBER = "Our neighbour recommended a plumber for the leaking tap"
DENTIST = "Booked the dentist for the 14th at 8:30"

# A month of an owner's notes: lots of people recommending things, one busy note naming Thandiwe.
ARCHIVE = [
    (41, "Can you recommend a good restaurant for Friday? Something quiet."),
    (40, "What would you recommend as a birthday gift for my dad? He likes fishing."),
    (38, "Marco recommended a book about sourdough baking, add it to my list"),
    (37, DENTIST),
    (36, "Priya suggested we try the new climbing gym on Thursday evenings"),
    (35, "Which laptop would you recommend for video editing under 1500?"),
    (33, "Ben recommended the podcast about ancient Rome, the one with the long episodes"),
    (31, "Remind me that the boiler service is due in April"),
    (30, "Lena recommended a dentist near the office who does evening appointments"),
    (29, "My manager recommended I take the leadership course in the autumn"),
    (27, "The doctor recommended more sleep and less coffee after 2pm"),
    (26, "Carla recommended the hiking trail above the lake, about 12 km"),
    (24, "Grandma sent her lemon cake recipe, she recommends using unwaxed lemons"),
    (22, THANDIWE),
    (21, "Jonas recommended a Python library for plotting, something like altair"),
    (20, "Any recommendations for a weekend trip from London in May?"),
    (18, "The mechanic recommended new brake pads before winter"),
    (16, "Ana recommended a documentary about octopuses"),
    (15, "Paid the council tax for the year"),
    (13, "What would you recommend for a first marathon training plan?"),
    (12, "The barista recommended the Kenyan beans, fruity and bright"),
    (10, "I would recommend booking the train early next time, it was packed"),
    (9, PLUMBER),
    (7, "Mum called, she wants to visit in June"),
    (5, "Tom suggested a budget app for tracking expenses"),
    (3, "Finished the quarterly report, sent it to Ines"),
]


@pytest.fixture
async def real_kit(settings: Settings, clock: FakeClock, minilm: Any) -> AsyncIterator[Kit]:
    """The archive imported through the public API and backfilled with the real model."""
    async with Kit.open(
        settings=settings, llm=FakeLLM(), embedder=minilm, clock=clock, background=False
    ) as kit:
        items = [NewMessage("user", text, clock.now() - timedelta(days=d)) for d, text in ARCHIVE]
        assert await kit.import_messages(items) == len(ARCHIVE)
        assert await kit.services.vectors.pending_count() == len(ARCHIVE)
        await kit.settle()
        assert await kit.services.vectors.pending_count() == 0
        yield kit


async def message_id(kit: Kit, text: str) -> int:
    row = await kit.services.db.fetchone("SELECT id FROM messages WHERE text = ?", (text,))
    assert row is not None
    return int(row[0])


async def test_rare_name_missed_by_cosine_is_found_by_fusion(real_kit: Kit) -> None:
    kit = real_kit
    target = await message_id(kit, THANDIWE)
    vectors = kit.services.vectors
    top_k = kit.settings.memory.top_k
    for query in ("What did Thandiwe recommend?", "Where did Thandiwe say we should eat?"):
        query_vector = await vectors.embed_query(query)
        assert query_vector is not None

        # cosine alone: low (under the messages' floor Kit had until round 3, 0.3), and
        # not the nearest
        nearest = await vectors.search("owner", "message", query_vector, top_k, -1.0)
        assert nearest[0][0] != target, query
        cosine = dict(nearest).get(target)
        assert cosine is None or cosine < 0.3, query

        # fused: among the first two, carried by its lexical rank (first for "recommend";
        # for "eat", under the 0.2 floor, the one vector candidate, "Can you recommend a good
        # restaurant…" at 0.215, takes the whole vector share and comes first)
        hits = await kit.search(query, kinds=("message",))
        found = next(h for h in hits if h.id == target)
        assert hits.index(found) < 2, query
        assert found.lexical_rank == 1, query
        assert found.cosine is None or found.cosine < nearest[0][1], query
    assert (await kit.search("What did Thandiwe recommend?", kinds=("message",)))[0].id == target


async def test_paraphrases_with_no_shared_words_are_found_by_meaning(
    real_kit: Kit, minilm: Any
) -> None:
    hits = await real_kit.search("who fixes leaky pipes", kinds=("message",))
    assert hits[0].text == PLUMBER
    assert hits[0].lexical_rank is None  # no word in common: only the model could find it
    assert hits[0].cosine is not None and hits[0].cosine >= 0.3

    hits = await real_kit.search("When is my tooth appointment?", kinds=("message",))
    assert DENTIST in [h.text for h in hits[:2]]
    dentist = next(h for h in hits if h.text == DENTIST)
    assert dentist.cosine is not None and dentist.cosine > 0.5

    # what backfill stored: unit-length 384-d vectors under the model's id
    rows = await real_kit.services.db.fetchall("SELECT model_id, vector FROM embeddings")
    assert {r[0] for r in rows} == {minilm.model_id}
    matrix = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(len(rows), -1)
    assert matrix.shape == (len(ARCHIVE), 384)
    assert np.allclose(np.linalg.norm(matrix, axis=1), 1.0, atol=1e-4)
