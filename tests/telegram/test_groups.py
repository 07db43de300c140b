"""Group chats: the real PTB Application against the local Bot API server. A group gets no
private memory; only a group the owner lists is answered, from its own namespace, and only
for allowed users. Strangers in groups get nothing: no reply, nothing stored, no model call."""

from __future__ import annotations

import logging

import pytest

from kit.api import Kit
from kit.channels.replies import REFUSAL
from kit.config import Settings
from kit.llm.fake import FakeLLM
from tests.servers.telegram_api import FakeTelegramServer
from tests.telegram.conftest import (
    OWNER_TG,
    STRANGER_TG,
    ChannelFactory,
    running,
    telegram_settings,
    wait_until,
)

GROUP = -4242  # a group the owner has not listed
FAMILY = -1001234567890  # a supergroup listed as the "family" namespace


async def _stored(kit: Kit) -> list[tuple[str, str, str, str]]:
    rows = await kit.services.db.fetchall(
        "SELECT user_id, role, speaker, text FROM messages ORDER BY id"
    )
    return [tuple(r) for r in rows]  # type: ignore[misc]


def _fetched_all(tg: FakeTelegramServer, last_update_id: int) -> bool:
    return any(m == "getUpdates" and (p.get("offset") or 0) > last_update_id for m, p in tg.calls)


async def test_a_group_not_listed_is_ignored_even_for_the_owner_and_strangers_hear_nothing(
    kit: Kit,
    fake_llm: FakeLLM,
    tg: FakeTelegramServer,
    make_channel: ChannelFactory,
    caplog: pytest.LogCaptureFixture,
) -> None:
    await kit.remember("The owner sees a therapist on Tuesdays", category="person")
    caplog.set_level(logging.INFO, logger="kit.channels")
    async with running(make_channel()):
        tg.push_text(OWNER_TG, "what do you know about me?", chat_id=GROUP)
        tg.push_text(STRANGER_TG, "hello bot", chat_id=GROUP, first_name="Eve")
        last = tg.push_text(OWNER_TG, "/facts", chat_id=GROUP)["update_id"]
        await wait_until(lambda: _fetched_all(tg, last))
    # Stopping waited for every update PTB had taken: all three were handled, and ignored.
    assert tg.sent == [] and fake_llm.requests == []
    assert not any(p.get("chat_id") == GROUP for _, p in tg.calls)  # not even "typing..."
    assert await _stored(kit) == []
    ignored = [r.getMessage() for r in caplog.records if "ignoring group" in r.getMessage()]
    assert ignored == [f"telegram: ignoring group chat {GROUP} (not in telegram.allowed_group_ids)"]


async def test_a_listed_group_is_answered_from_its_own_memory_for_allowed_users_only(
    kit: Kit,
    fake_llm: FakeLLM,
    tg: FakeTelegramServer,
    make_channel: ChannelFactory,
    settings: Settings,
) -> None:
    await kit.remember("The owner sees a therapist on Tuesdays", category="person")
    await kit.remember("The family eats pizza on Fridays", category="person", user="family")
    fake_llm.queue("Pizza, it's Friday.")
    channel = make_channel(settings=telegram_settings(settings, tg, groups={str(FAMILY): "family"}))
    async with running(channel):
        tg.push_text(STRANGER_TG, "who are you?", chat_id=FAMILY, first_name="Eve")
        tg.push_text(OWNER_TG, "what's for dinner?", chat_id=FAMILY, first_name="Ann")
        await tg.async_wait_for_sent(1)
    assert [(s["chat_id"], s["text"]) for s in tg.sent] == [(FAMILY, "Pizza, it's Friday.")]
    assert await _stored(kit) == [
        ("family", "user", "Ann", "what's for dinner?"),
        ("family", "assistant", "", "Pizza, it's Friday."),
    ]
    (request,) = fake_llm.requests  # Eve's message never reached the model
    assert request.user_id == "family"
    system = "\n".join(block.text for block in request.system)
    assert "pizza on Fridays" in system and "therapist" not in system


async def test_commands_in_a_listed_group_use_the_groups_memory(
    kit: Kit, tg: FakeTelegramServer, make_channel: ChannelFactory, settings: Settings
) -> None:
    await kit.remember("The owner sees a therapist on Tuesdays", category="person")
    await kit.remember("The family eats pizza on Fridays", category="person", user="family")
    channel = make_channel(settings=telegram_settings(settings, tg, groups={str(FAMILY): "family"}))
    async with running(channel):
        tg.push_text(OWNER_TG, "/facts", chat_id=FAMILY)
        (reply,) = await tg.async_wait_for_sent(1)
    assert "pizza on Fridays" in reply["text"] and "therapist" not in reply["text"]


async def test_in_a_group_only_commands_for_this_bot_are_answered(
    tg: FakeTelegramServer, make_channel: ChannelFactory, settings: Settings
) -> None:
    channel = make_channel(settings=telegram_settings(settings, tg, groups={str(FAMILY): "family"}))
    async with running(channel):
        tg.push_text(OWNER_TG, "/weather@other_bot Lisbon", chat_id=FAMILY)
        tg.push_text(OWNER_TG, "/nope@kit_test_bot", chat_id=FAMILY)
        await tg.async_wait_for_sent(1)
    assert [s["text"] for s in tg.sent] == ["I don't know /nope. /help lists what I can do."]


async def test_a_stranger_in_a_private_chat_still_gets_the_one_refusal(
    kit: Kit, tg: FakeTelegramServer, make_channel: ChannelFactory
) -> None:
    async with running(make_channel()):
        tg.push_text(STRANGER_TG, "hello?")
        await tg.async_wait_for_sent(1)
    assert [(s["chat_id"], s["text"]) for s in tg.sent] == [(STRANGER_TG, REFUSAL)]
    assert await _stored(kit) == []
