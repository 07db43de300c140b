"""While Kit thinks, on any channel: a message's turn as a reply, and the chat's typing
indicator kept up around the work that makes a reply. The channel brings how to show
"typing…" (its own request) and which of its errors only end the indicator."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from kit.api import Kit
from kit.channels.replies import Reply, guarded
from kit.turn import Inbound

log = logging.getLogger(__name__)


async def turn_reply(kit: Kit, inbound: Inbound) -> Reply:
    """A typed message's turn; the model's answer is Markdown unless the turn failed."""
    result = await kit.turn(inbound)
    return Reply(result.reply, formatted=not result.failed)


async def with_typing(
    work: Awaitable[Reply],
    label: str,
    channel: str,
    *,
    show: Callable[[], Awaitable[None]],
    every: float,
    stops: type[Exception],
) -> Reply:
    """`work`'s reply (`guarded`: an error becomes a line to send), with `show()` repeated
    every `every` seconds until it is done; an error of the kind `stops` ends the indicator,
    never the answer."""
    async with asyncio.TaskGroup() as group:
        typing = group.create_task(_keep_typing(channel, show, every, stops))
        try:
            return await guarded(work, label, channel)
        finally:
            typing.cancel()  # scoped to this turn: the group waits for it to end


async def _keep_typing(
    channel: str, show: Callable[[], Awaitable[None]], every: float, stops: type[Exception]
) -> None:
    try:
        while True:
            await show()
            await asyncio.sleep(every)
    except stops as exc:
        log.debug("%s: typing indicator stopped: %s", channel, exc)
    except Exception:  # never let the indicator take the turn down with it
        log.warning("%s: typing indicator failed", channel, exc_info=True)
