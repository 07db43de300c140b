"""The grounding guard in a curation run: a careless scripted curator over a short owner ↔ Kit
day. Each unsupported operation is dropped on its own (or asked about), with its reason in
the pass record; the supported ones land; no pass is lost for one bad operation."""

from __future__ import annotations

from datetime import UTC
from typing import Any

import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.digest.render import render_text
from kit.llm.fake import FakeLLM
from kit.memory.messages import Message
from tests.support.curation import by_category, say, tool_reply
from tests.support.digest import at

pytestmark = pytest.mark.stores

USER = "owner"


async def a_day(kit: Kit) -> dict[str, Message]:
    """The owner's day with Kit, as messages by name."""
    said: dict[str, Message] = {}
    for name, role, text in (
        ("sister", "user", "My sister Ana lives in Porto and works as a nurse."),
        ("advice", "assistant", "You could try meditating every morning to unwind."),
        ("thanks", "user", "Thanks, I'll think about it. I prefer tea to coffee, by the way."),
        ("abroad", "user", "If I ever move abroad, I'd love to live in Lisbon."),
        ("hugo", "user", "Should I switch my blog to Hugo?"),
        ("brother", "user", "My brother Tom is vegan."),
        ("fine", "user", "I paid £70 for a parking fine in March."),
        ("kids", "user", "We have two kids, Mia and Leo."),
        ("work", "user", "I work as a data engineer at Acme."),
    ):
        (said[name],) = await say(kit, text, role=role)
    return said


def careless(said: dict[str, Message]) -> tuple[dict[str, Any], list[str], list[str]]:
    """The scripted curator's answers per category: 8 operations its messages support and 12
    they do not. Returns (answers, supported contents, unsupported contents)."""

    def op(content: str, *cites: str, subject: str = "") -> dict[str, Any]:
        sources = [said[c].id for c in cites]
        return {"op": "INSERT", "content": content, "subject": subject, "confidence": 0.9,
                "sources": sources}  # fmt: skip

    good = {
        "people": [
            op("Ana, the owner's sister, lives in Porto.", "sister", subject="Ana"),
            op("Ana works as a nurse.", "sister", subject="Ana"),
            op("The owner's brother Tom is vegan.", "brother", subject="Tom"),
            op("The owner has two kids, Mia and Leo.", "kids"),
        ],
        "person": [
            op("The owner works as a data engineer at Acme.", "work"),
            op("The owner paid £70 for a parking fine in March.", "fine"),
            op("The owner would love to live in Lisbon if they ever move abroad.", "abroad"),
        ],
        "preferences": [op("The owner prefers tea to coffee.", "thanks")],
    }
    bad = {
        "people": [
            op("Ana, the owner's sister, lives in Lisbon.", "sister", subject="Ana"),  # city
            op("The owner has three kids, Mia, Leo and Sam.", "kids"),  # child
            op("The owner's daughter Mia plays the piano.", "fine"),  # unrelated message
        ],
        "person": [
            op("The owner works as a teacher at Acme.", "work"),  # job
            op("The owner paid £90 for a parking fine in March.", "fine"),  # amount
            op("The owner paid a parking fine in May.", "fine"),  # month
            op("The owner lives in Lisbon.", "abroad"),  # hypothetical
            op("The owner is vegan.", "brother"),  # another person's trait
            op("The owner works as a nurse.", "sister"),  # another person's job
        ],
        "preferences": [
            op("The owner meditates every morning.", "thanks"),  # Kit's suggestion
            op("The owner meditates every morning to unwind.", "advice"),  # Kit's own words
            op("The owner prefers Hugo for the blog.", "hugo"),  # a question
        ],
    }
    answers = {
        category: tool_reply(*good.get(category, []), *bad.get(category, []))
        for category in {*good, *bad}
    }
    supported = [o["content"] for ops in good.values() for o in ops]
    unsupported = [o["content"] for ops in bad.values() for o in ops]
    return answers, supported, unsupported


async def test_a_careless_curator_stores_what_was_said_and_nothing_else(
    kit: Kit, fake_llm: FakeLLM
) -> None:
    """The issue's finding: 12 unsupported operations among 8 supported ones. Before the
    guard, 9 of the 12 were stored, and the pass whose one operation cited Kit's message was
    rejected whole, losing the supported fact in it."""
    said = await a_day(kit)
    answers, supported, unsupported = careless(said)
    assert (len(supported), len(unsupported)) == (8, 12)
    fake_llm.default = by_category(answers)

    outcomes = await kit.services.curator.curate_user(USER)

    stored = {f.content for f in await kit.facts()}
    assert sorted(stored & set(unsupported)) == []
    assert sorted(set(supported) - stored) == []
    assert [o for o in outcomes if o.status in ("rejected", "failed")] == []
    dropped = [d for o in outcomes for d in o.dropped]
    asked = [a for o in outcomes for a in o.asked]
    assert len(dropped) + len(asked) == 12
    assert any("Kit's own lines" in d for d in dropped)  # the op citing Kit's message
    assert any("'Lisbon' only in a question, a wish" in d for d in dropped)  # "if I ever"
    assert any("'vegan' of someone else" in d for d in dropped)  # the brother's diet
    assert any("'£90', which its cited messages do not" in d for d in dropped)  # the amount
    assert any("'Sam'" in d for d in dropped)  # a child nobody named


async def test_a_dropped_operation_is_in_the_pass_record_and_counted(
    kit: Kit, fake_llm: FakeLLM
) -> None:
    said = await a_day(kit)
    answers, _, _ = careless(said)
    fake_llm.default = by_category(answers)
    outcomes = await kit.services.curator.curate_user(USER)
    (person,) = [o for o in outcomes if o.category == "person"]
    assert person.pass_id is not None
    record = await kit.services.curator.passes.get(USER, person.pass_id)
    assert record.status == "applied"
    assert any("not supported by its cited messages" in d for d in record.detail["dropped"])
    assert record.change_count == 3  # 9 operations: 3 applied, 6 dropped


async def test_a_partly_supported_fact_becomes_a_question(
    kit: Kit, fake_llm: FakeLLM, clock: FakeClock
) -> None:
    """Every name and number said, but not all of its words: the owner decides."""
    (said,) = await say(kit, "My sister Ana moved to Porto in 2021.")
    fake_llm.default = by_category(
        {"people": tool_reply({"op": "INSERT", "subject": "Ana", "confidence": 0.9,
                               "content": "Ana moved to Porto in 2021 and loves the city.",
                               "sources": [said.id]})}
    )  # fmt: skip
    outcomes = await kit.services.curator.curate_user(USER)
    (people,) = [o for o in outcomes if o.category == "people"]
    assert people.inserted_fact_ids == () and len(people.question_ids) == 1
    question = await kit.services.inbox.store.get(USER, people.question_ids[0], clock.now())
    assert question.kind == "grounding" and "only partly supported" in question.reason
    assert "'loves'" in question.reason


async def test_what_kit_refused_to_learn_is_counted_in_the_digest_and_the_pass_list(
    kit: Kit, fake_llm: FakeLLM, clock: FakeClock
) -> None:
    """A pass whose only operation was dropped changed nothing, and is still shown: `kit
    facts passes` lists it with its count, the digest lists the drop under it and counts it."""
    clock.set(at(14))
    (said,) = await say(kit, "If I ever move abroad, I'd love to live in Lisbon.", at=at(14, 1))
    fake_llm.default = by_category(
        {"person": tool_reply({"op": "INSERT", "content": "The owner lives in Lisbon.",
                               "confidence": 0.9, "sources": [said.id]})}
    )  # fmt: skip
    clock.set(at(14, 40))
    outcomes = await kit.services.curator.curate_user(USER)
    (person,) = [o for o in outcomes if o.category == "person"]
    assert person.status == "noop" and len(person.dropped) == 1
    listed = await kit.services.curator.passes.recent(USER)
    assert [r.id for r in listed] == [person.pass_id]
    digest = await kit.services.digest.read(USER, at(14).date())
    text = render_text(digest, UTC)
    assert "1 operation left out" in text
    assert "! left out: operation 1 (INSERT) dropped: not supported" in text
