"""A tiny local Telegram Bot API server for running the real python-telegram-bot offline.

Usage::

    with FakeTelegramServer() as tg:
        app = (ApplicationBuilder().token(tg.token)
               .base_url(tg.base_url).base_file_url(tg.base_file_url).build())
        tg.push_text(42, "hello")
        tg.wait_for_sent(1)
        tg.push_document(42, b"# list", file_name="list.md")  # getFile + download serve it
        tg.push_callback(42, data, message=tg.sent[0])  # a press on an inline button
        await tg.async_wait_for_answers(1)              # answerCallbackQuery's texts
        tg.now(tg.sent[0])                              # that message after edits to it

Its parts, one concept each: tests/servers/telegram_api/server.py (the server as a whole),
http.py (requests in, answers out), updates.py (what users do), messages.py (what the bot
says), files.py (what it fetches), core.py (what they share).
"""

from tests.servers.telegram_api.core import HANG_GUARD
from tests.servers.telegram_api.files import MAX_DOWNLOAD
from tests.servers.telegram_api.messages import MAX_ANSWER, MAX_CALLBACK_DATA, MAX_TEXT
from tests.servers.telegram_api.server import FakeTelegramServer
from tests.servers.telegram_api.updates import origin_channel, origin_hidden_user, origin_user

__all__ = [
    "HANG_GUARD",
    "MAX_ANSWER",
    "MAX_CALLBACK_DATA",
    "MAX_DOWNLOAD",
    "MAX_TEXT",
    "FakeTelegramServer",
    "origin_channel",
    "origin_hidden_user",
    "origin_user",
]
