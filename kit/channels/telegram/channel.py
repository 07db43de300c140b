"""The Telegram channel: python-telegram-bot's Application inside the daemon's event loop.

This is the only module that imports `telegram`. PTB objects stay here; the core sees an
`Inbound` going in and plain text coming out.

Lifecycle (never `run_polling`): initialize -> start -> updater.start_polling, then a watchdog
that restarts polling when no long poll has been answered for a while, and on cancellation
updater.stop -> stop -> shutdown, each step bounded.

Updates from different chats are handled concurrently, each chat's own one at a time in the
order they came (`_InOrderPerChat`). Who is answered, and from which memory, is decided by
kit/channels/telegram/access.py.

Messages Kit starts itself (the digest, inbox questions) go out through the outbox
(kit/delivery/outbox.py) to the owners' private chats; a press on one of their buttons is a
callback query that kit/delivery/callbacks.py decides.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Awaitable, Callable, Coroutine, Mapping, Sequence
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
    ExtBot,
    MessageHandler,
    TypeHandler,
    filters,
)
from telegram.request import HTTPXRequest

from kit.api import Kit
from kit.app import Services
from kit.channels import replies
from kit.channels.documents import keep_document
from kit.channels.formatting import markdown_to_html
from kit.channels.in_order import InOrderPerKey
from kit.channels.replies import Reply, argument, guarded, plain, seconds
from kit.channels.telegram.access import TelegramAccess
from kit.channels.telegram.config import EMPTY_ALLOWLIST, TOKEN_ENV, api_urls, check_token
from kit.channels.telegram.watchdog import PollWatchdog
from kit.channels.voice import voice_turn
from kit.chat_commands import COMMANDS, ChatCommands, unknown_command
from kit.config import Settings
from kit.delivery.callbacks import Pressed, fit_answer
from kit.delivery.outbox import Outgoing
from kit.delivery.splitting import TELEGRAM_LIMIT, split_message, utf16_length
from kit.errors import ConfigError
from kit.reach import Reach
from kit.turn import Inbound

__all__ = ["EMPTY_ALLOWLIST", "TOKEN_ENV", "TelegramChannel", "api_urls", "reach_bot"]

# PTB 22 warns on every RetryAfter unless time periods are opted into as timedelta.
os.environ.setdefault("PTB_TIMEDELTA", "1")

log = logging.getLogger(__name__)

CHANNEL = "telegram"

Context = ContextTypes.DEFAULT_TYPE
Callback = Callable[[Update, Context], Coroutine[Any, Any, None]]
Sleep = Callable[[float], Awaitable[None]]


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


class _TokenRejected(Exception):
    """Telegram stopped accepting the token while Kit was running (PTB's polling ended)."""


class TelegramChannel:
    """Kit on Telegram. `run()` until cancelled; see the module docstring for the lifecycle.

    The thresholds are parameters so tests can run in seconds: long polls wait `poll_timeout`
    seconds; polling is restarted when none has been answered for `stall_after` seconds
    (default 3 × poll_timeout + 10), a wait `stall_wait` does (a seam: a test ends it itself
    instead of betting on how fast a loaded machine answers a poll).
    """

    name = CHANNEL

    def __init__(
        self,
        services: Services,
        token: str,
        *,
        settings: Settings | None = None,
        poll_timeout: float = 30.0,
        stall_after: float | None = None,
        stop_timeout: float = 10.0,
        typing_every: float = 4.0,
        send_attempts: int = 3,
        max_flood_wait: float = 120.0,
        startup_retry: float = 2.0,
        sleep: Sleep = asyncio.sleep,
        stall_wait: Sleep = asyncio.sleep,
    ) -> None:
        settings = settings or services.settings
        self._services = services
        self._token = check_token(token)
        self._urls = api_urls(settings.telegram.base_url)
        self._poll_timeout = poll_timeout
        stall_after = stall_after if stall_after is not None else 3 * poll_timeout + 10
        self._watchdog = PollWatchdog(stall_after, stall_wait)  # kit/channels/telegram/watchdog.py
        self._stop_timeout = stop_timeout
        self._typing_every = typing_every
        self._send_attempts = max(1, send_attempts)
        self._max_flood_wait = max_flood_wait
        self._startup_retry = startup_retry
        self._sleep = sleep  # flood-control waits go through here (a seam for tests)
        self._kit = Kit(services)  # what the owner does here goes through Kit's public face
        self._commands = ChatCommands(self._kit, channel=CHANNEL)
        self._access = TelegramAccess(settings)
        self._updates = _InOrderPerChat()
        self.restarts = 0  # how many times the watchdog restarted polling

    @classmethod
    def from_env(
        cls, services: Services, *, environ: Mapping[str, str] = os.environ, **options: object
    ) -> TelegramChannel:
        """A channel with the token from TELEGRAM_BOT_TOKEN (ConfigError if unset)."""
        return cls(services, environ.get(TOKEN_ENV, ""), **options)  # type: ignore[arg-type]

    # ---- lifecycle -------------------------------------------------------------------------
    async def run(self) -> None:
        """Serve until cancelled. Raises ConfigError if Telegram rejects the token at start;
        returns early (logged) only if Telegram revokes it while running."""
        app = self._build()
        initialized = False
        try:
            await self._initialize(app)
            initialized = True
            await self._register_commands(app)
            await app.start()
            await self._start_polling(app)
            log.info("telegram: polling as @%s", app.bot.username)
            reminders = self._services.reminders.dispatcher
            reminders.register(CHANNEL, lambda chat, text: self.send_to_chat(app, chat, text))
            outbox = self._services.outbox
            outbox.register(
                CHANNEL, lambda user, messages: self.push(app, user, messages),
                reaches=lambda user: bool(self._access.chats_of(user)), limit=TELEGRAM_LIMIT,
            )  # fmt: skip
            try:
                await self._services.inbox.announce()  # what passes asked while Telegram was off
                await self._watchdog.watch(lambda: self._restart_polling(app))
            finally:
                reminders.unregister(CHANNEL)
                outbox.unregister(CHANNEL)
        except _TokenRejected:
            # Restarting cannot fix a revoked token; the rest of Kit keeps running.
            log.error(
                "telegram: Telegram now rejects the bot token (revoked?); Telegram is off until "
                "a new %s is set and Kit restarts",
                TOKEN_ENV,
            )
        finally:
            await self._teardown(app, initialized)

    async def send_to_chat(self, app: Application, chat: str, text: str) -> None:  # type: ignore[type-arg]
        """A message Kit starts itself (a reminder, a scheduled task's answer). Unlike a
        reply, a failure raises (TelegramError), so the reminder stays pending and is retried."""
        for chunk in split_message(text):
            await self._send_chunk(app.bot, int(chat), chunk, formatted=True)

    async def push(
        self,
        app: Application,  # type: ignore[type-arg]
        user_id: str,
        messages: Sequence[Outgoing],
    ) -> int:
        """Messages Kit starts to the owners of memory `user_id` (kit/delivery/outbox.py), in
        their private chats, as plain text with their buttons; a failure raises. Returns the
        chats reached."""
        chats = self._access.chats_of(user_id)
        for chat, message in ((c, m) for c in chats for m in messages):
            rows = [[InlineKeyboardButton(b.label, callback_data=b.data) for b in row]
                    for row in message.buttons]  # fmt: skip
            markup = InlineKeyboardMarkup(rows) if rows else None
            await self._send_chunk(app.bot, chat, message.text, False, markup)
        return len(chats)

    def _build(self) -> Application:  # type: ignore[type-arg]
        builder = (
            ApplicationBuilder()
            .token(self._token)
            .get_updates_request(_PollRequest(self._watchdog.answered))
            .job_queue(None)  # Kit's scheduler owns timed jobs; keeps APScheduler out of here
            .concurrent_updates(self._updates)
        )
        if self._urls is not None:
            builder = builder.base_url(self._urls[0]).base_file_url(self._urls[1])
        app = builder.build()
        # Group -2 runs first: an update another worker (or an earlier run) claimed is not
        # answered again (kit/jobs/leases.py); then group -1 turns strangers away.
        app.add_handler(TypeHandler(Update, self._claim), group=-2)
        app.add_handler(TypeHandler(Update, self._gate), group=-1)
        app.add_handler(CallbackQueryHandler(self._on_button))  # a press on a button Kit sent
        # A forwarded "/forget 3" is someone else's text to remember, not the owner's command.
        typed = ~filters.FORWARDED
        for name, run in self._commands.table().items():
            app.add_handler(CommandHandler(name, self._command(name, run), filters=typed))
        text = filters.TEXT & (~filters.COMMAND | filters.FORWARDED)
        app.add_handler(MessageHandler(text, self._on_text))
        app.add_handler(MessageHandler(filters.COMMAND & typed, self._unknown_command))
        # A file in a private chat becomes a note of that person's (kit/notes/); in a group
        # it is refused like any other non-text message.
        document = filters.Document.ALL & filters.ChatType.PRIVATE
        app.add_handler(MessageHandler(document, self._on_document))
        app.add_handler(MessageHandler(filters.VOICE, self._on_voice))  # heard: kit/speech/
        app.add_handler(MessageHandler(filters.ALL, self._on_non_text))
        app.add_error_handler(self._on_error)
        return app

    async def _initialize(self, app: Application) -> None:  # type: ignore[type-arg]
        """getMe until it works: a daemon started offline waits for the network, but a token
        Telegram rejects is a configuration error."""
        delay = self._startup_retry
        while True:
            try:
                async with asyncio.timeout(self._stop_timeout + self._poll_timeout):
                    await app.initialize()
                return
            except InvalidToken:
                # PTB's message contains the token itself: never chain or log it.
                raise ConfigError(
                    f"Telegram rejected the bot token in {TOKEN_ENV}; copy it again from "
                    "@BotFather (/mybots -> API Token)"
                ) from None
            except (NetworkError, TimeoutError) as exc:
                log.warning(
                    "telegram: cannot reach the Bot API (%s); retrying in %.0f s",
                    exc or "timed out",
                    delay,
                )
            await asyncio.sleep(delay)
            delay = min(delay * 2, 60.0)

    async def _register_commands(self, app: Application) -> None:  # type: ignore[type-arg]
        """The command menu in Telegram's UI; nice to have, so failures only warn."""
        try:
            async with asyncio.timeout(self._stop_timeout):
                await app.bot.set_my_commands([BotCommand(c, d) for c, d in COMMANDS])
        except (TelegramError, TimeoutError) as exc:
            log.warning("telegram: could not register the command menu: %s", exc)

    async def _start_polling(self, app: Application) -> None:  # type: ignore[type-arg]
        """Start long polling; on failure the watchdog tries again after `stall_after`."""
        assert app.updater is not None
        try:
            async with asyncio.timeout(self._stop_timeout):
                await app.updater.start_polling(
                    poll_interval=0,
                    timeout=timedelta(seconds=self._poll_timeout),
                    allowed_updates=[Update.MESSAGE, Update.CALLBACK_QUERY],
                    error_callback=self._on_poll_error,
                )
        except InvalidToken:
            raise _TokenRejected from None
        except (TelegramError, TimeoutError) as exc:
            log.warning("telegram: could not start polling (%s); will retry", exc or "timed out")

    async def _restart_polling(self, app: Application) -> None:  # type: ignore[type-arg]
        """The watchdog saw no long poll answered for `stall_after` seconds: poll afresh."""
        log.warning(
            "telegram: no long poll answered for %.0f s; restarting polling",
            self._watchdog.stall_after,
        )
        self.restarts += 1
        assert app.updater is not None
        if app.updater.running:
            try:
                async with asyncio.timeout(self._stop_timeout):
                    await app.updater.stop()
            except TimeoutError:
                log.warning("telegram: the stalled poll did not stop in time; starting afresh")
            except InvalidToken:
                raise _TokenRejected from None
            except Exception as exc:  # the old polling task died of it; a fresh one may not
                log.warning("telegram: the old polling task had failed: %r", exc)
        await self._start_polling(app)

    async def _teardown(self, app: Application, initialized: bool) -> None:  # type: ignore[type-arg]
        steps: list[tuple[str, Callable[[], Awaitable[None]]]] = []
        if app.updater is not None and app.updater.running:
            steps.append(("updater.stop", app.updater.stop))
        if app.running:
            steps.append(("stop", app.stop))
        steps.append(("cancel unfinished updates", self._updates.cancel_all))
        if initialized:
            steps.append(("shutdown", app.shutdown))
        steps.append(("bot.shutdown", app.bot.shutdown))  # closes HTTP clients in any case
        for label, step in steps:
            try:
                async with asyncio.timeout(self._stop_timeout):
                    await step()
            except TimeoutError:
                log.warning("telegram: %s took over %.0f s; moving on", label, self._stop_timeout)
            except Exception:
                log.exception("telegram: %s failed during shutdown", label)

    def _on_poll_error(self, error: TelegramError) -> None:
        log.warning("telegram: polling failed: %s", error)

    async def _on_error(self, update: object, context: Context) -> None:
        log.error("telegram: a handler failed", exc_info=context.error)

    # ---- who may talk ----------------------------------------------------------------------
    async def _claim(self, update: Update, context: Context) -> None:
        """Each update is answered once across workers and restarts: the first claim wins."""
        if not await self._services.leases.claim_update(CHANNEL, update.update_id):
            log.info("telegram: update %d was handled already; skipped", update.update_id)
            raise ApplicationHandlerStop

    async def _gate(self, update: Update, context: Context) -> None:
        """Only those TelegramAccess answers get further; a stranger in a private chat gets
        one short refusal, anyone else nothing. Nothing of theirs is stored. A button press
        is let through: `_on_button` answers it (a refusal included) on the button itself."""
        if update.callback_query is not None:
            return
        chat, private, user_id = _who(update)
        if chat is None:
            raise ApplicationHandlerStop
        if self._access.namespace(chat, private, user_id) is not None:
            return
        if self._access.turn_away(chat, private, user_id) == "refuse":
            await self._deliver(context.bot, chat, Reply(replies.REFUSAL, False))
        raise ApplicationHandlerStop

    def _kit_user(self, update: Update) -> str:
        chat, private, user_id = _who(update)
        assert chat is not None
        namespace = self._access.namespace(chat, private, user_id)
        assert namespace is not None  # the gate let only answered senders through
        return namespace

    # ---- buttons ---------------------------------------------------------------------------
    async def _on_button(self, update: Update, context: Context) -> None:
        """A press on a button Kit sent: kit/delivery/callbacks.py decides (only the owner of
        the memory it acts on, once, before it expires); the answer is one line shown on it."""
        query = update.callback_query
        assert query is not None
        chat, private, user_id = _who(update)
        presser = None if chat is None else self._access.namespace(chat, private, user_id)
        pressed = await self._services.callbacks.pressed(query.data or "", presser)
        try:
            await query.answer(fit_answer(pressed.answer))
        except TelegramError as exc:
            log.warning("telegram: could not answer a button press: %s", exc)
        if pressed.spent is not None and isinstance(query.message, Message):
            await _take_away(query.message, query.data or "", pressed)

    # ---- messages --------------------------------------------------------------------------
    async def _on_text(self, update: Update, context: Context) -> None:
        message = update.effective_message
        assert message is not None and message.text is not None
        user = update.effective_user
        _, private, _ = _who(update)
        inbound = Inbound(
            user_id=self._kit_user(update),
            text=message.text,
            channel=CHANNEL,
            conversation=str(message.chat_id),
            # Several people share a group's conversation: the transcript says who wrote what.
            speaker=user.full_name if not private and user is not None else "",
            forwarded_from=_forwarded_from(message),
        )
        await self._respond(update, context, self._turn(inbound), "turn")

    async def _turn(self, inbound: Inbound) -> Reply:
        result = await self._kit.turn(inbound)
        return Reply(result.reply, formatted=not result.failed)

    async def _on_document(self, update: Update, context: Context) -> None:
        message = update.effective_message
        assert message is not None and message.document is not None
        work = self._keep_note(self._kit_user(update), message, context.bot)
        await self._respond(update, context, work, "document")

    async def _keep_note(self, user_id: str, message: Message, bot: Bot) -> Reply:
        """The document as a note (kit/channels/documents.py)."""
        document = message.document
        assert document is not None

        async def fetch() -> bytes:
            return bytes(await (await bot.get_file(document.file_id)).download_as_bytearray())

        return await keep_document(
            self._kit,
            user_id,
            fetch,
            file_name=document.file_name or "",
            size=document.file_size,
            message_id=message.message_id,
            forwarded=_forwarded_from(message),
            channel=CHANNEL,
        )

    async def _on_voice(self, update: Update, context: Context) -> None:
        """A voice message: heard and answered as the sender's text, kept marked as spoken
        (kit/channels/voice.py); without a speech server, one reply saying voice is off."""
        message = update.effective_message
        assert message is not None and message.voice is not None
        voice = message.voice
        user = update.effective_user
        _, private, _ = _who(update)
        inbound = Inbound(
            user_id=self._kit_user(update),
            text="",
            channel=CHANNEL,
            conversation=str(message.chat_id),
            speaker=user.full_name if not private and user is not None else "",
            forwarded_from=_forwarded_from(message),
        )

        async def fetch() -> bytes:
            return bytes(await (await context.bot.get_file(voice.file_id)).download_as_bytearray())

        work = voice_turn(
            self._kit,
            self._services.speech,
            inbound,
            fetch,
            size=voice.file_size,
            file_name="voice.ogg",
            mime_type=voice.mime_type or "audio/ogg",
        )
        await self._respond(update, context, work, "voice")

    async def _on_non_text(self, update: Update, context: Context) -> None:
        if (chat := update.effective_chat) is not None:
            await self._deliver(context.bot, chat.id, Reply(replies.NON_TEXT, False))

    async def _unknown_command(self, update: Update, context: Context) -> None:
        message = update.effective_message
        assert message is not None and message.text is not None
        name, _, addressee = message.text.split()[0].partition("@")
        if addressee and addressee.lower() != (context.bot.username or "").lower():
            return  # in a group, a command for another bot
        text = unknown_command(name.lstrip("/"))
        await self._deliver(context.bot, message.chat_id, Reply(text, False))

    # ---- commands --------------------------------------------------------------------------
    def _command(self, name: str, run: Callable[[str, str], Awaitable[str]]) -> Callback:
        async def handle(update: Update, context: Context) -> None:
            message = update.effective_message
            text = argument(message.text if message is not None else None)
            work = plain(run(self._kit_user(update), text))
            await self._respond(update, context, work, f"/{name}")

        return handle

    # ---- answering -------------------------------------------------------------------------
    async def _respond(
        self, update: Update, context: Context, work: Awaitable[Reply], label: str
    ) -> None:
        """Do the work with a typing indicator, then send the reply (split, with fallbacks)."""
        chat = update.effective_chat
        assert chat is not None
        async with asyncio.TaskGroup() as group:
            typing = group.create_task(self._keep_typing(context.bot, chat.id))
            try:
                reply = await guarded(work, label)
            finally:
                typing.cancel()  # scoped to this turn: the group waits for it to end
        await self._deliver(context.bot, chat.id, reply)

    async def _keep_typing(self, bot: ExtBot, chat_id: int) -> None:  # type: ignore[type-arg]
        """Telegram shows "typing…" for ~5 s per action; refresh it while the work runs.
        A failure here only loses the indicator, never the answer."""
        try:
            while True:
                await bot.send_chat_action(chat_id, ChatAction.TYPING)
                await asyncio.sleep(self._typing_every)
        except TelegramError as exc:
            log.debug("telegram: typing indicator stopped: %s", exc)
        except Exception:  # never let the indicator take the turn down with it
            log.warning("telegram: typing indicator failed", exc_info=True)

    async def _deliver(self, bot: ExtBot, chat_id: int, reply: Reply) -> None:  # type: ignore[type-arg]
        try:
            for chunk in split_message(reply.text):
                await self._send_chunk(bot, chat_id, chunk, reply.formatted)
        except TelegramError as exc:
            log.warning("telegram: could not deliver a reply to chat %d: %s", chat_id, exc)

    async def _send_chunk(
        self,
        bot: ExtBot,  # type: ignore[type-arg]
        chat_id: int,
        chunk: str,
        formatted: bool,
        markup: InlineKeyboardMarkup | None = None,
    ) -> None:
        """Send one chunk (with `markup`'s buttons under it): honour flood control (bounded),
        and if Telegram rejects the formatting, send the same chunk as plain text."""
        rendered = markdown_to_html(chunk) if formatted else None
        waits = 0
        while True:
            try:
                if rendered is None:
                    await bot.send_message(chat_id, chunk, reply_markup=markup)
                else:
                    await bot.send_message(
                        chat_id, rendered, parse_mode=ParseMode.HTML, reply_markup=markup
                    )
                return
            except RetryAfter as exc:
                wait = seconds(exc.retry_after)
                waits += 1
                if waits >= self._send_attempts or wait > self._max_flood_wait:
                    raise
                log.warning("telegram: flood control; waiting %.0f s before resending", wait)
                await self._sleep(wait)
            except BadRequest as exc:
                if rendered is None:
                    raise
                log.info("telegram: formatting rejected (%s); resending as plain text", exc)
                rendered = None


def _who(update: Update) -> tuple[int | None, bool, int | None]:
    """(chat id, whether the chat is private, sender id) of an update."""
    chat, user = update.effective_chat, update.effective_user
    return (
        None if chat is None else chat.id,
        chat is not None and chat.type == ChatType.PRIVATE,
        None if user is None else user.id,
    )


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


async def _take_away(message: Message, data: str, pressed: Pressed) -> None:
    """Edit a message whose button did its work: without the buttons left of no use (the one
    pressed, or all of them with the answer under the text), so no second press is offered."""
    rows = [] if message.reply_markup is None else message.reply_markup.inline_keyboard
    kept = [] if pressed.spent == "message" else [
        [b for b in row if b.callback_data != data] for row in rows
    ]  # fmt: skip
    markup = InlineKeyboardMarkup([row for row in kept if row]) if any(kept) else None
    text = f"{message.text or ''}\n\n{pressed.answer}".strip()
    try:
        if pressed.spent == "message" and message.text and utf16_length(text) <= TELEGRAM_LIMIT:
            await message.edit_text(text, reply_markup=markup)
        else:
            await message.edit_reply_markup(markup)
    except TelegramError as exc:  # the press itself is done; only the message stays as it was
        log.info("telegram: could not take the used buttons off a message: %s", exc)


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
