"""The contradiction inbox through the Python API, on both stores (issue 22 item 2): what a
pass sets aside instead of applying, the three answers (each an owner pass with history, the
same code as the pass), undo of the pass withdrawing its questions, expiry, and every way an
answer can be wrong changing nothing."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from datetime import UTC, date, datetime, timedelta

import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.curator.ops import Deactivate, Insert, Replace, Update
from kit.delivery.outbox import Outgoing
from kit.errors import InputError, NotFound
from kit.forget.forgetter import Forgetter
from kit.forget.scope import ForgetScope
from kit.inbox.buttons import INTRO
from kit.memory.messages import Message
from tests.support.curation import add_facts, all_facts, say, table_counts, tool_reply

pytestmark = pytest.mark.stores

USER = "owner"


async def _inbox_rows(kit: Kit) -> int:
    return int(await kit.services.db.scalar("SELECT COUNT(*) FROM inbox"))


async def _pass(kit: Kit, *ops: object, said: list[Message], kind: str = "curate") -> object:
    return await kit.services.curator.apply_ops(
        USER, "people", list(ops), kind=kind,  # type: ignore[arg-type]
        source_message_ids=[m.id for m in said],
    )  # fmt: skip


async def test_a_pass_rewriting_a_pinned_fact_lands_in_the_inbox_and_take_new_applies_it(
    kit: Kit, clock: FakeClock, fake_llm: object
) -> None:
    """Done when (issue 22): the curator's rewrite of a pinned fact waits for the owner;
    "take new" applies it with history; as of a day before the change the old value held."""
    clock.set(datetime(2026, 3, 2, 9, 0, tzinfo=UTC))
    pinned = (
        await kit.add_fact("Ana lives in Lisbon", category="people", subject="Ana", pinned=True)
    ).fact
    clock.set(datetime(2026, 3, 12, 18, 0, tzinfo=UTC))
    (said,) = await say(kit, "Ana moved to Porto last week", at=clock.now())
    fake_llm.default = lambda request: (  # type: ignore[attr-defined]
        tool_reply(
            {"op": "UPDATE", "fact_id": pinned.id, "content": "Ana lives in Porto",
             "reason": "she moved", "sources": [said.id]}
        )
        if request.purpose == "curate:people"
        else tool_reply()
        if request.purpose.startswith("curate:")
        else "ok"
    )  # fmt: skip
    clock.set(datetime(2026, 3, 13, 9, 0, tzinfo=UTC))  # curated the next morning

    outcomes = await kit.curate()

    (people,) = [o for o in outcomes if o.category == "people"]
    assert people.status == "applied" and people.changes == ()
    assert "pinned by the owner" in people.asked[0]
    fact = await kit.services.facts.get(USER, pinned.id)
    assert fact.content == "Ana lives in Lisbon"  # not applied: asked
    (question,) = await kit.inbox()
    assert question.pass_id == people.pass_id and question.choices == (
        "keep-old",
        "take-new",
        "keep-both",
    )

    answered = await kit.answer_question(question.id, "take-new")

    fact = await kit.services.facts.get(USER, pinned.id)
    assert (fact.content, fact.pinned, fact.active) == ("Ana lives in Porto", True, True)
    assert fact.valid_from == said.at  # from the message's own time, not the pass's
    last = (await kit.fact_history(pinned.id))[-1]
    assert (last.actor, last.operation, last.pass_id) == ("owner", "update", answered.pass_id)
    assert last.source_message_ids == (said.id,)
    record = await kit.services.curator.passes.get(USER, answered.pass_id)
    assert (record.kind, record.status) == ("owner", "applied")

    (then,) = await kit.facts(as_of=date(2026, 3, 11))
    assert (then.content, then.replaced_by) == ("Ana lives in Lisbon", pinned.id)
    (now,) = await kit.facts(as_of=date(2026, 3, 12))
    assert now.id == pinned.id and now.content == "Ana lives in Porto"
    assert [f.content for f in await kit.facts(as_of=date(2026, 3, 1))] == []  # not yet
    # what Kit had recorded by the 12th: the pass had not run, the old text
    (recorded,) = await kit.facts(as_of=date(2026, 3, 12), recorded=True)
    assert (recorded.id, recorded.content) == (pinned.id, "Ana lives in Lisbon")

    await kit.undo_pass(answered.pass_id)  # the owner's answer is undoable like any pass
    assert (await kit.services.facts.get(USER, pinned.id)).content == "Ana lives in Lisbon"


async def test_keep_old_changes_no_fact_and_says_so_in_its_history(kit: Kit) -> None:
    (mine,) = [(await kit.add_fact("Tom is a plumber", category="people", subject="Tom")).fact]
    (said,) = await say(kit, "Tom is a carpenter now")
    await _pass(kit, Update(mine.id, content="Tom is a carpenter", sources=(said.id,)), said=[said])
    before = await all_facts(kit)
    (question,) = await kit.inbox()

    answered = await kit.answer_question(question.id, "keep-old")

    assert await all_facts(kit) == before
    entry = (await kit.fact_history(mine.id))[-1]
    assert (entry.operation, entry.actor, entry.pass_id) == ("keep", "owner", answered.pass_id)
    assert entry.before == entry.after
    assert answered.kept_fact_ids == (mine.id,) and "Kept #" in answered.summary()


async def test_keep_both_stores_the_new_statement_beside_the_old(kit: Kit) -> None:
    pinned = (await kit.add_fact("Ana plays the cello", category="people", pinned=True)).fact
    (said,) = await say(kit, "Ana plays the violin too")
    await _pass(kit, Update(pinned.id, content="Ana plays the violin", sources=(said.id,)),
                said=[said])  # fmt: skip
    (question,) = await kit.inbox()

    answered = await kit.answer_question(question.id, "keep-both")

    (new_id,) = answered.inserted_fact_ids
    facts = {f.id: f for f in await kit.facts()}
    assert facts[pinned.id].content == "Ana plays the cello" and facts[pinned.id].pinned
    assert facts[new_id].content == "Ana plays the violin" and not facts[new_id].pinned
    (entry,) = await kit.fact_history(new_id)
    assert (entry.actor, entry.pass_id, entry.source_message_ids) == (
        "owner",
        answered.pass_id,
        (said.id,),
    )


async def test_a_new_statement_that_disagrees_is_asked_and_take_new_replaces_the_old(
    kit: Kit,
) -> None:
    """Two active facts would disagree (same subject, one value swapped): the INSERT waits;
    taking it retires the old one, which held until the new one was said."""
    (old,) = await add_facts(kit, "people", ["Ana lives in Lisbon"], subject="Ana")
    (other,) = await add_facts(kit, "people", ["Bob likes chess"], subject="Bob")
    (said,) = await say(kit, "Ana lives in Porto now, Bob plays go")
    outcome = await _pass(
        kit,
        Insert("Ana lives in Porto", 0.9, "ana", sources=(said.id,)),  # subject case aside
        Insert("Bob plays go", 0.8, "Bob", sources=(said.id,)),  # refines nothing: applied
        said=[said],
    )
    assert outcome.changes and "#" in outcome.changes[0] and "Bob plays go" in outcome.changes[0]
    (question,) = await kit.inbox()
    assert question.kind == "conflict" and [f.id for f in question.old] == [old.id]
    assert f"disagrees with fact #{old.id}" in question.reason

    answered = await kit.answer_question(question.id, "take-new")

    (new_id,) = answered.inserted_fact_ids
    retired = await kit.services.facts.get(USER, old.id)
    new = await kit.services.facts.get(USER, new_id)
    assert (retired.active, retired.replaced_by) == (False, new_id)
    assert retired.valid_until == new.valid_from == said.at
    assert (await kit.services.facts.get(USER, other.id)).active


async def test_a_retirement_of_a_confident_fact_is_asked_and_a_small_change_is_not(
    kit: Kit,
) -> None:
    """inbox.protect_confidence (0.9): REM retiring a fact held at 0.95 waits; an update that
    only adds to what a confident fact says, or raises its confidence, does not."""
    sure, plain = await add_facts(kit, "people", ["Ana lives in Lisbon", "Tom"], confidence=0.95)
    (said,) = await say(kit, "Ana lives in Lisbon with Rui")
    await _pass(kit, Update(sure.id, content="Ana lives in Lisbon with Rui", sources=(said.id,)),
                Update(plain.id, confidence=0.99), said=[said])  # fmt: skip
    assert await kit.inbox() == []
    facts = {f.id: f for f in await kit.facts()}
    assert facts[sure.id].content == "Ana lives in Lisbon with Rui"
    assert facts[plain.id].confidence == 0.99

    outcome = await _pass(kit, Deactivate(plain.id, "stale"), said=[], kind="rem_review")
    (question,) = await kit.inbox()
    assert question.choices == ("keep-old", "take-new")  # nothing new to keep beside it
    assert "held with confidence 0.99" in question.reason
    assert question.pass_id == outcome.pass_id  # type: ignore[attr-defined]
    assert (await kit.services.facts.get(USER, plain.id)).active


async def test_the_threshold_is_a_setting(kit: Kit, settings: object) -> None:
    (sure,) = await add_facts(kit, "people", ["Ana lives in Lisbon"], confidence=0.95)
    applier = kit.services.curator._applier
    applier._inbox_settings = dataclasses.replace(applier._inbox_settings, protect_confidence=1.0)
    await _pass(kit, Deactivate(sure.id, "stale"), said=[])
    assert await kit.inbox() == []
    assert not (await kit.services.facts.get(USER, sure.id)).active


async def test_undoing_the_pass_withdraws_its_questions_and_the_rest(kit: Kit) -> None:
    pinned = (await kit.add_fact("Mum: Rosa", category="people", pinned=True)).fact
    (said,) = await say(kit, "Mum retired; Eve is my cousin")
    outcome = await _pass(
        kit,
        Insert("Eve is the owner's cousin", 0.8, "Eve", sources=(said.id,)),
        Update(pinned.id, content="Mum: Rosa, retired", sources=(said.id,)),
        said=[said],
    )
    (question,) = await kit.inbox()

    undone = await kit.undo_pass(outcome.pass_id)  # type: ignore[attr-defined]

    assert undone.questions_withdrawn == (question.id,)
    assert await kit.inbox() == []
    (withdrawn,) = await kit.inbox(everything=True)
    assert withdrawn.status == "withdrawn"
    before = await all_facts(kit)
    with pytest.raises(InputError, match=f"question {question.id} was withdrawn"):
        await kit.answer_question(question.id, "take-new")
    assert await all_facts(kit) == before


async def test_the_same_proposal_is_asked_once(kit: Kit) -> None:
    pinned = (await kit.add_fact("Mum: Rosa", category="people", pinned=True)).fact
    for text in ("Mum retired", "Mum has retired, I said"):
        (said,) = await say(kit, text)
        outcome = await _pass(
            kit, Update(pinned.id, content="Mum: Rosa, retired", sources=(said.id,)), said=[said]
        )
        assert len(outcome.question_ids) == 1  # type: ignore[attr-defined]
    (question,) = await kit.inbox()
    assert "already waiting" in outcome.asked[0]  # type: ignore[attr-defined]
    assert question.id == outcome.question_ids[0]  # type: ignore[attr-defined]


async def test_a_dry_run_asks_nothing(kit: Kit) -> None:
    pinned = (await kit.add_fact("Mum: Rosa", category="people", pinned=True)).fact
    counts = await table_counts(kit)
    outcome = await kit.services.curator.apply_ops(
        USER, "people", [Update(pinned.id, content="Mum: Rosa, retired")],
        kind="curate", source_message_ids=[], dry_run=True,
    )  # fmt: skip
    assert outcome.status == "planned" and outcome.asked
    assert await table_counts(kit) == counts and await _inbox_rows(kit) == 0


async def _one_question(kit: Kit) -> int:
    pinned = (await kit.add_fact("Mum: Rosa", category="people", pinned=True)).fact
    (said,) = await say(kit, "Mum retired")
    await _pass(kit, Update(pinned.id, content="Mum: Rosa, retired", sources=(said.id,)),
                said=[said])  # fmt: skip
    (question,) = await kit.inbox()
    return question.id


async def test_an_answer_after_expiry_changes_nothing(kit: Kit, clock: FakeClock) -> None:
    question_id = await _one_question(kit)
    clock.advance(timedelta(days=kit.settings.inbox.expire_days))
    before = await all_facts(kit)
    with pytest.raises(InputError) as refused:
        await kit.answer_question(question_id, "take-new")
    assert str(refused.value).startswith(f"question {question_id} expired unanswered on ")
    assert "\n" not in str(refused.value)
    assert await all_facts(kit) == before and await kit.inbox() == []
    (expired,) = await kit.inbox(everything=True)
    assert expired.status == "expired"  # the safe default: the old fact kept


async def test_a_second_answer_changes_nothing(kit: Kit) -> None:
    question_id = await _one_question(kit)
    first = await kit.answer_question(question_id, "keep-old")
    before, passes = await all_facts(kit), len(await kit.passes())
    with pytest.raises(InputError, match=f"already answered \\(keep-old, pass {first.pass_id}\\)"):
        await kit.answer_question(question_id, "take-new")
    assert await all_facts(kit) == before and len(await kit.passes()) == passes


@pytest.mark.parametrize(
    ("question", "answer", "error", "message"),
    [
        (999, "take-new", NotFound, "inbox question 999 does not exist"),
        (0, "take-new", InputError, "a question id is a positive whole number"),
        (None, "maybe", InputError, "answer one of keep-old, take-new, keep-both"),
    ],
    ids=["unknown", "zero", "not-an-answer"],
)
async def test_a_wrong_question_or_answer_is_one_line_and_changes_nothing(
    kit: Kit, question: int | None, answer: str, error: type[Exception], message: str
) -> None:
    real = await _one_question(kit)
    before, passes = await all_facts(kit), len(await kit.passes())
    with pytest.raises(error, match=message):
        await kit.answer_question(real if question is None else question, answer)
    assert await all_facts(kit) == before and len(await kit.passes()) == passes
    assert [q.id for q in await kit.inbox()] == [real]


async def test_another_persons_question_does_not_exist_for_them(kit: Kit) -> None:
    question_id = await _one_question(kit)
    with pytest.raises(NotFound, match=f"inbox question {question_id} does not exist"):
        await kit.answer_question(question_id, "take-new", user="ana")
    assert len(await kit.inbox()) == 1


async def test_an_answer_not_offered_or_about_a_fact_changed_since_changes_nothing(
    kit: Kit,
) -> None:
    mine = (await kit.add_fact("Tom is a plumber", category="people")).fact
    await _pass(kit, Deactivate(mine.id, "he retired"), said=[])
    (question,) = await kit.inbox()
    with pytest.raises(InputError, match="offers keep-old, take-new; keep-both does not apply"):
        await kit.answer_question(question.id, "keep-both")
    await kit.edit_fact(mine.id, "Tom is a retired plumber")  # the owner changed it meanwhile
    before = await all_facts(kit)
    with pytest.raises(InputError, match=f"no longer applies: fact #{mine.id} changed"):
        await kit.answer_question(question.id, "take-new")
    assert await all_facts(kit) == before
    assert (await kit.inbox())[0].id == question.id
    await kit.answer_question(question.id, "keep-old")  # keeping the old is always possible
    assert await kit.inbox() == [] and (await kit.services.facts.get(USER, mine.id)).active


async def test_a_merge_of_a_pinned_fact_taken_stays_the_owners(kit: Kit) -> None:
    pinned = (await kit.add_fact("Mum: Rosa", category="people", pinned=True)).fact
    (other,) = await add_facts(kit, "people", ["Rosa is retired"], subject="Mum")
    await _pass(kit, Replace((pinned.id, other.id), "Mum: Rosa, retired", 0.9), said=[])
    (question,) = await kit.inbox()
    answered = await kit.answer_question(question.id, "take-new")
    (merged_id,) = answered.inserted_fact_ids
    merged = await kit.services.facts.get(USER, merged_id)
    assert merged.pinned and merged.owner_written and merged.content == "Mum: Rosa, retired"
    for old in (pinned.id, other.id):
        assert (await kit.services.facts.get(USER, old)).replaced_by == merged_id


async def test_kit_forget_takes_the_questions_that_quote_what_it_erases(kit: Kit) -> None:
    """A question quotes the messages it came from: forgetting them takes it too, or an
    answer could write the forgotten text back."""
    pinned = (await kit.add_fact("Mum: Rosa", category="people", pinned=True)).fact
    (said,) = await say(kit, "Mum retired", at=datetime(2026, 3, 1, 12, 0, tzinfo=UTC))
    await _pass(kit, Update(pinned.id, content="Mum: Rosa, retired", sources=(said.id,)),
                said=[said])  # fmt: skip
    assert await _inbox_rows(kit) == 1
    s = kit.services
    scope = ForgetScope.time(after=date(2026, 2, 28), before=date(2026, 3, 2))
    await Forgetter(s.db, s.tz, s.forget_ledger).forget(USER, scope, now=s.clock.now())
    assert await _inbox_rows(kit) == 0
    assert (await kit.services.facts.get(USER, pinned.id)).content == "Mum: Rosa"


async def test_kit_forget_of_a_person_takes_the_questions_that_name_them(kit: Kit) -> None:
    """A question whose proposal names the person, though neither its message nor its fact
    does (the model knew who "my friend" is), goes with a forget of that person: the inbox,
    the digest and an answer would show or write the name back."""
    pinned = (await kit.add_fact("Works at Acme", category="people", pinned=True)).fact
    (said,) = await say(kit, "my friend works there too now")
    await _pass(kit, Update(pinned.id, content="Works at Acme with Ana", sources=(said.id,)),
                said=[said])  # fmt: skip
    other = (await kit.add_fact("Rui plays chess", category="people", pinned=True)).fact
    await _pass(kit, Update(other.id, content="Rui plays go"), said=[])
    assert await _inbox_rows(kit) == 2
    s = kit.services
    await Forgetter(s.db, s.tz, s.forget_ledger).forget(
        USER, ForgetScope.named("Ana"), now=s.clock.now()
    )
    (left,) = await kit.inbox()  # the question about Rui stays
    assert left.operation["content"] == "Rui plays go"
    assert (await kit.services.facts.get(USER, pinned.id)).content == "Works at Acme"


async def test_each_question_is_announced_once_to_a_channel_that_reaches_its_owner(
    kit: Kit,
) -> None:
    """A live channel (the outbox) hears of each open question once, as a message with a
    button per answer; one whose owner no channel reaches waits, unclaimed, until one does; a
    failed send is tried again."""
    mine = await _one_question(kit)
    pinned = (await kit.add_fact("Tom: plumber", category="people", pinned=True, user="ana")).fact
    await kit.services.curator.apply_ops(
        "ana", "people", [Deactivate(pinned.id, "retired")], kind="curate", source_message_ids=[]
    )
    (anas,) = await kit.inbox(user="ana")
    inbox, outbox = kit.services.inbox, kit.services.outbox
    heard: list[tuple[str, Outgoing]] = []
    failing = True

    async def push(user: str, messages: Sequence[Outgoing]) -> int:
        if failing:
            raise RuntimeError("the channel is down")
        heard.extend((user, m) for m in messages)
        return 1

    assert await inbox.announce() == 0  # no channel: nothing claimed
    outbox.register("test", push, reaches=lambda user: user == USER)
    assert await inbox.announce() == 0 and heard == []  # it failed: given back
    failing = False
    assert await inbox.announce() == 1 and [u for u, _ in heard] == [USER]
    assert await inbox.announce() == 0  # once
    outbox.register("other", push, reaches=lambda user: user == "ana")
    assert await inbox.announce() == 1 and [u for u, _ in heard] == [USER, "ana"]
    outbox.unregister("test")
    outbox.unregister("other")
    (_, asked), (_, anas_message) = heard
    assert asked.text.startswith(INTRO) and f"Question {mine} " in asked.text
    assert f"Question {anas.id} " in anas_message.text
    assert [b.label for row in asked.buttons for b in row] == ["Keep old", "Take new", "Keep both"]
