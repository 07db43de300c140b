"""How Kit's words reach a Telegram chat, without the SDK (kit/channels/telegram/transport.py
carries them): a reply split to Telegram's 4,096 UTF-16 units, the model's Markdown sent as
Telegram's HTML and, if Telegram rejects that, the same chunk as plain text; flood control
waited out, a bounded number of times; buttons under the messages Kit starts, and taken away
once they did their work.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence

from kit.channels.formatting import markdown_to_html
from kit.channels.replies import Reply
from kit.channels.telegram.events import FloodControl, Rejected, Rows, Shown, TelegramFailure
from kit.channels.telegram.transport import TelegramTransport
from kit.delivery.callbacks import Pressed
from kit.delivery.outbox import Outgoing
from kit.delivery.splitting import TELEGRAM_LIMIT, split_message, utf16_length

log = logging.getLogger(__name__)

Sleep = Callable[[float], Awaitable[None]]


class Sender:
    """Sends through `transport`. A flood-control wait goes through `sleep` (a seam for
    tests); a chunk is given up on after `attempts` waits or one longer than `max_flood_wait`
    seconds."""

    def __init__(
        self,
        transport: TelegramTransport,
        *,
        attempts: int,
        max_flood_wait: float,
        sleep: Sleep,
    ) -> None:
        self._transport = transport
        self._attempts = max(1, attempts)
        self._max_flood_wait = max_flood_wait
        self._sleep = sleep

    async def deliver(self, chat_id: int, reply: Reply) -> None:
        """A reply; a failure is logged (the turn is stored either way)."""
        try:
            for chunk in split_message(reply.text):
                await self.send(chat_id, chunk, reply.formatted)
        except TelegramFailure as exc:
            log.warning("telegram: could not deliver a reply to chat %d: %s", chat_id, exc)

    async def send_text(self, chat_id: int, text: str) -> None:
        """A message Kit starts itself (a reminder, a scheduled task's answer). Unlike a
        reply, a failure raises (TelegramFailure), so the reminder stays pending and is retried."""
        for chunk in split_message(text):
            await self.send(chat_id, chunk, formatted=True)

    async def push(self, chats: Sequence[int], messages: Sequence[Outgoing]) -> None:
        """Messages Kit starts (kit/delivery/outbox.py) to each of `chats`, as plain text with
        their buttons; a failure raises."""
        for chat, message in ((c, m) for c in chats for m in messages):
            await self.send(chat, message.text, False, message.buttons)

    async def send(self, chat_id: int, chunk: str, formatted: bool, buttons: Rows = ()) -> None:
        """Send one chunk (with `buttons` under it): honour flood control (bounded), and if
        Telegram rejects the formatting, send the same chunk as plain text."""
        rendered = markdown_to_html(chunk) if formatted else None
        waits = 0
        while True:
            try:
                if rendered is None:
                    await self._transport.send(chat_id, chunk, buttons=buttons)
                else:
                    await self._transport.send(chat_id, rendered, html=True, buttons=buttons)
                return
            except FloodControl as exc:
                waits += 1
                if waits >= self._attempts or exc.wait > self._max_flood_wait:
                    raise
                log.warning("telegram: flood control; waiting %.0f s before resending", exc.wait)
                await self._sleep(exc.wait)
            except Rejected as exc:
                if rendered is None:
                    raise
                log.info("telegram: formatting rejected (%s); resending as plain text", exc)
                rendered = None

    async def take_away(self, message: Shown, data: str, pressed: Pressed) -> None:
        """Edit a message whose button did its work: without the buttons left of no use (the
        one pressed, or all of them with the answer under the text), so no second press is
        offered."""
        kept = [] if pressed.spent == "message" else [
            [b for b in row if b.data != data] for row in message.buttons
        ]  # fmt: skip
        rows = [row for row in kept if row]
        text = f"{message.text}\n\n{pressed.answer}".strip()
        where = message.chat_id, message.message_id
        try:
            if pressed.spent == "message" and message.text and utf16_length(text) <= TELEGRAM_LIMIT:
                await self._transport.edit(*where, rows, text=text)
            else:
                await self._transport.edit(*where, rows)
        except TelegramFailure as exc:  # the press itself is done; only the message stays
            log.info("telegram: could not take the used buttons off a message: %s", exc)
