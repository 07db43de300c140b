"""The inbox on Telegram (issue 22), with the real PTB Application against the local Bot API
server: a question reaches its owner once, through the outbox, as a message with a callback
button per answer; the owner's press answers it (an owner pass with history) and the message
keeps the answer without its buttons; a second press, a stranger's, one by the owner of another
memory, one after expiry and data that is not Kit's change nothing and say so in one line."""

from __future__ import annotations

from datetime import timedelta

from kit.api import Kit
from kit.clock import FakeClock
from kit.curator.ops import Update
from kit.curator.questions import Question
from kit.delivery.callbacks import NOT_OURS, NOT_YOURS
from tests.servers.telegram_api import FakeTelegramServer
from tests.support.curation import say
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


def _buttons(tg: FakeTelegramServer, message: dict) -> dict[str, str]:
    """Label -> callback data of a message's buttons as the message now stands."""
    return {b["text"]: b["callback_data"] for row in tg.buttons(tg.now(message)) for b in row}


async def test_a_question_reaches_the_owner_once_with_buttons_and_a_press_takes_the_new(
    kit: Kit, tg: FakeTelegramServer, make_channel: ChannelFactory
) -> None:
    fact_id, question = await _ask(kit)
    async with running(make_channel()):
        (sent,) = await tg.async_wait_for_sent(1)  # announced when the channel starts
        assert sent["chat_id"] == OWNER_TG and "parse_mode" not in sent
        assert "Ana lives in Lisbon" in sent["text"] and "Ana lives in Porto" in sent["text"]
        buttons = _buttons(tg, sent)
        assert list(buttons) == ["Keep old", "Take new", "Keep both"]
        assert all(len(data.encode()) <= 64 for data in buttons.values())
        assert await kit.services.inbox.announce() == 0  # asked once, not at every sweep

        tg.push_callback(OWNER_TG, buttons["Take new"], message=sent)
        (done,) = await tg.async_wait_for_answers(1)
        assert done["text"].startswith(f"Question {question.id}: Take new.")
        (edit,) = await tg.async_wait_for_edits(1)
        assert "text" in edit  # editMessageText: the answer under the question, no buttons
        now = tg.now(sent)
        assert _buttons(tg, sent) == {}  # answered: nothing left to press
        assert now["text"].startswith(sent["text"]) and done["text"] in now["text"]

        tg.push_callback(OWNER_TG, buttons["Keep old"], message=sent)  # another answer after
        tg.push_callback(OWNER_TG, buttons["Take new"], message=sent)  # the same button again
        answers = await tg.async_wait_for_answers(3)
    assert answers[1]["text"].startswith(f"Not done: question {question.id} was already answered")
    assert answers[2]["text"].startswith("This button was already used")
    assert len(tg.edits) == 1 and len(tg.sent) == 1
    fact = await kit.services.facts.get("owner", fact_id)
    assert fact.content == "Ana lives in Porto" and fact.pinned
    last = (await kit.fact_history(fact_id))[-1]
    (answered,) = await kit.inbox(everything=True)
    assert (last.actor, last.pass_id) == ("owner", answered.answer_pass_id)
    assert answered.answer == "take-new"


async def test_a_strangers_press_or_one_on_someone_elses_question_changes_nothing(
    kit: Kit, tg: FakeTelegramServer, make_channel: ChannelFactory
) -> None:
    fact_id, question = await _ask(kit)
    before = await kit.services.facts.get("owner", fact_id)
    async with running(make_channel()):
        (sent,) = await tg.async_wait_for_sent(1)
        take_new = _buttons(tg, sent)["Take new"]
        tg.push_callback(STRANGER_TG, take_new, message=sent)
        # Ana is allowed on Telegram, but the question is about the owner's memory.
        tg.push_callback(ANA_TG, take_new, message=sent, chat_id=ANA_TG)
        tg.push_callback(OWNER_TG, f"inbox:{question.id}:take-new", message=sent)  # not Kit's
        answers = await tg.async_wait_for_answers(3)
        # (Ana's chat is handled beside the owner's, so the answers come in either order.)
        assert sorted(a["text"] for a in answers) == sorted([NOT_YOURS, NOT_YOURS, NOT_OURS])
        assert _buttons(tg, sent)["Take new"] == take_new  # still there for its owner
    assert await kit.services.facts.get("owner", fact_id) == before
    assert [q.status for q in await kit.inbox(everything=True)] == ["open"]
    assert tg.edits == []


async def test_a_press_after_the_question_expired_changes_nothing(
    kit: Kit, tg: FakeTelegramServer, make_channel: ChannelFactory, clock: FakeClock
) -> None:
    fact_id, _ = await _ask(kit)
    async with running(make_channel()):
        (sent,) = await tg.async_wait_for_sent(1)
        clock.advance(timedelta(days=kit.settings.inbox.expire_days, seconds=1))
        tg.push_callback(OWNER_TG, _buttons(tg, sent)["Take new"], message=sent)
        (expired,) = await tg.async_wait_for_answers(1)
    assert expired["text"].startswith("This button expired on ")
    assert "the question expired unanswered and the old facts were kept" in expired["text"]
    assert expired["text"].endswith("nothing was changed.")
    assert (await kit.services.facts.get("owner", fact_id)).content == "Ana lives in Lisbon"
    assert [q.status for q in await kit.inbox(everything=True)] == ["expired"]
    assert tg.edits == []


async def test_each_owner_is_asked_only_their_own_questions_and_one_off_telegram_waits(
    kit: Kit, tg: FakeTelegramServer, make_channel: ChannelFactory
) -> None:
    _, mine = await _ask(kit)
    _, anas = await _ask(kit, user="ana")
    _, zeds = await _ask(kit, user="zed")  # zed is not on Telegram
    async with running(make_channel()):
        await tg.async_wait_for_sent(2)
        assert await kit.services.inbox.announce() == 0
    by_chat = {s["chat_id"]: s["text"] for s in tg.sent}
    assert set(by_chat) == {OWNER_TG, ANA_TG}
    assert f"Question {mine.id} " in by_chat[OWNER_TG]
    assert f"Question {anas.id} " in by_chat[ANA_TG]
    rows = await kit.services.db.fetchall("SELECT id, announced_at FROM inbox ORDER BY id")
    assert [(i, at is not None) for i, at in rows] == [(mine.id, True), (anas.id, True),
                                                       (zeds.id, False)]  # fmt: skip
