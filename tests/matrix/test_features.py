"""What else Telegram does, on Matrix against a real homeserver: an inbox question answered by
a keycap reaction (owner only, once), a reminder delivered in the room it was asked in, a file
kept as a note, commands (`!facts` and `/help`), a picture refused in words, and an encrypted
room refused in one line, never silently unread."""

from __future__ import annotations

from datetime import timedelta

from kit.api import Kit
from kit.channels.matrix.channel import ENCRYPTED, MatrixChannel
from kit.channels.matrix.render import BUTTONS_KEY, KEYCAPS
from kit.channels.replies import NON_TEXT
from kit.clock import FakeClock
from kit.curator.ops import Update
from kit.llm.base import ToolUse
from kit.llm.fake import FakeLLM
from tests.matrix.conftest import Accounts, ChannelFactory, running
from tests.matrix.test_conversation import count_messages, open_room
from tests.support.curation import say
from tests.support.matrix_user import MatrixUser


async def known_to_kit(kit: Kit, channel: MatrixChannel) -> None:
    """Until Kit's own sync has seen the owner's direct room (it can push there then)."""
    while not kit.services.outbox.reaches("owner"):
        channel.synced.clear()
        await channel.synced.wait()


def from_kit(owner: MatrixUser, accounts: Accounts, room: str) -> list[str]:
    return [m.body for m in owner.messages_from(accounts.kit.user_id, room)]


async def test_an_inbox_question_is_answered_by_the_owners_keycap_once(
    kit: Kit,
    owner: MatrixUser,
    stranger: MatrixUser,
    accounts: Accounts,
    make_channel: ChannelFactory,
) -> None:
    pinned = (
        await kit.add_fact("Ana lives in Lisbon", category="people", subject="Ana", pinned=True)
    ).fact
    (said,) = await say(kit, "Ana moved to Porto")
    await kit.services.curator.apply_ops(
        "owner", "people", [Update(pinned.id, content="Ana lives in Porto", sources=(said.id,))],
        kind="curate", source_message_ids=[said.id],
    )  # fmt: skip
    channel = make_channel(kit)
    async with running(channel):
        room = await open_room(owner, accounts)
        await known_to_kit(kit, channel)
        assert await kit.services.inbox.announce() == 1
        await owner.wait_for(
            lambda: len(owner.events_from(accounts.kit.user_id, "m.reaction")) == 3
        )
        (question,) = owner.messages_from(accounts.kit.user_id, room)
        assert "Ana lives in Lisbon" in question.body and "Ana lives in Porto" in question.body
        assert "1. Keep old\n2. Take new\n3. Keep both" in question.body
        assert len(question.content[BUTTONS_KEY]) == 3
        keycaps = [
            r.content["m.relates_to"] for r in owner.events_from(accounts.kit.user_id, "m.reaction")
        ]
        assert [k["key"] for k in keycaps] == list(KEYCAPS[:3])
        assert {k["event_id"] for k in keycaps} == {question.event_id}

        await owner.react(room, question.event_id, KEYCAPS[1])  # Take new
        await owner.wait_for(lambda: len(from_kit(owner, accounts, room)) == 2)
        await owner.react(room, question.event_id, KEYCAPS[0])  # another answer after
        await owner.wait_for(lambda: len(from_kit(owner, accounts, room)) == 3)
    _, done, again = from_kit(owner, accounts, room)
    assert done.startswith("Question ") and "Take new" in done
    assert again.startswith("Not done: question ") and "already answered" in again
    fact = await kit.services.facts.get("owner", pinned.id)
    assert fact.content == "Ana lives in Porto" and fact.pinned


async def test_a_reminder_asked_for_on_matrix_arrives_in_that_room(
    kit: Kit,
    clock: FakeClock,
    fake_llm: FakeLLM,
    owner: MatrixUser,
    accounts: Accounts,
    make_channel: ChannelFactory,
) -> None:
    dispatcher = kit.services.reminders.dispatcher
    fake_llm.queue(
        ToolUse("c1", "schedule_reminder", {"text": "take the cake out", "in_minutes": 20}),
        "I'll remind you in 20 minutes.",
    )
    async with running(make_channel(kit)):
        room = await open_room(owner, accounts)
        await owner.send(room, "remind me in 20 minutes to take the cake out")
        await owner.wait_for(lambda: len(from_kit(owner, accounts, room)) == 1)
        assert "matrix" in dispatcher.channels
        clock.advance(timedelta(minutes=20))
        report = await dispatcher.run_due()
        await owner.wait_for(lambda: len(from_kit(owner, accounts, room)) == 2)
    assert report.sent == 1
    assert from_kit(owner, accounts, room)[1] == "Reminder: take the cake out"
    assert "matrix" not in dispatcher.channels  # the channel stopped: nothing sends there


async def test_a_file_becomes_a_note_and_commands_answer_without_the_model(
    kit: Kit,
    fake_llm: FakeLLM,
    owner: MatrixUser,
    accounts: Accounts,
    make_channel: ChannelFactory,
) -> None:
    await kit.add_fact("Has a cat called Tom", category="people")
    async with running(make_channel(kit)):
        room = await open_room(owner, accounts)
        packing = b"# Packing list\n\n- passport\n- charger\n"
        await owner.send_file(room, packing, "packing.md", "text/markdown")
        await owner.wait_for(lambda: len(from_kit(owner, accounts, room)) == 1)
        await owner.send(room, "!facts")
        await owner.wait_for(lambda: len(from_kit(owner, accounts, room)) == 2)
        await owner.send(room, "/serch cats")
        await owner.wait_for(lambda: len(from_kit(owner, accounts, room)) == 3)
        picture = {"msgtype": "m.image", "body": "cat.jpg", "url": "mxc://localhost/none"}
        await owner.send_content(room, picture)
        await owner.wait_for(lambda: len(from_kit(owner, accounts, room)) == 4)
    note, facts, unknown, refused = from_kit(owner, accounts, room)
    assert note.startswith('Added note "packing"') and "I'll read it" in note
    assert (await kit.services.notes.get("owner", "packing")).text == packing.decode().strip()
    assert facts.startswith("#") and "Has a cat called Tom" in facts
    assert unknown.startswith("I don't know /serch. Did you mean /search?")
    assert refused == NON_TEXT
    assert fake_llm.requests == []  # none of these went to the model
    assert await count_messages(kit) == 0


async def test_an_encrypted_room_is_refused_in_one_line_and_left(
    kit: Kit,
    fake_llm: FakeLLM,
    owner: MatrixUser,
    accounts: Accounts,
    make_channel: ChannelFactory,
) -> None:
    async with running(make_channel(kit)):
        room = await owner.direct_room(accounts.kit.user_id, encrypted=True)
        await owner.wait_for(lambda: owner.left(room, accounts.kit.user_id))
    assert from_kit(owner, accounts, room) == [ENCRYPTED]
    assert fake_llm.requests == []
    assert await count_messages(kit) == 0
