"""A conversation with Kit over Matrix, against a real homeserver (Synapse): a reply with a
typing notice and Markdown as HTML, memory across a restart, a stranger refused before
anything is stored or sent to a model, the digest with a numbered Undo, a long reply split to
Matrix's limit."""

from __future__ import annotations

from kit.api import Kit
from kit.channels.matrix.render import BUTTONS_KEY, CONTENT_BYTES, HTML_FORMAT, content_bytes
from kit.clock import FakeClock
from kit.config import Settings
from kit.embed.hashing import HashingEmbedder
from kit.llm.fake import FakeLLM
from tests.matrix.conftest import Accounts, ChannelFactory, running
from tests.support.curation import all_facts
from tests.support.digest import a_day_of_curation, at
from tests.support.matrix_user import MatrixUser


async def count_messages(kit: Kit) -> int:
    return int(await kit.services.db.scalar("SELECT count(*) FROM messages"))


async def open_room(owner: MatrixUser, accounts: Accounts) -> str:
    """The owner's direct room with Kit, once Kit has joined it."""
    room = await owner.direct_room(accounts.kit.user_id)
    await owner.wait_for(lambda: owner.joined(room, accounts.kit.user_id))
    return room


async def test_the_owner_writes_and_kit_replies_with_typing_and_formatting(
    kit: Kit,
    fake_llm: FakeLLM,
    owner: MatrixUser,
    accounts: Accounts,
    make_channel: ChannelFactory,
) -> None:
    fake_llm.queue("Hello **Ann**, nice to meet you.\nSee you.")
    async with running(make_channel(kit)):
        room = await open_room(owner, accounts)
        await owner.send(room, "hi Kit, I am Ann")
        await owner.wait_for(lambda: bool(owner.messages_from(accounts.kit.user_id, room)))
    (reply,) = owner.messages_from(accounts.kit.user_id, room)
    assert reply.body == "Hello **Ann**, nice to meet you.\nSee you."
    assert reply.content["format"] == HTML_FORMAT
    assert reply.content["formatted_body"] == "Hello <b>Ann</b>, nice to meet you.<br>See you."
    assert True in owner.typed(accounts.kit.user_id)  # "Kit is typing…" while it thought
    stored = await kit.services.messages.on_day("owner", at(9).date())
    assert [(m.role, m.text) for m in stored] == [
        ("user", "hi Kit, I am Ann"),
        ("assistant", "Hello **Ann**, nice to meet you.\nSee you."),
    ]
    conversation = await kit.services.messages.get_conversation(stored[0].conversation_id)
    assert (conversation.channel, conversation.external_id) == ("matrix", room)


async def test_memory_and_the_sync_position_survive_a_restart(
    settings: Settings,
    clock: FakeClock,
    owner: MatrixUser,
    accounts: Accounts,
    make_channel: ChannelFactory,
) -> None:
    """Kit stops; the owner writes while it is down; a new Kit on the same store answers that
    message (once), with the conversation before the restart in its prompt."""
    first = FakeLLM(default="Noted, Ann.")
    async with Kit.open(
        settings=settings, llm=first, embedder=HashingEmbedder(), clock=clock, background=False
    ) as before:
        async with running(make_channel(before)):
            room = await open_room(owner, accounts)
            await owner.send(room, "My name is Ann and my cat is called Tom")
            await owner.wait_for(lambda: len(owner.messages_from(accounts.kit.user_id)) == 1)
    await owner.send(room, "What is my cat called?")  # Kit is down
    second = FakeLLM(default="Your cat is Tom.")
    async with Kit.open(
        settings=settings, llm=second, embedder=HashingEmbedder(), clock=clock, background=False
    ) as after:
        async with running(make_channel(after)) as task:
            await owner.wait_for(lambda: len(owner.messages_from(accounts.kit.user_id)) == 2)
            assert not task.done()
    assert [m.body for m in owner.messages_from(accounts.kit.user_id)] == [
        "Noted, Ann.",
        "Your cat is Tom.",
    ]
    (request,) = second.requests_for("chat")
    shown = "\n".join(str(m.content) for m in request.messages)
    assert "My name is Ann and my cat is called Tom" in shown  # the memory before the restart
    assert "What is my cat called?" in shown


async def test_a_stranger_is_refused_and_nothing_is_stored_or_sent_to_a_model(
    kit: Kit,
    fake_llm: FakeLLM,
    owner: MatrixUser,
    stranger: MatrixUser,
    accounts: Accounts,
    make_channel: ChannelFactory,
) -> None:
    async with running(make_channel(kit)):
        room = await stranger.direct_room(accounts.kit.user_id)
        await stranger.send(room, "hello, who are you? tell me about your owner")
        await stranger.wait_for(lambda: stranger.left(room, accounts.kit.user_id))
        # The owner brings the stranger into their own room with Kit: three members, a group.
        mine = await open_room(owner, accounts)
        await owner.invite(mine, stranger.user_id)
        await stranger.join(mine)
        await stranger.send(mine, "Kit, what do you know about the owner?")
        await owner.send(mine, "and me?")
        fake_llm.queue("only in private")
        second = await open_room(owner, accounts)
        await owner.send(second, "hello")
        await owner.wait_for(lambda: bool(owner.messages_from(accounts.kit.user_id, second)))
    assert not stranger.joined(room, accounts.kit.user_id)  # the invitation was declined
    assert owner.messages_from(accounts.kit.user_id, mine) == []  # a group: silence
    assert [r.user_id for r in fake_llm.requests] == ["owner"]  # only the owner's direct room
    assert await count_messages(kit) == 2


async def test_the_digest_reaches_the_owners_room_and_a_numbered_reply_undoes_the_pass(
    kit: Kit,
    clock: FakeClock,
    owner: MatrixUser,
    stranger: MatrixUser,
    accounts: Accounts,
    make_channel: ChannelFactory,
) -> None:
    day = await a_day_of_curation(kit, clock)
    applied = await all_facts(kit)
    channel = make_channel(kit)
    async with running(channel):
        room = await open_room(owner, accounts)
        while not kit.services.outbox.reaches("owner"):  # until Kit's sync has the room
            channel.synced.clear()
            await channel.synced.wait()
        clock.set(at(21))
        sent = await kit.services.digest.send_now("owner")
        assert (sent.status, sent.chats) == ("sent", 1)
        await owner.wait_for(lambda: bool(owner.messages_from(accounts.kit.user_id, room)))
        (digest,) = owner.messages_from(accounts.kit.user_id, room)
        assert digest.body.startswith("Memory digest for Monday 2 March 2026")
        numbered = dict(
            line.split(". ", 1)[::-1]
            for line in digest.body.splitlines()
            if line[:1].isdigit() and ". " in line
        )
        undo = numbered[f"Undo pass {day.curation.pass_id}"]
        assert len(digest.content[BUTTONS_KEY]) == len(numbered)

        await owner.send(room, "thanks for the digest")  # not a number: a message like any
        await owner.send(room, "999", reply_to=digest.event_id)
        await owner.send(room, undo, reply_to=digest.event_id)

        def answers() -> list[str]:
            return [
                m.body
                for m in owner.messages_from(accounts.kit.user_id, room)
                if m.content.get("m.relates_to")
            ]

        await owner.wait_for(lambda: len(answers()) == 2)
        after = await all_facts(kit)
        await owner.send(room, undo, reply_to=digest.event_id)  # a second press
        await owner.wait_for(lambda: len(answers()) == 3)
    out_of_range, done, again = answers()
    assert out_of_range.startswith("That message's choices are 1 to ")
    assert done.startswith(f"Undid pass {day.curation.pass_id}: restored #")
    assert {i: after[i] for i in day.before} == day.before  # exactly as before the pass
    assert again.startswith("This button was already used")
    assert await all_facts(kit) == after != applied


async def test_a_long_reply_is_split_into_messages_matrix_accepts(
    kit: Kit,
    fake_llm: FakeLLM,
    owner: MatrixUser,
    accounts: Accounts,
    make_channel: ChannelFactory,
) -> None:
    paragraph = "Kit <remembers> & “writes” — " + "a sentence of a long answer. " * 40
    long = "\n\n".join(f"{n}. {paragraph}" for n in range(60)) + " 🐈" * 3000
    fake_llm.queue(long)
    async with running(make_channel(kit)):
        room = await open_room(owner, accounts)
        await owner.send(room, "tell me everything")
        await owner.wait_for(
            lambda: (
                "🐈" in "".join(m.body for m in owner.messages_from(accounts.kit.user_id))
                and owner.messages_from(accounts.kit.user_id)[-1].body.endswith("🐈")
            )
        )
    parts = owner.messages_from(accounts.kit.user_id, room)
    assert len(parts) >= 3
    assert all(content_bytes(p.content) <= CONTENT_BYTES for p in parts)
    assert "".join(p.body for p in parts).replace(" ", "").replace("\n", "") == long.replace(
        " ", ""
    ).replace("\n", "")
