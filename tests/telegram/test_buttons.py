"""Buttons over Telegram with the real PTB Application against the local Bot API server: a
message Kit starts (kit/delivery/outbox.py) reaches the memory's owner with its inline
keyboard; a press is answered on the button (answerCallbackQuery), once, for the owner only."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import timedelta

import pytest

from kit.api import Kit
from kit.clock import FakeClock
from kit.delivery.callbacks import NOT_YOURS
from kit.delivery.outbox import Outbox, Outgoing
from tests.servers.telegram_api import FakeTelegramServer
from tests.telegram.conftest import (
    ANA_TG,
    OWNER_TG,
    STRANGER_TG,
    ChannelFactory,
    methods,
    running,
    wait_until,
)


async def test_a_pushed_message_carries_buttons_and_only_its_owner_can_press_them_once(
    kit: Kit, clock: FakeClock, tg: FakeTelegramServer, make_channel: ChannelFactory
) -> None:
    pressed: list[tuple[str, int | str]] = []

    async def wave(user_id: str, payload: Mapping[str, int | str]) -> str:
        pressed.append((user_id, payload["n"]))
        return "Waved."

    services = kit.services
    services.callbacks.handle("test.wave", wave)
    async with services.db.transaction() as tx:
        button = await services.callbacks.button(
            tx,
            "Wave",
            user_id="owner",
            action="test.wave",
            payload={"n": 1},
            expires_at=clock.now() + timedelta(days=1),
        )
    async with running(make_channel()):
        await wait_until(lambda: "telegram" in services.outbox.channels)
        reached = await services.outbox.push("owner", [Outgoing("Hello", ((button,),))])
        (sent,) = await tg.async_wait_for_sent(1)
        assert reached == 1 and sent["chat_id"] == OWNER_TG  # only the owner's chat
        assert tg.buttons(sent) == [[{"text": "Wave", "callback_data": button.data}]]
        tg.push_callback(STRANGER_TG, button.data, message=sent)
        tg.push_callback(ANA_TG, button.data, message=sent)  # allowed, but another memory
        tg.push_callback(OWNER_TG, button.data, message=sent)
        tg.push_callback(OWNER_TG, button.data, message=sent)
        answers = await tg.async_wait_for_answers(4)
    assert [a["text"] for a in answers] == [
        NOT_YOURS,
        NOT_YOURS,
        "Waved.",
        "This button was already used (Mon 02 Mar 09:00); nothing was changed.",
    ]
    assert pressed == [("owner", 1)]
    assert methods(tg).count("sendMessage") == 1  # the stranger got no chat refusal either
    assert "telegram" not in services.outbox.channels  # stopped: nothing is pushed there


async def test_push_to_a_memory_without_a_telegram_owner_reaches_no_chat(
    kit: Kit, tg: FakeTelegramServer, make_channel: ChannelFactory
) -> None:
    async with running(make_channel()):
        await wait_until(lambda: "telegram" in kit.services.outbox.channels)
        assert await kit.services.outbox.push("family", [Outgoing("Hello")]) == 0
    assert tg.sent == []


async def test_a_message_longer_than_a_chat_message_is_the_senders_bug_and_nothing_goes() -> None:
    outbox = Outbox()
    sent: list[str] = []

    async def channel(user_id: str, messages: Sequence[Outgoing]) -> int:
        sent.extend(m.text for m in messages)
        return 1

    outbox.register("telegram", channel)
    for text in ("", "x" * 4097, "🐈" * 2049):  # 4,098 UTF-16 units
        with pytest.raises(ValueError, match="1 to 4096 characters"):
            await outbox.push("owner", [Outgoing("fine"), Outgoing(text)])
    assert sent == []
    assert await outbox.push("owner", [Outgoing("🐈" * 2048)]) == 1
