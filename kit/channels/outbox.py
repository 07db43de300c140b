"""Messages Kit starts itself to a memory's owner on a live channel: the daily digest, a question
for the owner. Not replies and not reminders (those answer in the conversation they came from):
these go to whoever owns the memory, wherever the channel reaches them.

A channel that can reach owners (Telegram) registers a pusher while it runs; `push` hands the
messages to every registered one. Nothing registered means nothing is sent: callers check
`channels` first and say so.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from kit.channels.callbacks import Button
from kit.channels.splitting import TELEGRAM_LIMIT, utf16_length


@dataclass(frozen=True)
class Outgoing:
    """One message: plain text (at most one chat message long) and rows of buttons under it."""

    text: str
    buttons: tuple[tuple[Button, ...], ...] = ()


# (Kit user, messages) -> how many chats they reached (0: none of that memory's owners is on
# this channel). Raises when the channel failed to deliver (nothing is retried here).
Pusher = Callable[[str, Sequence[Outgoing]], Awaitable[int]]


class Outbox:
    def __init__(self) -> None:
        self._pushers: dict[str, Pusher] = {}

    def register(self, channel: str, pusher: Pusher) -> None:
        self._pushers[channel] = pusher

    def unregister(self, channel: str) -> None:
        self._pushers.pop(channel, None)

    @property
    def channels(self) -> tuple[str, ...]:
        return tuple(self._pushers)

    async def push(self, user_id: str, messages: Sequence[Outgoing]) -> int:
        """Send `messages` to `user_id`'s owners on every live channel; the chats reached."""
        for message in messages:  # the sender splits (kit/digest/render.py), not the channel
            if not message.text.strip() or utf16_length(message.text) > TELEGRAM_LIMIT:
                raise ValueError("an outgoing message must hold 1 to 4096 characters")
        reached = 0
        for pusher in list(self._pushers.values()):
            reached += await pusher(user_id, messages)
        return reached
