"""The Telegram channel end to end: the real PTB Application against the local Bot API server."""

from __future__ import annotations

import asyncio
from datetime import date

import pytest

from kit.api import Kit
from kit.channels.replies import NON_TEXT, REFUSAL, SORRY
from kit.channels.telegram.channel import EMPTY_ALLOWLIST, TelegramChannel, api_urls
from kit.clock import FakeClock
from kit.config import Settings
from kit.embed.hashing import HashingEmbedder
from kit.errors import ConfigError, LLMOutputError
from kit.llm.base import LLMReply, LLMRequest, TextSink
from kit.llm.fake import FakeLLM
from tests.servers.telegram_api import HANG_GUARD, FakeTelegramServer
from tests.telegram.conftest import (
    ANA_TG,
    OWNER_TG,
    STRANGER_TG,
    ChannelFactory,
    Sleeps,
    StallWaits,
    methods,
    running,
    telegram_settings,
    wait_until,
)

TODAY = date(2026, 3, 2)  # the FakeClock's day


async def count_messages(kit: Kit) -> int:
    return int(await kit.services.db.scalar("SELECT count(*) FROM messages"))


async def test_a_message_in_produces_a_reply_out_with_typing(
    kit: Kit, fake_llm: FakeLLM, tg: FakeTelegramServer, make_channel: ChannelFactory
) -> None:
    fake_llm.queue("Hello Ann, nice to meet you.")
    async with running(make_channel()):
        tg.push_text(OWNER_TG, "hi Kit")
        sent = await tg.async_wait_for_sent(1)
    assert sent[0]["chat_id"] == OWNER_TG
    assert sent[0]["text"] == "Hello Ann, nice to meet you."
    typing = [p for m, p in tg.calls if m == "sendChatAction"]
    assert typing and typing[0] == {"chat_id": OWNER_TG, "action": "typing"}
    stored = await kit.services.messages.on_day("owner", TODAY)
    assert [(m.role, m.text) for m in stored] == [
        ("user", "hi Kit"),
        ("assistant", "Hello Ann, nice to meet you."),
    ]
    conversation = await kit.services.messages.get_conversation(stored[0].conversation_id)
    assert (conversation.channel, conversation.external_id) == ("telegram", str(OWNER_TG))


class GatedLLM:
    """Answers only when the test opens the gate, so a turn lasts as long as the test needs."""

    def __init__(self) -> None:
        self.gate = asyncio.Event()
        self.inner = FakeLLM(default="finally")

    async def complete(self, request: LLMRequest, on_text: TextSink | None = None) -> LLMReply:
        await self.gate.wait()
        return await self.inner.complete(request, on_text)


async def test_typing_is_refreshed_while_a_slow_turn_runs_and_stops_after(
    settings: Settings, clock: FakeClock, tg: FakeTelegramServer, sleeps: Sleeps
) -> None:
    llm = GatedLLM()
    async with Kit.open(
        settings=settings, llm=llm, embedder=HashingEmbedder(), clock=clock, background=False
    ) as gated_kit:
        channel = TelegramChannel(
            gated_kit.services,
            tg.token,
            settings=telegram_settings(settings, tg),
            poll_timeout=1.0,
            typing_every=0.05,
            sleep=sleeps,
        )

        def typing_count() -> int:
            return methods(tg).count("sendChatAction")

        async with running(channel):
            tg.push_text(OWNER_TG, "think hard")
            await wait_until(lambda: typing_count() >= 3)  # refreshed while the model works
            assert tg.sent == []
            llm.gate.set()
            await tg.async_wait_for_sent(1)
            after_reply = typing_count()
            await asyncio.sleep(0.3)  # several refresh intervals
            assert typing_count() == after_reply  # the indicator ended with the turn
    assert tg.sent[0]["text"] == "finally"


async def test_allowed_users_map_to_their_own_kit_namespaces(
    kit: Kit, fake_llm: FakeLLM, tg: FakeTelegramServer, make_channel: ChannelFactory
) -> None:
    fake_llm.queue("hi owner", "hi ana")
    async with running(make_channel()):
        tg.push_text(OWNER_TG, "I am the owner")
        await tg.async_wait_for_sent(1)
        tg.push_text(ANA_TG, "I am Ana")
        sent = await tg.async_wait_for_sent(2)
    assert [(s["chat_id"], s["text"]) for s in sent] == [(OWNER_TG, "hi owner"), (ANA_TG, "hi ana")]
    owner = [m.text for m in await kit.services.messages.on_day("owner", TODAY)]
    ana = [m.text for m in await kit.services.messages.on_day("ana", TODAY)]
    assert owner == ["I am the owner", "hi owner"]
    assert ana == ["I am Ana", "hi ana"]
    assert [r.user_id for r in fake_llm.requests] == ["owner", "ana"]


async def test_an_unknown_user_is_refused_once_and_nothing_is_stored(
    kit: Kit, fake_llm: FakeLLM, tg: FakeTelegramServer, make_channel: ChannelFactory
) -> None:
    async with running(make_channel()):
        tg.push_text(STRANGER_TG, "let me in")
        tg.push_text(STRANGER_TG, "please?")
        tg.push_photo(STRANGER_TG)
        tg.push_text(STRANGER_TG, "/facts")
        tg.push_text(OWNER_TG, "hello")  # processed after the stranger's updates
        sent = await tg.async_wait_for_sent(2)
    assert [(s["chat_id"], s["text"]) for s in sent] == [(STRANGER_TG, REFUSAL), (OWNER_TG, "ok")]
    assert len(fake_llm.requests) == 1 and fake_llm.requests[0].user_id == "owner"
    assert await count_messages(kit) == 2  # the owner's message and its reply, nothing else
    typing_chats = {p["chat_id"] for m, p in tg.calls if m == "sendChatAction"}
    assert typing_chats == {OWNER_TG}


async def test_empty_allowlist_refuses_to_start(
    kit: Kit, tg: FakeTelegramServer, settings: Settings
) -> None:
    with pytest.raises(ConfigError) as err:
        TelegramChannel(kit.services, tg.token, settings=telegram_settings(settings, tg, {}))
    message = str(err.value)
    assert message == EMPTY_ALLOWLIST
    assert "@userinfobot" in message and 'allowed_user_ids = { "123456789" = "owner" }' in message
    assert tg.calls == []  # refused before talking to Telegram at all


async def test_missing_token_is_a_config_error(kit: Kit, settings: Settings) -> None:
    with pytest.raises(ConfigError, match="TELEGRAM_BOT_TOKEN is not set"):
        TelegramChannel.from_env(kit.services, environ={})


async def test_a_rejected_token_stops_the_channel_without_leaking_it(
    kit: Kit, tg: FakeTelegramServer, settings: Settings
) -> None:
    wrong = "999:WRONG-TOKEN-VALUE"
    channel = TelegramChannel(kit.services, wrong, settings=telegram_settings(settings, tg))
    with pytest.raises(ConfigError) as err:
        await channel.run()
    assert "rejected the bot token" in str(err.value)
    assert wrong not in str(err.value) and err.value.__cause__ is None
    assert err.value.__suppress_context__


async def test_a_9000_character_reply_arrives_as_three_messages(
    fake_llm: FakeLLM, tg: FakeTelegramServer, make_channel: ChannelFactory
) -> None:
    paragraph = " ".join(f"This is sentence number {i} of a long answer." for i in range(20))
    long_reply = "\n\n".join([paragraph] * 11)[:9000]
    assert len(long_reply) == 9000
    fake_llm.queue(long_reply)
    async with running(make_channel()):
        tg.push_text(OWNER_TG, "tell me everything")
        sent = await tg.async_wait_for_sent(3)
    assert len(sent) == 3
    assert all(len(s["text"]) <= 4096 for s in sent)
    assert " ".join(" ".join(s["text"].split()) for s in sent) == " ".join(long_reply.split())
    assert all(s["text"].rstrip()[-1] in ".s" for s in sent[:2])  # cut at sentence/paragraph


async def test_flood_control_429_is_waited_out_and_the_message_resent(
    fake_llm: FakeLLM, tg: FakeTelegramServer, make_channel: ChannelFactory, sleeps: Sleeps
) -> None:
    fake_llm.queue("after the flood")
    tg.fail_next("sendMessage", 429, retry_after=3)
    async with running(make_channel()):
        tg.push_text(OWNER_TG, "hello")
        sent = await tg.async_wait_for_sent(1)
    assert [s["text"] for s in sent] == ["after the flood"]
    assert methods(tg).count("sendMessage") == 2
    assert sleeps.seconds == [3.0]


async def test_flood_control_gives_up_after_bounded_attempts(
    fake_llm: FakeLLM, tg: FakeTelegramServer, make_channel: ChannelFactory, sleeps: Sleeps
) -> None:
    fake_llm.queue("never delivered", "second reply")
    for _ in range(3):
        tg.fail_next("sendMessage", 429, retry_after=1)
    async with running(make_channel(send_attempts=3)):
        tg.push_text(OWNER_TG, "hello")
        tg.push_text(OWNER_TG, "again")
        sent = await tg.async_wait_for_sent(1)
    assert [s["text"] for s in sent] == ["second reply"]  # the channel kept working
    assert sleeps.seconds == [1.0, 1.0]  # waited twice, the third 429 ended the attempts


async def test_rejected_formatting_is_resent_as_plain_text(
    fake_llm: FakeLLM, tg: FakeTelegramServer, make_channel: ChannelFactory
) -> None:
    fake_llm.queue("**Bold** claim with `code`")
    tg.reject_markdown_next()
    async with running(make_channel()):
        tg.push_text(OWNER_TG, "hi")
        sent = await tg.async_wait_for_sent(1)
    attempts = [p for m, p in tg.calls if m == "sendMessage"]
    assert attempts[0]["parse_mode"] == "HTML"
    assert attempts[0]["text"] == "<b>Bold</b> claim with <code>code</code>"
    assert sent == [{"chat_id": OWNER_TG, "text": "**Bold** claim with `code`"}]


async def test_model_markdown_is_sent_as_telegram_html(
    fake_llm: FakeLLM, tg: FakeTelegramServer, make_channel: ChannelFactory
) -> None:
    fake_llm.queue("**Done**: a < b")
    async with running(make_channel()):
        tg.push_text(OWNER_TG, "hi")
        sent = await tg.async_wait_for_sent(1)
    assert sent[0]["parse_mode"] == "HTML" and sent[0]["text"] == "<b>Done</b>: a &lt; b"


@pytest.mark.parametrize("kind", ["photo", "sticker"])
async def test_non_text_messages_get_a_clear_answer_and_are_not_stored(
    kind: str, kit: Kit, fake_llm: FakeLLM, tg: FakeTelegramServer, make_channel: ChannelFactory
) -> None:
    async with running(make_channel()):
        getattr(tg, f"push_{kind}")(OWNER_TG)
        sent = await tg.async_wait_for_sent(1)
    assert sent == [{"chat_id": OWNER_TG, "text": NON_TEXT}]
    assert await count_messages(kit) == 0 and fake_llm.requests == []


async def test_a_stalled_long_poll_is_detected_and_polling_restarted(
    fake_llm: FakeLLM, tg: FakeTelegramServer, make_channel: ChannelFactory
) -> None:
    """Waits on events only: the watchdog's `stall_after` passes when the test says so
    (StallWaits), and the stuck poll hangs until the server closes, whatever the load."""
    fake_llm.queue("before", "after")
    stall = StallWaits()
    channel = make_channel(poll_timeout=0.5, stall_after=2.0, stall_wait=stall)
    async with running(channel):
        tg.push_text(OWNER_TG, "one")
        await tg.async_wait_for_sent(1)
        # Answered polls (even empty ones) end the watchdog's wait early, and it waits afresh.
        await wait_until(lambda: stall.cut_short >= 1 and len(stall.seconds) > stall.cut_short)
        assert channel.restarts == 0
        tg.hang_next_poll()
        await wait_until(lambda: tg.hung_polls == 1)  # the poll in flight will never answer
        polls_before = methods(tg).count("getUpdates")
        tg.push_text(OWNER_TG, "two")  # only a fresh poll can fetch it
        stall.expire()  # `stall_after` passes with no poll answered
        await wait_until(lambda: channel.restarts >= 1)
        sent = await tg.async_wait_for_sent(2)
    assert [s["text"] for s in sent] == ["before", "after"]
    assert channel.restarts == 1 and set(stall.seconds) == {2.0}
    # The restart opened fresh polls instead of waiting on the stuck one.
    assert methods(tg).count("getUpdates") >= polls_before + 2


async def test_kit_errors_are_told_and_other_failures_logged_with_a_short_reply(
    fake_llm: FakeLLM,
    tg: FakeTelegramServer,
    make_channel: ChannelFactory,
    caplog: pytest.LogCaptureFixture,
) -> None:
    fake_llm.queue(LLMOutputError("the model's answer was cut off; ask again"), RuntimeError("x"))
    async with running(make_channel()):
        tg.push_text(OWNER_TG, "first")
        await tg.async_wait_for_sent(1)
        tg.push_text(OWNER_TG, "second")
        sent = await tg.async_wait_for_sent(2)
    assert [s["text"] for s in sent] == ["The model's answer was cut off; ask again", SORRY]
    assert all("parse_mode" not in s for s in sent)
    failures = [r for r in caplog.records if r.getMessage() == "telegram: turn failed"]
    assert len(failures) == 1 and failures[0].exc_info is not None


async def test_an_unreachable_api_at_start_is_retried(
    fake_llm: FakeLLM, tg: FakeTelegramServer, make_channel: ChannelFactory
) -> None:
    tg.fail_next("getMe", 502)
    tg.fail_next("getMe", 502)
    async with running(make_channel(startup_retry=0.01)):
        tg.push_text(OWNER_TG, "are you up?")
        sent = await tg.async_wait_for_sent(1)
    assert sent[0]["text"] == "ok"
    assert methods(tg)[:3] == ["getMe", "getMe", "getMe"]


def test_base_url_accepts_a_local_bot_api_server() -> None:
    assert api_urls("") is None
    assert api_urls("http://localhost:8081") == (
        "http://localhost:8081/bot",
        "http://localhost:8081/file/bot",
    )
    assert api_urls("http://localhost:8081/bot/") == (
        "http://localhost:8081/bot",
        "http://localhost:8081/file/bot",
    )
    with pytest.raises(ConfigError, match="must start with http"):
        api_urls("localhost:8081")


async def test_a_token_revoked_while_running_stops_only_the_channel(
    tg: FakeTelegramServer, make_channel: ChannelFactory, caplog: pytest.LogCaptureFixture
) -> None:
    """PTB ends its polling on a 401; the watchdog notices, and since restarting cannot fix
    a revoked token, the channel stops cleanly (returns) instead of taking Kit down."""
    tg.fail_next("getUpdates", 401)
    stall = StallWaits()
    channel = make_channel(poll_timeout=0.5, stall_after=0.5, stall_wait=stall)
    async with running(channel) as task:
        # PTB logs the rejection as its polling ends; then no poll is answered for `stall_after`.
        await wait_until(lambda: any("Invalid token" in r.getMessage() for r in caplog.records))
        stall.expire()
        async with asyncio.timeout(HANG_GUARD):
            await asyncio.shield(task)
        assert task.result() is None
    assert channel.restarts == 1
    errors = [r.getMessage() for r in caplog.records if r.name == "kit.channels.telegram.channel"]
    assert any("rejects the bot token" in e and "TELEGRAM_BOT_TOKEN" in e for e in errors)
    assert tg.token not in caplog.text
