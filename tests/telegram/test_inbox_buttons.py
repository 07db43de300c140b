"""The inbox on Telegram (issue 22): a question reaches its owner once, as a message with a
button per answer; a tap by the owner answers it (an owner pass with history) and takes the
buttons away; a second tap, a stranger's tap, a tap on another person's question, a tap after
expiry and a button that is not Kit's change nothing and say so in one line."""

from __future__ import annotations

from datetime import timedelta

from kit.api import Kit
from kit.clock import FakeClock
from kit.curator.ops import Update
from kit.inbox.store import Question
from tests.curation.helpers import say
from tests.servers.telegram_api import FakeTelegramServer
from tests.telegram.conftest import ANA_TG, OWNER_TG, STRANGER_TG, ChannelFactory, running


async def _ask(kit: Kit, user: str = "owner") -> tuple[int, Question]:
    """A pinned fact of `user`'s, and a curation pass that would rewrite it: one question."""
    pinned = (
        await kit.add_fact("Ana lives in Lisbon", category="people", subject="Ana", pinned=True,
                           user=user)
    ).fact  # fmt: skip
    (said,) = await say(kit, "Ana moved to Porto", user=user)
    outcome = await kit.services.curator.apply_ops(
        user, "people", [Update(pinned.id, content="Ana lives in Porto", sources=(said.id,))],
        kind="curate", source_message_ids=[said.id],
    )  # fmt: skip
    (question,) = await kit.inbox(user=user)
    assert outcome.question_ids == (question.id,)
    return pinned.id, question


def _tapped(tg: FakeTelegramServer, n: int) -> str:
    return str(tg.tap_answers[n - 1].get("text", ""))


async def test_a_question_reaches_the_owner_once_with_buttons_and_a_tap_takes_the_new(
    kit: Kit, tg: FakeTelegramServer, make_channel: ChannelFactory
) -> None:
    fact_id, question = await _ask(kit)
    async with running(make_channel()):
        (sent,) = await tg.async_wait_for_sent(1)  # announced when the channel starts
        assert sent["chat_id"] == OWNER_TG
        assert "Ana lives in Lisbon" in sent["text"] and "Ana lives in Porto" in sent["text"]
        message_id = tg.message_id_of(0)
        assert tg.buttons_of(message_id) == [
            ("Keep old", f"inbox:{question.id}:keep-old"),
            ("Take new", f"inbox:{question.id}:take-new"),
            ("Keep both", f"inbox:{question.id}:keep-both"),
        ]
        assert await kit.services.inbox.announce() == 0  # asked once, not at every sweep

        tg.push_tap(OWNER_TG, message_id, f"inbox:{question.id}:take-new")
        await tg.async_wait_for(lambda: len(tg.edits) == 1)
        assert _tapped(tg, 1) == "Take new: done."
        assert tg.buttons_of(message_id) == []  # answered: nothing left to tap
        assert "Question" in tg.edits[0]["text"] and "kit facts undo" in tg.edits[0]["text"]

        tg.push_tap(OWNER_TG, message_id, f"inbox:{question.id}:keep-old")  # a second tap
        await tg.async_wait_for(lambda: len(tg.tap_answers) == 2)
        assert "already answered" in _tapped(tg, 2)
    fact = await kit.services.facts.get("owner", fact_id)
    assert fact.content == "Ana lives in Porto" and fact.pinned
    last = (await kit.fact_history(fact_id))[-1]
    (answered,) = await kit.inbox(everything=True)
    assert (last.actor, last.pass_id) == ("owner", answered.answer_pass_id)
    assert answered.answer == "take-new"


async def test_a_strangers_tap_or_a_tap_on_someone_elses_question_changes_nothing(
    kit: Kit, tg: FakeTelegramServer, make_channel: ChannelFactory
) -> None:
    fact_id, question = await _ask(kit)
    before = await kit.services.facts.get("owner", fact_id)
    async with running(make_channel()):
        await tg.async_wait_for_sent(1)
        message_id = tg.message_id_of(0)
        tg.push_tap(STRANGER_TG, message_id, f"inbox:{question.id}:take-new")
        await tg.async_wait_for(lambda: len(tg.tap_answers) == 1)
        assert "Only the person Kit asked can answer" in _tapped(tg, 1)
        # Ana is allowed on Telegram, but the question is about the owner's memory.
        tg.push_tap(ANA_TG, message_id, f"inbox:{question.id}:take-new")
        await tg.async_wait_for(lambda: len(tg.tap_answers) == 2)
        assert f"question {question.id} does not exist" in _tapped(tg, 2).lower()
        tg.push_tap(OWNER_TG, message_id, "inbox:oops")  # not one of Kit's buttons
        await tg.async_wait_for(lambda: len(tg.tap_answers) == 3)
        assert "not one of Kit's" in _tapped(tg, 3)
    assert await kit.services.facts.get("owner", fact_id) == before
    assert [q.status for q in await kit.inbox(everything=True)] == ["open"]
    assert tg.edits == []


async def test_a_tap_after_the_question_expired_changes_nothing(
    kit: Kit, tg: FakeTelegramServer, make_channel: ChannelFactory, clock: FakeClock
) -> None:
    fact_id, question = await _ask(kit)
    async with running(make_channel()):
        await tg.async_wait_for_sent(1)
        clock.advance(timedelta(days=kit.settings.inbox.expire_days, seconds=1))
        tg.push_tap(OWNER_TG, tg.message_id_of(0), f"inbox:{question.id}:take-new")
        await tg.async_wait_for(lambda: len(tg.tap_answers) == 1)
        assert "expired unanswered" in _tapped(tg, 1)
    assert (await kit.services.facts.get("owner", fact_id)).content == "Ana lives in Lisbon"
    assert [q.status for q in await kit.inbox(everything=True)] == ["expired"]


async def test_each_owner_is_asked_only_their_own_questions(
    kit: Kit, tg: FakeTelegramServer, make_channel: ChannelFactory
) -> None:
    _, mine = await _ask(kit)
    _, anas = await _ask(kit, user="ana")
    async with running(make_channel()):
        await tg.async_wait_for_sent(2)
    by_chat = {s["chat_id"]: s["text"] for s in tg.sent}
    assert set(by_chat) == {OWNER_TG, ANA_TG}
    assert f"Question {mine.id} " in by_chat[OWNER_TG]
    assert f"Question {anas.id} " in by_chat[ANA_TG]
