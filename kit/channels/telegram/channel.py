"""The Telegram channel: Kit's side of a bot, inside the daemon's event loop.

No python-telegram-bot here: kit/channels/telegram/transport.py runs PTB's Application and
hands this module plain `Incoming` messages and `Press`es; kit/channels/telegram/sending.py
says how Kit's words go out (split, formatted, flood control, buttons).

Lifecycle (never `run_polling`): getMe until Telegram answers (a token it rejects is a
ConfigError), the command menu, start, long polling, then a watchdog that restarts polling
when no long poll has been answered for a while (kit/channels/telegram/watchdog.py); on
cancellation the transport's stop steps, each bounded.

Who is answered, and from which memory, is decided by kit/channels/telegram/access.py; each
update is claimed once across workers and restarts (kit/jobs/leases.py). What is answered:
text as a turn, Kit's commands, a document in a private chat kept as a note
(kit/channels/documents.py), a voice message heard (kit/channels/voice.py); anything else
gets one line saying what Kit reads.

Messages Kit starts itself (the digest, inbox questions) go out through the outbox
(kit/delivery/outbox.py) to the owners' private chats; a press on one of their buttons is a
callback query that kit/delivery/callbacks.py decides.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Awaitable, Callable, Mapping, Sequence

from kit.api import Kit
from kit.app import Services
from kit.channels import replies
from kit.channels.base import delivering
from kit.channels.documents import keep_document
from kit.channels.replies import Reply, argument, plain
from kit.channels.telegram.access import TelegramAccess
from kit.channels.telegram.config import EMPTY_ALLOWLIST, TOKEN_ENV, api_urls, check_token
from kit.channels.telegram.events import (
    Author,
    Incoming,
    Press,
    TelegramFailure,
    TokenRejected,
    Unreachable,
)
from kit.channels.telegram.sending import Sender
from kit.channels.telegram.transport import TelegramTransport
from kit.channels.telegram.watchdog import PollWatchdog
from kit.channels.thinking import turn_reply, with_typing
from kit.channels.voice import voice_turn
from kit.chat_commands import COMMANDS, ChatCommands, unknown_command
from kit.config import Settings
from kit.delivery.callbacks import fit_answer
from kit.delivery.outbox import Outgoing
from kit.delivery.splitting import TELEGRAM_LIMIT
from kit.turn import Inbound

__all__ = ["EMPTY_ALLOWLIST", "TOKEN_ENV", "TelegramChannel", "api_urls"]

log = logging.getLogger(__name__)

CHANNEL = "telegram"

Sleep = Callable[[float], Awaitable[None]]


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
        token = check_token(token)
        api_urls(settings.telegram.base_url)  # a bad telegram.base_url is a ConfigError now
        self._poll_timeout = poll_timeout
        stall_after = stall_after if stall_after is not None else 3 * poll_timeout + 10
        self._watchdog = PollWatchdog(stall_after, stall_wait)  # kit/channels/telegram/watchdog.py
        self._stop_timeout = stop_timeout
        self._typing_every = typing_every
        self._startup_retry = startup_retry
        self._kit = Kit(services)  # what the owner does here goes through Kit's public face
        self._commands = ChatCommands(self._kit, channel=CHANNEL)
        self._table = self._commands.table()
        self._access = TelegramAccess(settings)
        self._transport = TelegramTransport(
            token, settings.telegram.base_url, on_poll_answered=self._watchdog.answered
        )
        self._sender = Sender(
            self._transport,
            attempts=send_attempts,
            max_flood_wait=max_flood_wait,
            sleep=sleep,  # flood-control waits go through here (a seam for tests)
        )
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
        self._transport.build(self, list(self._table))
        initialized = False
        try:
            await self._initialize()
            initialized = True
            await self._register_commands()
            await self._transport.start()
            await self._start_polling()
            log.info("telegram: polling as @%s", self._transport.username)
            async with delivering(
                self._services, CHANNEL, send=self.send_to_chat, push=self.push,
                reaches=lambda user: bool(self._access.chats_of(user)), limit=TELEGRAM_LIMIT,
            ):  # fmt: skip
                await self._watchdog.watch(self._restart_polling)
        except TokenRejected:
            # Restarting cannot fix a revoked token; the rest of Kit keeps running.
            log.error(
                "telegram: Telegram now rejects the bot token (revoked?); Telegram is off until "
                "a new %s is set and Kit restarts",
                TOKEN_ENV,
            )
        finally:
            await self._teardown(initialized)

    async def send_to_chat(self, chat: str, text: str) -> None:
        """A message Kit starts itself (a reminder, a scheduled task's answer). Unlike a
        reply, a failure raises (TelegramFailure), so the reminder stays pending and is
        retried."""
        await self._sender.send_text(int(chat), text)

    async def push(self, user_id: str, messages: Sequence[Outgoing]) -> int:
        """Messages Kit starts to the owners of memory `user_id` (kit/delivery/outbox.py), in
        their private chats, as plain text with their buttons; a failure raises. Returns the
        chats reached."""
        chats = self._access.chats_of(user_id)
        await self._sender.push(chats, messages)
        return len(chats)

    async def _initialize(self) -> None:
        """getMe until it works: a daemon started offline waits for the network, but a token
        Telegram rejects is a configuration error."""
        delay = self._startup_retry
        while True:
            try:
                async with asyncio.timeout(self._stop_timeout + self._poll_timeout):
                    await self._transport.initialize()
                return
            except (Unreachable, TimeoutError) as exc:
                log.warning(
                    "telegram: cannot reach the Bot API (%s); retrying in %.0f s",
                    exc or "timed out",
                    delay,
                )
            await asyncio.sleep(delay)
            delay = min(delay * 2, 60.0)

    async def _register_commands(self) -> None:
        """The command menu in Telegram's UI; nice to have, so failures only warn."""
        try:
            async with asyncio.timeout(self._stop_timeout):
                await self._transport.set_commands(COMMANDS)
        except (TelegramFailure, TimeoutError) as exc:
            log.warning("telegram: could not register the command menu: %s", exc)

    async def _start_polling(self) -> None:
        """Start long polling; on failure the watchdog tries again after `stall_after`."""
        try:
            async with asyncio.timeout(self._stop_timeout):
                await self._transport.start_polling(self._poll_timeout)
        except TokenRejected:
            raise
        except (TelegramFailure, TimeoutError) as exc:
            log.warning("telegram: could not start polling (%s); will retry", exc or "timed out")

    async def _restart_polling(self) -> None:
        """The watchdog saw no long poll answered for `stall_after` seconds: poll afresh."""
        log.warning(
            "telegram: no long poll answered for %.0f s; restarting polling",
            self._watchdog.stall_after,
        )
        self.restarts += 1
        try:
            async with asyncio.timeout(self._stop_timeout):
                await self._transport.stop_polling()
        except TimeoutError:
            log.warning("telegram: the stalled poll did not stop in time; starting afresh")
        except TokenRejected:
            raise
        except Exception as exc:  # the old polling task died of it; a fresh one may not
            log.warning("telegram: the old polling task had failed: %r", exc)
        await self._start_polling()

    async def _teardown(self, initialized: bool) -> None:
        for label, step in self._transport.stop_steps(initialized):
            try:
                async with asyncio.timeout(self._stop_timeout):
                    await step()
            except TimeoutError:
                log.warning("telegram: %s took over %.0f s; moving on", label, self._stop_timeout)
            except Exception:
                log.exception("telegram: %s failed during shutdown", label)

    # ---- who may talk ----------------------------------------------------------------------
    async def claim(self, update_id: int) -> bool:
        """Each update is answered once across workers and restarts: the first claim wins."""
        if await self._services.leases.claim_update(CHANNEL, update_id):
            return True
        log.info("telegram: update %d was handled already; skipped", update_id)
        return False

    async def admit(self, author: Author) -> bool:
        """Only those TelegramAccess answers get further; a stranger in a private chat gets
        one short refusal, anyone else nothing. Nothing of theirs is stored. (A button press
        is not asked here: `press` answers it, a refusal included, on the button itself.)"""
        chat, private, user_id = author.chat_id, author.private, author.user_id
        if chat is None:
            return False
        if self._access.namespace(chat, private, user_id) is not None:
            return True
        if self._access.turn_away(chat, private, user_id) == "refuse":
            await self._sender.deliver(chat, Reply(replies.REFUSAL, False))
        return False

    def _namespace(self, author: Author) -> str | None:
        if author.chat_id is None:
            return None
        return self._access.namespace(author.chat_id, author.private, author.user_id)

    def _kit_user(self, author: Author) -> str:
        namespace = self._namespace(author)
        assert namespace is not None  # `admit` let only answered senders through
        return namespace

    # ---- buttons ---------------------------------------------------------------------------
    async def press(self, press: Press) -> None:
        """A press on a button Kit sent: kit/delivery/callbacks.py decides (only the owner of
        the memory it acts on, once, before it expires); the answer is one line shown on it."""
        pressed = await self._services.callbacks.pressed(press.data, self._namespace(press.author))
        try:
            await self._transport.answer_press(press.query_id, fit_answer(pressed.answer))
        except TelegramFailure as exc:
            log.warning("telegram: could not answer a button press: %s", exc)
        if pressed.spent is not None and press.message is not None:
            await self._sender.take_away(press.message, press.data, pressed)

    # ---- messages --------------------------------------------------------------------------
    async def message(self, incoming: Incoming) -> None:
        """One message `admit` let through, answered by its kind."""
        if incoming.kind == "other":
            await self._sender.deliver(incoming.chat_id, Reply(replies.NON_TEXT, False))
            return
        if incoming.kind == "unknown_command":
            await self._unknown_command(incoming)
            return
        user = self._kit_user(incoming.author)
        if incoming.kind == "text":
            inbound = self._inbound(incoming, user, incoming.text)
            work, label = turn_reply(self._kit, inbound), "turn"
        elif incoming.kind == "document":
            work, label = self._keep_note(user, incoming), "document"
        elif incoming.kind == "voice":
            work, label = self._voice(user, incoming), "voice"
        else:
            run = self._table[incoming.command]
            work, label = plain(run(user, argument(incoming.text))), f"/{incoming.command}"
        await self._respond(incoming.chat_id, work, label)

    def _inbound(self, incoming: Incoming, user: str, text: str) -> Inbound:
        author = incoming.author
        return Inbound(
            user_id=user,
            text=text,
            channel=CHANNEL,
            conversation=str(incoming.chat_id),
            # Several people share a group's conversation: the transcript says who wrote what.
            speaker=author.name if not author.private else "",
            forwarded_from=incoming.forwarded_from,
        )

    async def _keep_note(self, user_id: str, incoming: Incoming) -> Reply:
        """The document as a note (kit/channels/documents.py)."""
        return await keep_document(
            self._kit,
            user_id,
            lambda: self._transport.download(incoming.file_id),
            file_name=incoming.file_name,
            size=incoming.size,
            message_id=incoming.message_id,
            forwarded=incoming.forwarded_from,
            channel=CHANNEL,
        )

    async def _voice(self, user_id: str, incoming: Incoming) -> Reply:
        """A voice message: heard and answered as the sender's text, kept marked as spoken
        (kit/channels/voice.py); without a speech server, one reply saying voice is off."""
        return await voice_turn(
            self._kit,
            self._services.speech,
            self._inbound(incoming, user_id, ""),
            lambda: self._transport.download(incoming.file_id),
            size=incoming.size,
            file_name="voice.ogg",
            mime_type=incoming.mime_type or "audio/ogg",
        )

    async def _unknown_command(self, incoming: Incoming) -> None:
        name, _, addressee = incoming.text.split()[0].partition("@")
        if addressee and addressee.lower() != self._transport.username.lower():
            return  # in a group, a command for another bot
        text = unknown_command(name.lstrip("/"))
        await self._sender.deliver(incoming.chat_id, Reply(text, False))

    # ---- answering -------------------------------------------------------------------------
    async def _respond(self, chat_id: int, work: Awaitable[Reply], label: str) -> None:
        """Do the work with a typing indicator, then send the reply (split, with fallbacks)."""
        # Telegram shows "typing…" for ~5 s per action: it is renewed while the work runs.
        reply = await with_typing(
            work,
            label,
            CHANNEL,
            show=lambda: self._transport.typing(chat_id),
            every=self._typing_every,
            stops=TelegramFailure,
        )
        await self._sender.deliver(chat_id, reply)
