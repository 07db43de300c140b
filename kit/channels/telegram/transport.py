"""python-telegram-bot, kept here: the only module that imports `telegram`. It runs PTB's
Application for kit/channels/telegram/channel.py and hands it plain frozen dataclasses
(`Author`, `Incoming`, `Press`: kit/channels/telegram/events.py), never PTB's objects; what
goes out is plain text, Kit's `Button`s and ids. PTB's errors come out as `TelegramFailure`
and its kinds, whose messages never hold the token.

What arrives is routed by PTB's handlers, in the order the channel's rules need: every update
is first claimed (group -2: answered once across workers and restarts), then admitted
(group -1: strangers turned away), then handed over as one kind (a button press, one of Kit's
commands, text, an unknown command, a document in a private chat, a voice message, anything
else). A forwarded "/forget 3" is someone else's text to remember, not the owner's command.

Updates from different chats are handled concurrently, each chat's own one at a time in the
order they came (`_InOrderPerChat`); every answered long poll is reported (`_PollRequest`),
which is what the channel's watchdog watches.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Awaitable, Callable, Coroutine, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from datetime import timedelta
from http import HTTPStatus
from typing import Any

from telegram import (
    Bot,
    BotCommand,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
    MessageOriginChannel,
    MessageOriginChat,
    MessageOriginHiddenUser,
    MessageOriginUser,
    Update,
)
from telegram.constants import ChatAction, ChatType, ParseMode
from telegram.error import BadRequest, InvalidToken, NetworkError, RetryAfter, TelegramError
from telegram.ext import (
    Application,
    ApplicationBuilder,
    ApplicationHandlerStop,
    BaseUpdateProcessor,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    TypeHandler,
    filters,
)
from telegram.request import HTTPXRequest

from kit.channels.in_order import InOrderPerKey
from kit.channels.telegram.config import TOKEN_ENV, api_urls
from kit.channels.telegram.events import (
    Author,
    Events,
    FloodControl,
    Incoming,
    Kind,
    Press,
    Rejected,
    Rows,
    Shown,
    TelegramFailure,
    TokenRejected,
    Unreachable,
)
from kit.delivery.callbacks import Button
from kit.errors import ConfigError
from kit.reach import Reach

# PTB 22 warns on every RetryAfter unless time periods are opted into as timedelta.
os.environ.setdefault("PTB_TIMEDELTA", "1")

log = logging.getLogger(__name__)

Context = ContextTypes.DEFAULT_TYPE
Callback = Callable[[Update, Context], Coroutine[Any, Any, None]]
Step = Callable[[], Awaitable[None]]


@contextmanager
def _translated() -> Iterator[None]:
    """PTB's errors as kit/channels/telegram/events.py names them. PTB's message for a
    rejected token contains the token itself: it is never chained or kept."""
    try:
        yield
    except InvalidToken:
        raise TokenRejected("Telegram rejected the bot token") from None
    except RetryAfter as exc:
        raise FloodControl(str(exc), _seconds(exc.retry_after)) from exc
    except BadRequest as exc:
        raise Rejected(str(exc)) from exc
    except NetworkError as exc:
        raise Unreachable(str(exc)) from exc
    except TelegramError as exc:
        raise TelegramFailure(str(exc)) from exc


class _PollRequest(HTTPXRequest):
    """The request object getUpdates uses; it reports every answered long poll, which is
    what the watchdog watches (an alive polling task that never gets answers is stalled)."""

    __slots__ = ("_on_answer",)

    def __init__(self, on_answer: Callable[[], None]) -> None:
        super().__init__(connection_pool_size=1)
        self._on_answer = on_answer

    async def do_request(self, url: str, *args: Any, **kwargs: Any) -> tuple[int, bytes]:
        status, payload = await super().do_request(url, *args, **kwargs)
        if status == HTTPStatus.OK and url.endswith("/getUpdates"):
            self._on_answer()
        return status, payload


class _InOrderPerChat(BaseUpdateProcessor):
    """PTB's hook for how updates run: each chat's one at a time in arrival order, different
    chats concurrently (kit/channels/in_order.py). PTB starts the updates in order and awaits
    them all in `Application.stop()`; `cancel_all()` ends any still running after that."""

    def __init__(self) -> None:
        # The per-chat order is what limits concurrency; PTB's semaphore only caps a flood.
        super().__init__(max_concurrent_updates=1024)
        self._order = InOrderPerKey()

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        chat = update.effective_chat if isinstance(update, Update) else None
        await self._order.run(None if chat is None else chat.id, coroutine)

    async def cancel_all(self) -> None:
        if cancelled := await self._order.cancel_all():
            log.warning("telegram: cancelled %d update(s) still running at shutdown", cancelled)

    async def initialize(self) -> None:
        pass

    async def shutdown(self) -> None:
        pass


class TelegramTransport:
    """PTB's Application for one run of the channel: `build()` it, then the lifecycle steps
    (the channel bounds each), sending, and the steps that stop it."""

    def __init__(self, token: str, base_url: str, *, on_poll_answered: Callable[[], None]) -> None:
        self._token = token
        self._urls = api_urls(base_url)
        self._on_poll_answered = on_poll_answered
        self._updates = _InOrderPerChat()
        self._app: Application | None = None  # type: ignore[type-arg]

    def build(self, events: Events, commands: Sequence[str]) -> None:
        """A fresh Application whose handlers hand each update to `events`; `commands` are
        the names of Kit's commands."""
        builder = (
            ApplicationBuilder()
            .token(self._token)
            .get_updates_request(_PollRequest(self._on_poll_answered))
            .job_queue(None)  # Kit's scheduler owns timed jobs; keeps APScheduler out of here
            .concurrent_updates(self._updates)
        )
        if self._urls is not None:
            builder = builder.base_url(self._urls[0]).base_file_url(self._urls[1])
        app = builder.build()

        async def claim(update: Update, context: Context) -> None:
            if not await events.claim(update.update_id):
                raise ApplicationHandlerStop

        async def admit(update: Update, context: Context) -> None:
            # A button press is let through: the channel answers it (a refusal included).
            if update.callback_query is None and not await events.admit(_author(update)):
                raise ApplicationHandlerStop

        async def press(update: Update, context: Context) -> None:
            query = update.callback_query
            assert query is not None
            shown = _shown(query.message) if isinstance(query.message, Message) else None
            await events.press(Press(query.id, _author(update), query.data or "", shown))

        def handing(kind: Kind, command: str = "") -> Callback:
            async def hand(update: Update, context: Context) -> None:
                if (incoming := _incoming(update, kind, command)) is not None:
                    await events.message(incoming)

            return hand

        app.add_handler(TypeHandler(Update, claim), group=-2)
        app.add_handler(TypeHandler(Update, admit), group=-1)
        app.add_handler(CallbackQueryHandler(press))
        typed = ~filters.FORWARDED
        for name in commands:
            app.add_handler(CommandHandler(name, handing("command", name), filters=typed))
        text = filters.TEXT & (~filters.COMMAND | filters.FORWARDED)
        app.add_handler(MessageHandler(text, handing("text")))
        app.add_handler(MessageHandler(filters.COMMAND & typed, handing("unknown_command")))
        # A file in a private chat is a document to keep; in a group it is like any other
        # message that is not text.
        document = filters.Document.ALL & filters.ChatType.PRIVATE
        app.add_handler(MessageHandler(document, handing("document")))
        app.add_handler(MessageHandler(filters.VOICE, handing("voice")))
        app.add_handler(MessageHandler(filters.ALL, handing("other")))
        app.add_error_handler(_on_error)
        self._app = app

    @property
    def _application(self) -> Application:  # type: ignore[type-arg]
        assert self._app is not None, "build() first"
        return self._app

    @property
    def username(self) -> str:
        return self._application.bot.username or ""

    # ---- lifecycle -------------------------------------------------------------------------
    async def initialize(self) -> None:
        """getMe. A token Telegram rejects is a ConfigError; no answer is `Unreachable`."""
        try:
            await self._application.initialize()
        except InvalidToken:
            raise ConfigError(
                f"Telegram rejected the bot token in {TOKEN_ENV}; copy it again from "
                "@BotFather (/mybots -> API Token)"
            ) from None
        except NetworkError as exc:
            raise Unreachable(str(exc)) from exc

    async def set_commands(self, commands: Sequence[tuple[str, str]]) -> None:
        """The command menu in Telegram's UI: (name, description) pairs."""
        with _translated():
            await self._application.bot.set_my_commands([BotCommand(c, d) for c, d in commands])

    async def start(self) -> None:
        await self._application.start()

    async def start_polling(self, poll_timeout: float) -> None:
        updater = self._application.updater
        assert updater is not None
        with _translated():
            await updater.start_polling(
                poll_interval=0,
                timeout=timedelta(seconds=poll_timeout),
                allowed_updates=[Update.MESSAGE, Update.CALLBACK_QUERY],
                error_callback=_on_poll_error,
            )

    async def stop_polling(self) -> None:
        """Stop long polling if it runs; the polling task's own failure comes out here."""
        updater = self._application.updater
        assert updater is not None
        if updater.running:
            with _translated():
                await updater.stop()

    def stop_steps(self, initialized: bool) -> list[tuple[str, Step]]:
        """What stops the Application, in order, each named (the channel bounds each)."""
        app = self._application
        steps: list[tuple[str, Step]] = []
        if app.updater is not None and app.updater.running:
            steps.append(("updater.stop", app.updater.stop))
        if app.running:
            steps.append(("stop", app.stop))
        steps.append(("cancel unfinished updates", self._updates.cancel_all))
        if initialized:
            steps.append(("shutdown", app.shutdown))
        steps.append(("bot.shutdown", app.bot.shutdown))  # closes HTTP clients in any case
        return steps

    # ---- talking ---------------------------------------------------------------------------
    async def send(
        self, chat_id: int, text: str, *, html: bool = False, buttons: Rows = ()
    ) -> None:
        """One message (HTML when `html`), with `buttons`' rows under it."""
        markup = _markup(buttons)
        bot = self._application.bot
        with _translated():
            if html:
                await bot.send_message(
                    chat_id, text, parse_mode=ParseMode.HTML, reply_markup=markup
                )
            else:
                await bot.send_message(chat_id, text, reply_markup=markup)

    async def typing(self, chat_id: int) -> None:
        """ "typing…" in the chat (Telegram shows it for ~5 s)."""
        with _translated():
            await self._application.bot.send_chat_action(chat_id, ChatAction.TYPING)

    async def download(self, file_id: str) -> bytes:
        bot = self._application.bot
        with _translated():
            return bytes(await (await bot.get_file(file_id)).download_as_bytearray())

    async def answer_press(self, query_id: str, text: str) -> None:
        """The one line Telegram shows on a pressed button."""
        with _translated():
            await self._application.bot.answer_callback_query(query_id, text=text)

    async def edit(
        self, chat_id: int, message_id: int, buttons: Rows, text: str | None = None
    ) -> None:
        """A sent message with other buttons (none when `buttons` is empty), and with
        `text` instead of its own when given."""
        markup = _markup(buttons)
        bot = self._application.bot
        with _translated():
            if text is None:
                await bot.edit_message_reply_markup(
                    chat_id=chat_id, message_id=message_id, reply_markup=markup
                )
            else:
                await bot.edit_message_text(
                    text, chat_id=chat_id, message_id=message_id, reply_markup=markup
                )


def _seconds(period: timedelta | float) -> float:
    return period.total_seconds() if isinstance(period, timedelta) else float(period)


def _markup(rows: Rows) -> InlineKeyboardMarkup | None:
    keyboard = [[InlineKeyboardButton(b.label, callback_data=b.data) for b in row] for row in rows]
    return InlineKeyboardMarkup(keyboard) if keyboard else None


def _on_poll_error(error: TelegramError) -> None:
    log.warning("telegram: polling failed: %s", error)


async def _on_error(update: object, context: Context) -> None:
    log.error("telegram: a handler failed", exc_info=context.error)


def _author(update: Update) -> Author:
    chat, user = update.effective_chat, update.effective_user
    return Author(
        None if chat is None else chat.id,
        chat is not None and chat.type == ChatType.PRIVATE,
        None if user is None else user.id,
        "" if user is None else user.full_name,
    )


def _incoming(update: Update, kind: Kind, command: str) -> Incoming | None:
    message, chat = update.effective_message, update.effective_chat
    if message is None or chat is None:
        return None
    incoming = Incoming(
        kind,
        _author(update),
        chat.id,
        message.message_id,
        text=message.text or "",
        command=command,
        forwarded_from=_forwarded_from(message),
    )
    if kind == "document" and (document := message.document) is not None:
        file = document.file_id, document.file_size, document.file_name or "", ""
    elif kind == "voice" and (voice := message.voice) is not None:
        file = voice.file_id, voice.file_size, "", voice.mime_type or ""
    else:
        return incoming
    file_id, size, file_name, mime_type = file
    return replace(incoming, file_id=file_id, size=size, file_name=file_name, mime_type=mime_type)


def _forwarded_from(message: Message) -> str | None:
    """Whose words a forwarded message holds, as Telegram names them; None if not forwarded
    ("" when Telegram gives no name: the agent stores that as "someone")."""
    origin = message.forward_origin
    if origin is None:
        return None
    if isinstance(origin, MessageOriginUser):
        return origin.sender_user.full_name
    if isinstance(origin, MessageOriginHiddenUser):
        return origin.sender_user_name
    if isinstance(origin, MessageOriginChat | MessageOriginChannel):
        chat = origin.sender_chat if isinstance(origin, MessageOriginChat) else origin.chat
        name = chat.effective_name or ""
        return f"{origin.author_signature} in {name}" if origin.author_signature else name
    return ""


def _shown(message: Message) -> Shown:
    rows = () if message.reply_markup is None else message.reply_markup.inline_keyboard
    buttons = tuple(tuple(Button(b.text, str(b.callback_data or "")) for b in row) for row in rows)
    return Shown(message.chat_id, message.message_id, message.text or "", buttons)


async def reach_bot(token: str, base_url: str = "", *, within: float = 10.0) -> Reach:
    """Whether Telegram takes `token`: one getMe, within `within` seconds (`kit doctor`).
    PTB puts the token in some of its messages, so none of them is passed on."""
    request = HTTPXRequest(
        connection_pool_size=1,
        connect_timeout=within,
        read_timeout=within,
        write_timeout=within,
        pool_timeout=within,
    )
    urls = api_urls(base_url)
    if urls is None:
        bot = Bot(token, request=request)
    else:
        bot = Bot(token, request=request, base_url=urls[0], base_file_url=urls[1])
    try:
        async with asyncio.timeout(within):
            async with bot:  # initialize() is getMe; leaving closes the connection
                return Reach("ok", f"@{bot.username}")
    except InvalidToken:
        return Reach("refused", "Telegram rejected the token")
    except (NetworkError, TimeoutError):
        return Reach("unreachable", "no answer from Telegram")
    except TelegramError as exc:
        return Reach("error", f"Telegram answered with an error ({type(exc).__name__})")
