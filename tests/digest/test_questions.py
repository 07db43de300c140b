"""The inbox in the digest: the questions a pass set aside in the day that still wait are listed
(what Kit would do, what holds now, what would hold instead), older ones that wait counted;
answered, withdrawn and expired ones are not there, nor anything `kit forget` erased. A day whose
only news is a question waiting is sent; a day with only older questions is not (no nagging)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.curator.ops import Update
from kit.digest.questions import QUESTIONS_LISTED
from kit.digest.render import render_text
from kit.forget.forgetter import Forgetter
from kit.forget.scope import ForgetScope
from tests.support.curation import say
from tests.support.digest import USER, a_day_of_curation, a_question, at
from tests.support.pushes import Pushes

pytestmark = pytest.mark.stores

ANSWERS = ("keep-old", "take-new", "keep-both")


@pytest.fixture
def pushes(kit: Kit) -> Pushes:
    channel = Pushes()
    kit.services.outbox.register("test", channel)
    return channel


async def test_the_days_waiting_questions_are_listed_and_older_ones_counted(
    kit: Kit, clock: FakeClock
) -> None:
    long_ago = at(9, day=1) - timedelta(days=20)
    expired = await a_question(kit, clock, long_ago, "Ana is 30", "Ana is 31")
    older = await a_question(kit, clock, at(10, day=1), "Ana owns a dog", "Ana owns two dogs")
    older_answered = await a_question(kit, clock, at(11, day=1), "Ana sings", "Ana sings jazz")
    waiting = await a_question(kit, clock, at(9), "Ana lives in Lisbon", "Ana lives in Porto")
    answered = await a_question(kit, clock, at(10), "Ana drives", "Ana drives a van")
    withdrawn = await a_question(kit, clock, at(11), "Ana rows", "Ana rows daily")
    later = await a_question(kit, clock, at(22), "Ana reads", "Ana reads poems")  # the 3rd's
    for question_id in (answered, older_answered):
        await kit.answer_question(question_id, "keep-old")
    await kit.undo_pass((await kit.services.inbox.question(USER, withdrawn)).pass_id)

    digest = await kit.services.digest.read(USER, at(12).date())

    (question,) = digest.questions
    fact_id = (await kit.services.inbox.question(USER, waiting)).old[0].id
    assert (question.question_id, question.category, question.what, question.now, question.new) == (
        waiting, "people", f"Kit would rewrite #{fact_id}", "[Ana] Ana lives in Lisbon",
        "[Ana] Ana lives in Porto",
    )  # fmt: skip
    assert question.asked_at == at(9) and question.choices == ANSWERS
    assert question.expires_at == at(9) + timedelta(days=kit.settings.inbox.expire_days)
    assert (digest.more_questions, digest.older_questions) == (0, 1)  # `older`; not `expired`
    assert digest.news and not digest.changed  # the pass changed nothing: it asked
    text = render_text(digest, kit.services.tz)
    assert text.splitlines()[:4] == [
        "Memory digest for Monday 2 March 2026 (since Sun 21:00)",
        "",
        "Waiting for your answer (`kit inbox` answers them: keep old, take new or keep both)",
        f"? question {waiting} · people: Kit would rewrite #{fact_id} — now: [Ana] Ana lives in "
        "Lisbon → new: [Ana] Ana lives in Porto",
    ]
    assert text.splitlines()[4] == "and 1 question asked before this day"
    third = await kit.services.digest.read(USER, at(12, day=3).date())
    assert [q.question_id for q in third.questions] == [later]
    assert third.older_questions == 2  # `waiting` and `older` still wait
    assert {q.id for q in await kit.inbox()} == {older, waiting, later}
    assert expired not in {q.question_id for q in (*digest.questions, *third.questions)}


async def test_a_day_whose_only_news_is_a_question_is_sent_and_one_with_old_ones_only_is_not(
    kit: Kit, clock: FakeClock, pushes: Pushes
) -> None:
    question = await a_question(kit, clock, at(15), "Ana lives in Lisbon", "Ana lives in Porto")
    digests = kit.services.digest
    clock.set(at(21))
    (sent,) = await digests.send_due(at(21))
    assert sent.status == "sent"
    ((_, (message,)),) = pushes.pushed
    fact_id = (await kit.services.inbox.question(USER, question)).old[0].id
    assert message.text.splitlines()[3:5] == [
        "Waiting for your answer (answer each with the buttons under its own message, sent "
        "when Kit asked, or `kit inbox`)",
        f"? question {question} · people: Kit would rewrite #{fact_id} — now: [Ana] Ana lives "
        "in Lisbon → new: [Ana] Ana lives in Porto",
    ]
    assert message.buttons == ()  # nothing to undo, pin or forget: the pass asked only

    clock.set(at(21, day=3))  # the next day: nothing new, the question still waits
    (quiet,) = await digests.send_due(at(21, day=3))
    assert quiet.status == "empty" and len(pushes.pushed) == 1  # not sent again: no nagging
    assert (await digests.send_now(USER, at(12, day=3).date())).status == "empty"
    day = await digests.read(USER, at(12, day=3).date())
    assert render_text(day, kit.services.tz) == (
        "Nothing changed in memory for Tuesday 3 March 2026 (since Mon 21:00).\n\n"
        "Waiting for your answer (`kit inbox` answers them: keep old, take new or keep both)\n"
        "1 question asked before this day"
    )
    await kit.answer_question(question, "take-new")
    day = await digests.read(USER, at(12, day=3).date())
    assert render_text(day, kit.services.tz).count("\n") == 0  # nothing waits any more


async def test_a_day_of_changes_lists_its_questions_first_and_keeps_its_buttons(
    kit: Kit, clock: FakeClock, pushes: Pushes
) -> None:
    day = await a_day_of_curation(kit, clock)
    question = await a_question(kit, clock, at(16), "Ana lives in Lisbon", "Ana lives in Porto")
    clock.set(at(21))
    await kit.services.digest.send_due(at(21))
    ((_, (message,)),) = pushes.pushed
    text = message.text
    assert text.index(f"? question {question} ·") < text.index(f"Pass {day.curation.pass_id} ·")
    assert f"Undo pass {day.curation.pass_id}" in pushes.buttons()


async def test_past_the_listed_ones_the_days_questions_are_counted(
    kit: Kit, clock: FakeClock
) -> None:
    asked = [
        await a_question(kit, clock, at(9, n), f"P{n} lives in Lisbon", f"P{n} lives in Porto",
                         subject=f"P{n}")
        for n in range(QUESTIONS_LISTED + 2)
    ]  # fmt: skip
    digest = await kit.services.digest.read(USER, at(12).date())
    assert [q.question_id for q in digest.questions] == asked[:QUESTIONS_LISTED]
    assert (digest.more_questions, digest.older_questions) == (2, 0)
    assert "… and 2 more asked this day" in render_text(digest, kit.services.tz)


async def test_what_kit_forget_erased_never_shows_through_the_digest(
    kit: Kit, clock: FakeClock
) -> None:
    """A question citing a forgotten message (asked that day), and one naming a forgotten
    person (asked before): neither is listed nor counted, and no word of theirs is shown."""
    clock.set(at(9, day=1))
    rosa = (await kit.add_fact("Mum: Rosa", category="people", pinned=True)).fact
    rui = (await kit.add_fact("Rui plays chess", category="people", pinned=True)).fact
    named = await a_question(kit, clock, at(10, day=1), "Works at Acme", "Works at Acme with Ana",
                             subject="")  # fmt: skip
    clock.set(at(9))
    (said,) = await say(kit, "Mum retired from the bakery", at=at(9))
    people = kit.services.curator
    cited = await people.apply_ops(
        USER, "people", [Update(rosa.id, content="Mum: Rosa, retired baker", sources=(said.id,))],
        kind="curate", source_message_ids=[said.id],
    )  # fmt: skip
    clock.set(at(11))
    (kept,) = (
        await people.apply_ops(
            USER, "people", [Update(rui.id, content="Rui plays go")], kind="curate",
            source_message_ids=[],
        )
    ).question_ids  # fmt: skip
    before = await kit.services.digest.read(USER, at(12).date())
    assert len(before.questions) == 2 and before.older_questions == 1
    assert cited.question_ids and named

    s = kit.services
    await Forgetter(s.db, s.tz, s.forget_ledger).forget(
        USER, ForgetScope.named("Ana"), now=s.clock.now()
    )
    scope = ForgetScope.time(after=at(0, day=1).date(), before=at(0, day=3).date())  # the 2nd
    await Forgetter(s.db, s.tz, s.forget_ledger).forget(USER, scope, now=s.clock.now())

    digest = await kit.services.digest.read(USER, at(12).date())
    assert [q.question_id for q in digest.questions] == [kept]
    assert (digest.more_questions, digest.older_questions) == (0, 0)
    text = render_text(digest, kit.services.tz)
    assert "Ana" not in text and "retired" not in text and "bakery" not in text


async def test_a_questions_text_is_one_clean_clipped_line(kit: Kit, clock: FakeClock) -> None:
    """The proposal is the model's text: a line break cannot start a heading of its own, a
    control character does not reach the terminal, a long text is clipped like a fact's."""
    forged = "Ana lives in Porto\n\nPass 99 · curation of people · 12:00\n+ learned #1: \x1b[2Jfake"
    question = await a_question(kit, clock, at(9), "Ana lives in Lisbon", forged + " x" * 200)
    (line,) = (await kit.services.digest.read(USER, at(12).date())).questions
    assert line.question_id == question
    assert "\n" not in line.new and "\x1b" not in line.new
    assert line.new.startswith("[Ana] Ana lives in Porto Pass 99 · curation of people · 12:00 + ")
    assert len(line.new) == 120 and line.new.endswith("…")
    text = render_text(await kit.services.digest.read(USER, at(12).date()), kit.services.tz)
    assert not any(x.startswith("Pass 99") for x in text.splitlines())
