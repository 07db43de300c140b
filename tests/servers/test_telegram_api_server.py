"""The fake Telegram Bot API server, exercised through the real python-telegram-bot (no mocks)."""

from __future__ import annotations

import threading
import time
from collections.abc import AsyncIterator, Iterator

import httpx
import pytest
from telegram import Bot, BotCommand, Update
from telegram.error import BadRequest, EndPointNotFound, RetryAfter, TimedOut
from telegram.ext import (
    Application,
    ApplicationBuilder,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    filters,
)

from tests.servers.telegram_api import HANG_GUARD, FakeTelegramServer


@pytest.fixture
def server() -> Iterator[FakeTelegramServer]:
    with FakeTelegramServer() as s:
        yield s


def bot_for(server: FakeTelegramServer) -> Bot:
    return Bot(server.token, base_url=server.base_url, base_file_url=server.base_file_url)


async def echo(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_message is not None
    await update.effective_message.reply_text(f"echo: {update.effective_message.text}")


async def help_cmd(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_chat is not None
    await context.bot.send_message(update.effective_chat.id, "help text", parse_mode="HTML")


async def non_text(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    msg = update.effective_message
    assert msg is not None
    kind = "photo" if msg.photo else "sticker" if msg.sticker else "voice" if msg.voice else "?"
    await msg.reply_text(f"got {kind}")


@pytest.fixture
async def app(server: FakeTelegramServer) -> AsyncIterator[Application]:
    application = (
        ApplicationBuilder()
        .token(server.token)
        .base_url(server.base_url)
        .base_file_url(server.base_file_url)
        .build()
    )
    application.add_handler(CommandHandler("help", help_cmd))
    application.add_handler(MessageHandler(filters.TEXT & ~filters.COMMAND, echo))
    application.add_handler(
        MessageHandler(filters.PHOTO | filters.Sticker.ALL | filters.VOICE, non_text)
    )
    await application.initialize()
    await application.start()
    assert application.updater is not None
    await application.updater.start_polling(poll_interval=0, timeout=1)
    try:
        yield application
    finally:
        await application.updater.stop()
        await application.stop()
        await application.shutdown()


@pytest.mark.asyncio
async def test_echo_through_real_application(server: FakeTelegramServer, app: Application) -> None:
    server.push_text(42, "hello")
    sent = await server.async_wait_for_sent(1)
    assert sent[0]["chat_id"] == 42
    assert sent[0]["text"] == "echo: hello"
    assert app.bot.username == "kit_test_bot"
    methods = [m for m, _ in server.calls]
    assert methods[0] == "getMe" and "deleteWebhook" in methods and "getUpdates" in methods


@pytest.mark.asyncio
async def test_command_handler_fires(server: FakeTelegramServer, app: Application) -> None:
    server.push_text(7, "/help", first_name="Bob")
    sent = await server.async_wait_for_sent(1)
    assert sent[0] == {"chat_id": 7, "text": "help text", "parse_mode": "HTML"}


@pytest.mark.asyncio
async def test_updates_are_delivered_once_in_order(
    server: FakeTelegramServer, app: Application
) -> None:
    for i in range(3):
        server.push_text(1, f"m{i}")
    sent = await server.async_wait_for_sent(3)
    assert [s["text"] for s in sent] == ["echo: m0", "echo: m1", "echo: m2"]
    server.push_photo(1)
    server.push_sticker(1)
    server.push_voice(1)
    sent = await server.async_wait_for_sent(6)
    assert sorted(s["text"] for s in sent[3:]) == ["got photo", "got sticker", "got voice"]


@pytest.mark.asyncio
async def test_429_raises_retry_after(
    server: FakeTelegramServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # PTB 22.2+ warns (an error under -W error) when *building* RetryAfter unless opted in.
    monkeypatch.setenv("PTB_TIMEDELTA", "1")
    server.fail_next("sendMessage", retry_after=3)
    async with bot_for(server) as bot:
        with pytest.raises(RetryAfter) as err:
            await bot.send_message(5, "hi")
        assert err.value.retry_after.total_seconds() == 3
        msg = await bot.send_message(5, "hi")  # only the next call fails
    assert msg.text == "hi" and msg.chat.id == 5
    assert [s["text"] for s in server.sent] == ["hi"]


@pytest.mark.asyncio
async def test_reject_markdown_raises_bad_request(server: FakeTelegramServer) -> None:
    server.reject_markdown_next()
    async with bot_for(server) as bot:
        plain = await bot.send_message(5, "plain is fine")  # no parse_mode: not rejected
        with pytest.raises(BadRequest, match=r"(?i)can't parse entities"):
            await bot.send_message(5, "*bold", parse_mode="Markdown")
        again = await bot.send_message(5, "*bold*", parse_mode="Markdown")
    assert again.message_id == plain.message_id + 1
    assert server.sent[-1] == {"chat_id": 5, "text": "*bold*", "parse_mode": "Markdown"}


@pytest.mark.asyncio
async def test_commands_chat_action_and_unknown_method(server: FakeTelegramServer) -> None:
    async with bot_for(server) as bot:
        assert await bot.set_my_commands([BotCommand("help", "Show help")])
        assert await bot.get_my_commands() == (BotCommand("help", "Show help"),)
        assert await bot.send_chat_action(5, "typing")
        with pytest.raises(EndPointNotFound):  # PTB's mapping of Telegram's 404
            await bot.do_api_request("frobnicate", api_kwargs={"x": 1})
    assert server.unknown_methods == ["frobnicate"]
    assert ("sendChatAction", {"chat_id": 5, "action": "typing"}) in server.calls


@pytest.mark.asyncio
async def test_long_poll_blocks_until_update_or_timeout(server: FakeTelegramServer) -> None:
    async with bot_for(server) as bot:
        start = time.monotonic()
        assert await bot.get_updates(timeout=1) == ()
        assert time.monotonic() - start >= 0.9  # it waited out the poll's timeout, then answered
        server.push_text(3, "x")
        first = await bot.get_updates(timeout=1)
        again = await bot.get_updates(timeout=0)  # not confirmed yet: delivered again
        assert [u.update_id for u in again] == [u.update_id for u in first]
        assert await bot.get_updates(offset=first[-1].update_id + 1, timeout=0) == ()


def test_a_hung_poll_never_answers_while_later_polls_do_and_plain_http(
    server: FakeTelegramServer,
) -> None:
    """hang_next_poll: the poll in flight hangs until the server closes (a dead connection),
    and the next one gets what came meanwhile. The test waits on the hang, not on time."""
    hung: list[object] = []

    def poll() -> None:
        with httpx.Client(base_url=server.base_url + server.token) as own:
            try:
                hung.append(own.post("/getUpdates", json={"timeout": 0}, timeout=HANG_GUARD))
            except httpx.HTTPError as exc:  # the server closed under it
                hung.append(exc)

    server.hang_next_poll()
    poller = threading.Thread(target=poll, daemon=True)
    poller.start()
    server.wait_for_hung_polls(1)
    server.push_text(3, "queued during the hang")
    with httpx.Client(base_url=server.base_url + server.token) as client:
        answer = client.get("/getUpdates", params={"timeout": 0}).json()
        assert answer["ok"] and answer["result"][0]["message"]["text"] == "queued during the hang"
        assert hung == [] and poller.is_alive()  # the hung poll got nothing, the next one did
        assert client.post("/sendMessage", data={"chat_id": "9", "text": "42"}).json()["ok"]
    assert server.wait_for_sent(1) == [{"chat_id": 9, "text": "42"}]
    server.close()  # ends the hang
    poller.join(HANG_GUARD)
    assert not poller.is_alive()


@pytest.mark.asyncio
async def test_a_hung_poll_times_out_in_ptb(server: FakeTelegramServer) -> None:
    server.hang_next_poll()  # it never answers, however long the machine takes
    async with Bot(server.token, base_url=server.base_url) as bot:
        with pytest.raises(TimedOut):
            await bot.get_updates(timeout=0, read_timeout=0.3)
