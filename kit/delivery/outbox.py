"""Messages Kit starts itself to a memory's owner on a live channel: the daily digest, a question
for the owner. Not replies and not reminders (those answer in the conversation they came from):
these go to whoever owns the memory, wherever the channel reaches them.

A channel that can reach owners (Telegram) registers a pusher while it runs, and may say whose
owners it reaches; `push` hands the messages to every registered one. Nothing registered means
nothing is sent: callers check `channels` (or `reaches`, for one memory) first and say so.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from kit.delivery.callbacks import Button
from kit.delivery.splitting import TELEGRAM_LIMIT, utf16_length


@dataclass(frozen=True)
class Outgoing:
    """One message: plain text (at most one chat message long) and rows of buttons under it."""

    text: str
    buttons: tuple[tuple[Button, ...], ...] = ()


# (Kit user, messages) -> how many chats they reached (0: none of that memory's owners is on
# this channel). Raises when the channel failed to deliver (nothing is retried here).
Pusher = Callable[[str, Sequence[Outgoing]], Awaitable[int]]
Reaches = Callable[[str], bool]  # Kit user -> whether the channel reaches any of its owners


class Outbox:
    def __init__(self) -> None:
        self._pushers: dict[str, Pusher] = {}
        self._reaches: dict[str, Reaches] = {}

    def register(self, channel: str, pusher: Pusher, *, reaches: Reaches | None = None) -> None:
        """`reaches`: whose owners the channel reaches (None: it cannot tell, so any)."""
        self._pushers[channel] = pusher
        self._reaches[channel] = reaches or (lambda user: True)

    def unregister(self, channel: str) -> None:
        self._pushers.pop(channel, None)
        self._reaches.pop(channel, None)

    def reaches(self, user_id: str) -> bool:
        """Whether a live channel reaches an owner of memory `user_id` (a question waits
        until one does: kit/inbox/service.py)."""
        return any(reaches(user_id) for reaches in list(self._reaches.values()))

    @property
    def channels(self) -> tuple[str, ...]:
        return tuple(self._pushers)

    async def push(self, user_id: str, messages: Sequence[Outgoing]) -> int:
        """Send `messages` to `user_id`'s owners on every live channel; the chats reached."""
        for message in messages:  # the sender splits (kit/digest/render.py), not the channel
            if not message.text.strip() or utf16_length(message.text) > TELEGRAM_LIMIT:
                raise ValueError("an outgoing message must hold 1 to 4096 characters")
        reached = 0
        for channel, pusher in list(self._pushers.items()):
            if self._reaches[channel](user_id):  # a channel that says it cannot is not tried
                reached += await pusher(user_id, messages)
        return reached
