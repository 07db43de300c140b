"""What a curation pass is shown of a category: all of it while it fits
`curation.facts_budget_tokens`, else the facts related to the batch (named in it, or found by
memory search for its messages), within the budget; and operations may name only those."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import AsyncIterator
from datetime import timedelta

import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.config import Settings
from kit.embed.hashing import HashingEmbedder
from kit.llm.base import LLMRequest
from kit.llm.fake import FakeLLM
from kit.llm.tokens import estimate_tokens
from kit.memory.fact_rows import Fact
from tests.support.curation import add_facts, all_facts, by_category, say, tool_reply

USER = "owner"
BUDGET = 500
_LISTED = re.compile(r"^#(\d+) \|", re.MULTILINE)
JOBS = ("baker", "pilot", "nurse", "welder", "teacher", "farmer", "lawyer", "painter")
CITIES = ("Lisbon", "Oslo", "Quito", "Hanoi", "Dakar", "Lima", "Riga", "Perth", "Cork")


def name(n: int) -> str:
    return "Zu" + "".join("bdfgklmnprstv"[int(d)] for d in f"{n:03d}")


def listed(request: LLMRequest) -> list[int]:
    """The fact ids a pass was shown, in the order shown."""
    return [int(i) for i in _LISTED.findall(request.system[1].text)]


def fact_list(request: LLMRequest) -> str:
    return "\n".join(line for line in request.system[1].text.splitlines() if _LISTED.match(line))


@pytest.fixture
async def kit(settings: Settings, fake_llm: FakeLLM, clock: FakeClock) -> AsyncIterator[Kit]:
    """A Kit whose curator shows a category in full only up to BUDGET tokens."""
    curation = dataclasses.replace(settings.curation, facts_budget_tokens=BUDGET)
    async with Kit.open(
        settings=dataclasses.replace(settings, curation=curation),
        llm=fake_llm,
        embedder=HashingEmbedder(4096),  # few hash collisions: only shared words match
        clock=clock,
        background=False,
    ) as opened:
        yield opened


async def dossiers(kit: Kit, count: int = 100) -> list[Fact]:
    """`count` people, one dossier each, ~14 tokens a line: far more than BUDGET in all."""
    facts = []
    for n in range(count):
        job, city = JOBS[n % len(JOBS)], CITIES[n % len(CITIES)]
        text = f"{name(n)} works as a {job} in {city}"
        facts += await add_facts(kit, "people", [text], subject=name(n))
    await kit.settle()  # embedded, as they are long before a conversation is curated
    return facts


async def people_pass(kit: Kit, fake_llm: FakeLLM) -> LLMRequest:
    await kit.services.curator.curate_user(USER)
    (request,) = fake_llm.requests_for("curate:people")
    return request


async def test_a_small_category_is_shown_whole_without_a_note(kit: Kit, fake_llm: FakeLLM) -> None:
    facts = await dossiers(kit, count=5)
    await say(kit, "Nothing to do with anyone.")
    request = await people_pass(kit, fake_llm)
    assert listed(request) == [f.id for f in facts]
    assert "only part" not in request.system[1].text


async def test_a_large_category_shows_the_named_dossier_within_the_budget(
    kit: Kit, fake_llm: FakeLLM
) -> None:
    facts = await dossiers(kit)
    deep = facts[73]
    await say(kit, f"{deep.subject} told me she is moving to Porto next month.")
    request = await people_pass(kit, fake_llm)
    shown = listed(request)
    assert deep.id in shown
    assert 0 < len(shown) < len(facts) and shown == sorted(shown)  # id order: stable prompt
    assert estimate_tokens(fact_list(request)) <= BUDGET
    note = request.system[1].text
    assert f"the {len(shown)} facts related to this conversation" in note
    assert "of the 100 active `people` facts" in note


async def test_forwarded_words_find_the_facts_about_whose_words_they_are(
    kit: Kit, fake_llm: FakeLLM
) -> None:
    facts = await dossiers(kit)
    deep = facts[42]
    conversation = await kit.services.messages.conversation(USER, "api", "default")
    await kit.services.messages.add(
        conversation, "user", "Running late, start without me!", forwarded_from=deep.subject
    )
    assert deep.id in listed(await people_pass(kit, fake_llm))


async def test_facts_about_what_was_said_are_shown_though_no_subject_is_named(
    kit: Kit, fake_llm: FakeLLM
) -> None:
    await dossiers(kit)
    raffle = "The garden party raffle won a secondhand blue Volvo estate for the family"
    (car,) = await add_facts(kit, "people", [raffle])
    await kit.settle()
    await say(kit, "The Volvo estate needs new tyres before winter.")
    assert car.id in listed(await people_pass(kit, fake_llm))


async def test_a_named_dossier_is_shown_even_when_search_fills_the_budget(
    kit: Kit, fake_llm: FakeLLM
) -> None:
    facts = []
    for n in range(100):  # every one matches the message's words better than the dossier
        text = f"{name(n)} hosted a garden party in Porto with lanterns and jazz"
        facts += await add_facts(kit, "people", [text], subject=name(n))
    (ines,) = await add_facts(kit, "people", ["Ines is the owner's aunt"], subject="Ines")
    await kit.settle()
    await say(kit, "The garden party in Porto with lanterns and jazz was great, Ines loved it.")
    shown = listed(await people_pass(kit, fake_llm))
    assert ines.id in shown and len(shown) < len(facts)


async def test_facts_about_someone_the_batch_names_come_before_look_alikes(
    kit: Kit, fake_llm: FakeLLM
) -> None:
    """Of the facts search finds for a message, those whose subject the batch names go first,
    even when other people's facts share more of its words."""
    for n in range(34):
        text = f"{name(n)} loved the Porto jazz festival with lanterns in the garden"
        await add_facts(kit, "people", [text], subject=name(n))
    hobbies = ("cello", "chess", "rowing", "pottery", "bees")
    ines = [
        (await add_facts(kit, "people", [f"Ines took up {h}"], subject="Ines"))[0] for h in hobbies
    ]
    await kit.settle()
    await say(kit, "Ines loved the Porto jazz festival with lanterns in the garden.")
    shown = listed(await people_pass(kit, fake_llm))
    assert {f.id for f in ines} <= set(shown) and len(shown) < 34


async def test_each_message_gets_its_best_facts_however_many_another_matches(
    kit: Kit, fake_llm: FakeLLM
) -> None:
    """A fact far down the first message's list but first in the second one's is shown."""
    await dossiers(kit, count=60)
    for n in range(35):
        text = f"{name(100 + n)} hosted a garden party in Porto with lanterns and jazz"
        await add_facts(kit, "people", [text], subject=name(100 + n))
    (car,) = await add_facts(
        kit, "people", ["The garden party raffle won a secondhand blue Volvo estate for the family"]
    )
    await kit.settle()
    await say(kit, "The garden party in Porto had lanterns and jazz.", "Sell the Volvo estate.")
    assert car.id in listed(await people_pass(kit, fake_llm))


async def test_a_large_category_with_nothing_related_shows_none_of_it(
    kit: Kit, fake_llm: FakeLLM
) -> None:
    await dossiers(kit)
    await say(kit, "Okay, thanks.")
    request = await people_pass(kit, fake_llm)
    assert listed(request) == []
    assert "the 0 facts related" in request.system[1].text
    assert "(none yet)" not in request.system[1].text  # the category is not empty


async def test_an_operation_on_a_fact_not_shown_is_dropped(kit: Kit, fake_llm: FakeLLM) -> None:
    """The model cannot know what an unshown fact says: changing it would be a guess. The
    operation is dropped with why (one bad operation never costs a pass its others)."""
    facts = await dossiers(kit)
    hidden = facts[5]
    fake_llm.default = by_category(
        {"people": tool_reply({"op": "UPDATE", "fact_id": hidden.id, "confidence": 0.3})}
    )
    await say(kit, f"{facts[60].subject} is a pilot now.")
    before = await all_facts(kit)
    outcomes = await kit.services.curator.curate_user(USER)
    assert hidden.id not in listed(fake_llm.requests_for("curate:people")[0])
    (bad,) = [o for o in outcomes if o.category == "people"]
    assert bad.status == "noop"
    assert f"fact #{hidden.id} was not among the facts shown to this pass" in bad.dropped[0]
    assert await all_facts(kit) == before


async def test_operations_on_shown_facts_of_a_large_category_apply(
    kit: Kit, fake_llm: FakeLLM
) -> None:
    facts = await dossiers(kit)
    first, second = facts[61], facts[87]
    fake_llm.default = by_category(
        {"people": tool_reply(
            {"op": "UPDATE", "fact_id": first.id, "content": f"{first.subject} is a pilot"},
            {"op": "REPLACE", "fact_ids": [second.id, facts[88].id], "confidence": 0.9,
             "subject": second.subject, "content": f"{second.subject} lives in Oslo"},
        )}
    )  # fmt: skip
    await say(kit, f"{first.subject} is a pilot now; {second.subject} and {facts[88].subject}")
    outcomes = await kit.services.curator.curate_user(USER)
    (done,) = [o for o in outcomes if o.category == "people"]
    assert done.status == "applied", done.reason
    record = await kit.services.curator.passes.get(USER, done.pass_id or 0)
    assert record.detail["facts_total"] == 100 and record.detail["facts_shown"] < 100


async def test_the_guard_counts_against_the_whole_category_not_the_shown_part(
    kit: Kit, fake_llm: FakeLLM
) -> None:
    """Retiring 6 of ~10 facts shown is 6 of 100 in the category: within the guard's half."""
    facts = await dossiers(kit)
    gone = facts[40:46]
    fake_llm.default = by_category(
        {"people": tool_reply(
            *({"op": "DEACTIVATE", "fact_id": f.id, "reason": "moved away"} for f in gone)
        )}
    )  # fmt: skip
    await say(kit, "These all moved abroad: " + ", ".join(f.subject for f in gone) + ".")
    outcomes = await kit.services.curator.curate_user(USER)
    shown = listed(fake_llm.requests_for("curate:people")[0])
    assert len(shown) < 2 * len(gone)  # over the guard's half of what was shown
    (done,) = [o for o in outcomes if o.category == "people"]
    assert done.status == "applied", done.reason
    assert set(done.changed_fact_ids) == {f.id for f in gone}


async def test_the_seven_passes_over_a_batch_share_one_search(
    kit: Kit, fake_llm: FakeLLM, clock: FakeClock
) -> None:
    """Seven categories, one batch: its messages are embedded once, not once per pass."""
    await dossiers(kit)
    for category in ("projects", "entities"):
        await add_facts(kit, category, [f"Item {n} in {CITIES[n % 9]}" for n in range(60)])
    await kit.settle()
    await say(kit, "Zubbb and Zubbd went to Lisbon.", "Then Oslo.")
    embedder = kit.services.vectors.embedder
    assert isinstance(embedder, HashingEmbedder)
    embedder.calls.clear()
    await kit.services.curator.curate_user(USER)
    assert embedder.calls == [2]  # the batch's two messages, in one call
    clock.advance(timedelta(minutes=1))
    await say(kit, "And Riga.")
    await kit.services.curator.curate_user(USER)
    assert embedder.calls == [2, 1]  # a new batch is searched afresh
