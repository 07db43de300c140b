"""Messages Kit starts itself to a memory's owner on a live channel: the daily digest, a question
for the owner. Not replies and not reminders (those answer in the conversation they came from):
these go to whoever owns the memory, wherever the channel reaches them.

A channel that can reach owners (Telegram, Matrix) registers a pusher while it runs, with the
longest message it takes (`limit`, in UTF-16 units: Telegram's 4,096, Matrix's more), and may
say whose owners it reaches. `push_planned` asks the sender for the messages at each channel's
own limit (the digest packs its passes into as few messages as that channel takes) and hands
them to every registered channel that reaches the owner; `push` sends the same messages to
each. Nothing registered means nothing is sent: callers check `channels` (or `reaches`, for
one memory) first and say so.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from kit.delivery.callbacks import Button
from kit.delivery.splitting import TELEGRAM_LIMIT, utf16_length

DEFAULT_LIMIT = TELEGRAM_LIMIT  # a channel that does not say: the smallest of Kit's channels


@dataclass(frozen=True)
class Outgoing:
    """One message: plain text (at most one chat message long) and rows of buttons under it."""

    text: str
    buttons: tuple[tuple[Button, ...], ...] = ()


# (Kit user, messages) -> how many chats they reached (0: none of that memory's owners is on
# this channel). Raises when the channel failed to deliver (nothing is retried here).
Pusher = Callable[[str, Sequence[Outgoing]], Awaitable[int]]
Reaches = Callable[[str], bool]  # Kit user -> whether the channel reaches any of its owners
# A channel's limit -> the messages for it (each at most that long).
Plan = Callable[[int], Awaitable[Sequence[Outgoing]]]


@dataclass(frozen=True)
class _Channel:
    pusher: Pusher
    reaches: Reaches
    limit: int


class Outbox:
    def __init__(self) -> None:
        self._channels: dict[str, _Channel] = {}

    def register(
        self,
        channel: str,
        pusher: Pusher,
        *,
        reaches: Reaches | None = None,
        limit: int = DEFAULT_LIMIT,
    ) -> None:
        """`reaches`: whose owners the channel reaches (None: it cannot tell, so any);
        `limit`: the longest message it takes, in UTF-16 units."""
        if limit < 100:
            raise ValueError(f"a channel's message limit must be at least 100 (got {limit})")
        self._channels[channel] = _Channel(pusher, reaches or (lambda user: True), limit)

    def unregister(self, channel: str) -> None:
        self._channels.pop(channel, None)

    def reaches(self, user_id: str) -> bool:
        """Whether a live channel reaches an owner of memory `user_id` (a question waits
        until one does: kit/inbox/service.py)."""
        return any(c.reaches(user_id) for c in list(self._channels.values()))

    @property
    def channels(self) -> tuple[str, ...]:
        return tuple(self._channels)

    async def push(self, user_id: str, messages: Sequence[Outgoing]) -> int:
        """Send the same `messages` to `user_id`'s owners on every live channel; the chats
        reached. Each must fit every channel it goes to."""

        async def same(limit: int) -> Sequence[Outgoing]:
            return messages

        return await self.push_planned(user_id, same)

    async def push_planned(self, user_id: str, plan: Plan) -> int:
        """Send each live channel that reaches `user_id`'s owners the messages `plan` makes for
        that channel's limit; the chats reached."""
        reached = 0
        for channel in list(self._channels.values()):
            if not channel.reaches(user_id):  # a channel that says it cannot is not tried
                continue
            messages = await plan(channel.limit)
            for message in messages:  # the sender splits (kit/digest/render.py), not the channel
                if not message.text.strip() or utf16_length(message.text) > channel.limit:
                    raise ValueError(
                        f"an outgoing message must hold 1 to {channel.limit} characters"
                    )
            reached += await channel.pusher(user_id, messages)
        return reached
